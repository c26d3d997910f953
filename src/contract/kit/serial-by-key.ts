/**
 * One conversation's messages reach the core in the order the platform delivered them. The
 * core keeps that order from `accept()` on (its queue and lock per conversation); the order in
 * which they reach `accept()` is the adapter's, and an adapter that does anything asynchronous
 * before it (reads the message's chat, asks the platform whose thread it is, greets) could let
 * a later message overtake an earlier one. Runs such work one task at a time per key (a
 * conversation, or anything coarser, e.g. a channel), each key's tasks in the order given.
 * (grammY's `sequentialize` does the same inside grammY's middleware.)
 */
export class SerialByKey {
  /** Per key, the end of its last task (settled either way): the next one starts after it. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` once every task given before for `key` has ended; settles as `task` does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    // A failed task does not hold up the ones after it: each reports its own failure.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task given so far (and any given meanwhile) has ended: stop() hands over what was received. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
