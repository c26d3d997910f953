/**
 * Slack's rate limits as docs/platforms.md §B.1 states them (per method, per
 * workspace, per app; chat.postMessage about 1/s per channel), answered as a
 * 429 with `Retry-After` in seconds. Plus scripted failures for tests.
 */

export interface RateRule {
  /** Calls allowed per minute (a token bucket refilled continuously). */
  perMinute: number;
  /** Calls that may go back to back before the rate bites. */
  burst: number;
  /** 'channel': one bucket per conversation (chat.postMessage); 'workspace': one per method. */
  per: 'channel' | 'workspace';
}

/** Rules by method name; a method without a rule is unlimited. */
export type RateRules = Record<string, RateRule>;

/**
 * The defaults. chat.postMessage: "one message per second per channel" (Special tier; short bursts
 * "allowed with no guarantee", so none here). chat.update Tier 3 (50+/min), appendStream Tier 4
 * (100+/min), startStream/stopStream Tier 2 (20+/min). Bursts are generous for the per-minute
 * tiers because Slack counts them over a minute, not per second.
 */
export const DEFAULT_RATE_RULES: RateRules = {
  'chat.postMessage': { perMinute: 60, burst: 1, per: 'channel' },
  'chat.update': { perMinute: 50, burst: 20, per: 'workspace' },
  'chat.appendStream': { perMinute: 100, burst: 40, per: 'workspace' },
  'chat.startStream': { perMinute: 20, burst: 10, per: 'workspace' },
  'chat.stopStream': { perMinute: 20, burst: 10, per: 'workspace' },
};

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private rules: RateRules | null;

  constructor(
    rules: RateRules | false | undefined,
    private readonly now: () => number,
  ) {
    this.rules = rules === false ? null : (rules ?? DEFAULT_RATE_RULES);
  }

  configure(rules: RateRules | false): void {
    this.rules = rules === false ? null : rules;
    this.buckets.clear();
  }

  /** Takes one call slot, or returns the seconds to wait (Slack's Retry-After, at least 1). */
  take(method: string, channel: string | undefined): { retryAfter: number } | null {
    const rule = this.rules?.[method];
    if (!rule) return null;
    const key = rule.per === 'channel' ? `${method}/${channel ?? ''}` : method;
    const now = this.now();
    const perMs = rule.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: rule.burst, updatedAt: now };
    this.buckets.set(key, bucket);
    bucket.tokens = Math.min(rule.burst, bucket.tokens + (now - bucket.updatedAt) * perMs);
    bucket.updatedAt = now;
    if (bucket.tokens < 1) return { retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
    bucket.tokens -= 1;
    return null;
  }
}

/** How one scripted call fails. */
export type InjectedFailure =
  /** HTTP 200 `{ok:false, error}` (e.g. 'not_allowed', 'channel_not_found', 'invalid_auth'). */
  | { error: string }
  /** HTTP 429 with `Retry-After: retryAfter` (default 1) and `{ok:false, error:'ratelimited'}`. */
  | { status: 429; retryAfter?: number }
  /** An HTTP 5xx with a plain-text body, as Slack's edge answers when it is unwell. */
  | { status: 500 | 502 | 503 | 504 }
  /** The TCP connection is destroyed before any answer. */
  | { reset: true }
  /** Not a failure: the call is answered as usual, only late, once `until` resolves (a slow Slack); `arrived` is told when it comes. */
  | { until: Promise<void>; arrived?: () => void };

/** "The next N calls of method M fail like this." */
export class FailureScript {
  private readonly queued = new Map<string, InjectedFailure[]>();

  add(method: string, failure: InjectedFailure, times: number): void {
    const list = this.queued.get(method) ?? [];
    for (let n = 0; n < times; n++) list.push(failure);
    this.queued.set(method, list);
  }

  next(method: string): InjectedFailure | undefined {
    return this.queued.get(method)?.shift();
  }
}
