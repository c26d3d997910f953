/**
 * At most a fixed number of messages being accepted (checked, queued in Redis) at once per
 * process; the others wait their turn, in arrival order, before any work is done for them.
 * A webhook that hands over a burst all at once (10,000 new chats) otherwise builds every
 * message's queue entry and Redis command at the same moment: in bench/burst.ts that took one
 * process to a 361 MB peak (232 MB with a line of 100). A message waiting here costs only its
 * place in line; its HTTP request stays open until it is queued, which is the backpressure a
 * webhook gets (the platform holds back or retries, and redelivery is deduplicated).
 *
 * Synchronous bookkeeping only: a place is given back when the accept settles, however it ends.
 */
export class AcceptLine {
  private active = 0;
  private readonly line: (() => void)[] = [];

  constructor(readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 1))
      throw new Error(`AcceptLine capacity must be a whole number of at least 1 (got ${capacity}).`);
  }

  /** Accepts being worked on now. */
  get inProgress(): number {
    return this.active;
  }

  /** Accepts waiting for their turn now. */
  get waiting(): number {
    return this.line.length;
  }

  /**
   * Runs `work` once a place is free (at once when one is), and gives the place back when it settles.
   * When `signal` aborts while it still waits for a place, it leaves the line and rejects with the
   * signal's reason, having done nothing (its webhook was answered already; the platform sends it again).
   */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    // A place handed over by the one leaving is already counted as taken (no one can jump the line).
    if (this.active < this.capacity) this.active++;
    else await this.waitForPlace(signal);
    try {
      return await work();
    } finally {
      const next = this.line.shift();
      if (next) next();
      else this.active--;
    }
  }

  private waitForPlace(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      const leave = (): void => {
        const at = this.line.indexOf(take);
        if (at >= 0) this.line.splice(at, 1);
        reject(signal?.reason as Error);
      };
      const take = (): void => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.line.push(take);
    });
  }
}
