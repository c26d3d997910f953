/**
 * One `batch()` whose commands are read back by the handle `add` gave, each typed by its op
 * (AtomicResults), instead of by their position in the list: a read added, removed or moved
 * cannot shift what another read gets.
 */
import type { AtomicCommand, AtomicResult, StateStore } from './types.js';

/** A command's place in a NamedBatch, typed by what it answers. */
export interface BatchRead<T> {
  readonly index: number;
  /** Never set: carries the result's type. */
  readonly result?: T;
}

/** The results of a NamedBatch's run. */
export interface BatchResults {
  of<T>(read: BatchRead<T>): T;
}

export class NamedBatch {
  private readonly commands: AtomicCommand[] = [];

  /** Adds a command; its result is `results.of(handle)` once the batch ran. Commands run in the order added. */
  add<C extends AtomicCommand>(command: C): BatchRead<AtomicResult<C>> {
    return { index: this.commands.push(command) - 1 };
  }

  /** `pipeline`: no unit at all (StateStore.pipeline), for commands that need no atomicity with one another. */
  async run(state: Pick<StateStore, 'batch' | 'pipeline'>, as: 'batch' | 'pipeline' = 'batch'): Promise<BatchResults> {
    const results = await (as === 'pipeline' ? state.pipeline(this.commands) : state.batch(this.commands));
    // The stores answer each op with the shape AtomicResults names (src/state/redis/replies.ts).
    return { of: <T>(read: BatchRead<T>) => results[read.index] as T };
  }
}
