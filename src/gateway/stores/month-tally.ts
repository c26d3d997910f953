/**
 * The month's count of answered messages of a chatbot with no MessageLimit, added up in the
 * process and written once a second (one INCRBY per chatbot and month), instead of one INCRBY
 * per message on the chatbot's one key: the hottest key of all (every conversation of a chatbot
 * touches it; on a Redis Cluster one slot takes them all).
 *
 * Why count at all with no limit: a limit set in the middle of a month counts what was answered
 * before it. Why it may wait: nothing is checked against it meanwhile. With a limit, every turn
 * reserves its message in its first batch instead (turn/first-batch.ts), so that concurrent
 * conversations cannot overshoot the cap. What a process that dies hard had not written yet (a
 * second's worth at most) is not counted; a stop writes it.
 */
import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';

/** A month's counter outlives the month a little, so a late read never sees a reset by accident. */
export const MONTHLY_COUNTER_TTL_MS = 62 * 24 * 60 * 60_000;

/** How often the counts are written. */
export const MONTH_TALLY_FLUSH_MS = 1_000;
/**
 * How long a stop waits for the last write: a Redis that takes connections but answers nothing
 * (frozen, or a network partition) must not keep the process from exiting; that second's counts
 * are then not written (said in the log).
 */
export const MONTH_TALLY_STOP_WAIT_MS = 2_000;

export class MonthTally {
  private readonly counts = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly state: Pick<StateStore, 'incr'>,
    private readonly logger: Logger,
    private readonly flushMs = MONTH_TALLY_FLUSH_MS,
  ) {}

  /** One more answered message on the month's counter `key` (gatewayKeys.monthly). */
  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** Writes what is counted and stops the timer (the gateway stopping, after its last answers), waiting `waitMs` at most. */
  async stop(waitMs = MONTH_TALLY_STOP_WAIT_MS): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'gave up'>((resolve) => {
      timer = setTimeout(() => resolve('gave up'), waitMs);
    });
    const outcome = await Promise.race([this.flush(), gaveUp]);
    clearTimeout(timer);
    if (outcome === 'gave up')
      this.logger.warn(
        { waitedMs: waitMs },
        "Redis did not answer the last write of the month's message counts in time; the last second's answers are not counted",
      );
  }

  /** Writes the counts so far; one flush at a time, and counts that could not be written stay for the next. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.counts.size === 0) return;
    const taken = [...this.counts];
    this.counts.clear();
    // One command per counter (a chatbot or two, once a second), each with its window: a month's key goes some weeks
    // after its month. Apart, so that a counter that failed is kept for the next try without counting the others twice.
    const written = await Promise.allSettled(
      taken.map(([key, by]) => this.state.incr(key, by, MONTHLY_COUNTER_TTL_MS)),
    );
    const failed = taken.filter((_, i) => written[i]!.status === 'rejected');
    for (const [key, by] of failed) this.counts.set(key, (this.counts.get(key) ?? 0) + by);
    const reason = written.find((result): result is PromiseRejectedResult => result.status === 'rejected')
      ?.reason as unknown;
    if (failed.length > 0)
      this.logger.warn(
        { err: reason, counters: failed.length },
        "could not write the month's message counts; they are kept for the next try",
      );
  }
}
