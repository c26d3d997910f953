/**
 * Bot-wide pacing of message calls. Telegram allows about 30 messages per
 * second per bot across all chats (docs/platforms.md §A.2), besides the
 * per-chat limits the relay already paces. Past that it answers 429 for
 * everyone, so the adapter spaces its own calls instead of learning it from
 * 429s.
 *
 * A token bucket with reservations: each call books the next free slot, so
 * calls go out in the order they asked (a chat's calls are never reordered).
 * An intermediate update whose slot is further away than `maxWaitMs` books
 * nothing and is refused at once (the relay skips it and shows newer text
 * later); a final answer or a reply always books its slot and waits for it, so
 * a burst larger than the pace is delivered late rather than lost.
 *
 * The bucket belongs to one adapter instance (its factory makes it and hands it to
 * the TelegramOutbound), not to the process: a gateway serves each bot with one
 * adapter, and two adapters (two tests, a benchmark beside a test) never share
 * pacing state by accident, as a process-wide map keyed by token made them do.
 *
 * Why not @grammyjs/transformer-throttler (Bottleneck)? It queues every call
 * until its turn, intermediate edits included, so a burst of them would delay
 * the finals behind them; and Bottleneck has seen no release since 2019.
 */

/** Telegram's bulk limit: "about 30 messages per second" per bot (bot FAQ, docs/platforms.md §A.2). */
export const BOT_MESSAGES_PER_SECOND = 30;

/**
 * Calls that may go out back to back before the spacing applies. Small on
 * purpose: Telegram does not say how much burst it tolerates, and a few calls
 * at once are enough for the chats of one moment to start without waiting.
 */
export const BOT_BURST = 5;

/**
 * Longest a call waits for its slot before it is refused as rate-limited: an
 * intermediate update older than this is not worth showing, and the relay
 * would rather skip it and show newer text later.
 */
export const MAX_PACING_WAIT_MS = 1_000;

export interface PacingOptions {
  perSecond?: number;
  burst?: number;
  maxWaitMs?: number;
  /** Clock (ms); another one only in tests. */
  now?: () => number;
}

export class TokenBucket {
  readonly perSecond: number;
  readonly burst: number;
  readonly maxWaitMs: number;
  private readonly now: () => number;
  /** Below zero when slots are booked ahead: each booked call owes one token. */
  private tokens: number;
  private updatedAt: number;

  constructor(options: PacingOptions = {}) {
    this.perSecond = options.perSecond ?? BOT_MESSAGES_PER_SECOND;
    this.burst = options.burst ?? BOT_BURST;
    this.maxWaitMs = options.maxWaitMs ?? MAX_PACING_WAIT_MS;
    this.now = options.now ?? Date.now;
    this.tokens = this.burst;
    this.updatedAt = this.now();
  }

  /**
   * Books the next slot and returns how long to wait for it (ms), or, when that
   * wait would exceed `maxWaitMs` and the call `mayRefuse` (the default), books
   * nothing and returns `{ refusedForMs }`: how long until a slot would be free
   * if nobody else booked one.
   */
  reserve(options: { mayRefuse?: boolean } = {}): number | { refusedForMs: number } {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.perSecond);
    this.updatedAt = now;
    const waitMs = this.tokens >= 1 ? 0 : ((1 - this.tokens) / this.perSecond) * 1000;
    if (options.mayRefuse !== false && waitMs > this.maxWaitMs) return { refusedForMs: Math.ceil(waitMs) };
    this.tokens -= 1;
    return waitMs;
  }
}
