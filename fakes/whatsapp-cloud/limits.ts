/**
 * Meta's sending limits (/work/shared/notes/whatsapp-cloud.md, "Rate limits" and "24-hour
 * customer-service window"), each checked by the fake's clock so a test can move past them
 * without waiting. And the scripted failures a test queues with failNext.
 */

/**
 * Pair rate limit (one business number to one user), from Meta's throughput page as the notes
 * copy it: "about 1 message per 6 s, bursts up to 45 in 6 s that borrow from later".
 */
export const PAIR_BURST = 45;
export const PAIR_PER_SECONDS = 6;
/** Throughput of a number by default ("80 messages/s per number by default (up to 1,000)"). */
export const DEFAULT_THROUGHPUT_PER_SECOND = 80;
/** The customer-service window: free-form messages only within 24 h of the user's last message. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface PairRateLimit {
  /** Messages that may go within one burst window (perSeconds long). */
  burst: number;
  /** Sustained: one message per this many seconds; also the length of a burst window. */
  perSeconds: number;
}

interface PairState {
  /** When all borrowed time is paid back (one `perSeconds` per message sent). */
  owedUntil: number;
  windowStart: number;
  windowCount: number;
}

/**
 * "Bursts borrow from later": a send when nothing is owed opens a burst window of `perSeconds`
 * in which up to `burst` messages go; each message owes `perSeconds`; once the window closes,
 * the next message waits until the debt is paid (45 at once → 270 s of silence). A steady
 * 1 per 6 s never owes anything at its next send.
 */
export class PairLimiter {
  private readonly pairs = new Map<string, PairState>();

  constructor(
    private readonly rule: PairRateLimit | null,
    private readonly now: () => number,
  ) {}

  /** Takes a slot for a message to `user`, or returns false (131056). A refused send costs nothing. */
  take(user: string): boolean {
    if (!this.rule) return true;
    const periodMs = this.rule.perSeconds * 1000;
    const now = this.now();
    let state = this.pairs.get(user);
    if (!state || now >= state.owedUntil) {
      state = { owedUntil: now, windowStart: now, windowCount: 0 };
      this.pairs.set(user, state);
    } else if (now - state.windowStart >= periodMs || state.windowCount >= this.rule.burst) {
      return false;
    }
    state.windowCount += 1;
    state.owedUntil = Math.max(state.owedUntil, now) + periodMs;
    return true;
  }
}

/** Messages per second of the business number, over a sliding second; over it 130429. */
export class ThroughputLimiter {
  private sent: number[] = [];

  constructor(
    private readonly perSecond: number | null,
    private readonly now: () => number,
  ) {}

  take(): boolean {
    if (this.perSecond === null) return true;
    const now = this.now();
    this.sent = this.sent.filter((at) => now - at < 1000);
    if (this.sent.length >= this.perSecond) return false;
    this.sent.push(now);
    return true;
  }
}

/** Whether a free-form message may go to a user whose last message was at `lastInboundAt`. */
export function windowOpen(lastInboundAt: number | undefined, now: number): boolean {
  return lastInboundAt !== undefined && now - lastInboundAt <= SERVICE_WINDOW_MS;
}

export interface ScriptedFailure {
  code: number;
  /** Only sends to this user (digits as in `to`); any send when absent. */
  to?: string;
  httpStatus?: number;
  /**
   * 'response' (default): the send itself answers the error. 'status': the send is accepted
   * (a wamid comes back, nothing is shown) and a `failed` status with the error follows in
   * the webhook, as Meta does for some failures (131047 "sometimes later in a failed status").
   */
  via?: 'response' | 'status';
}

/** "The next n sends (to a user, or any) fail like this", in the order queued. */
export class FailureScript {
  private readonly queued: ScriptedFailure[] = [];

  add(failure: ScriptedFailure, times: number): void {
    for (let n = 0; n < times; n++) this.queued.push(failure);
  }

  /** The first queued failure that applies to a send to `to`, taken off the queue. */
  next(to: string): ScriptedFailure | undefined {
    const index = this.queued.findIndex((f) => f.to === undefined || f.to === to);
    return index === -1 ? undefined : this.queued.splice(index, 1)[0];
  }
}
