/**
 * The one way the core retries a platform call whose result the user must see
 * (a final answer, a command's reply, an apology). Two kinds of failure are
 * worth another try, each on its own terms:
 *
 * - 'rate-limited' (429): the platform says how long to wait; we wait exactly
 *   `retry_after`, a bounded number of times within a time budget, then give up
 *   (the caller may fall back, e.g. to a new message).
 * - 'unreachable' (network error, 5xx): nobody said how long; we back off
 *   exponentially for as long as the platform stays unreachable, up to the
 *   outage horizon, then give up. 'unauthorized' (the bot's token refused,
 *   revoked or rotated) is waited out the same way: an outage of the platform
 *   as far as this call can tell, which lasts until the operator sets a working
 *   token (the adapter reports itself not connected meanwhile).
 *
 * Anything else is a refusal of this very call and is thrown at once. Every
 * wait ends early when `signal` aborts (the gateway stops or loses the lock).
 *
 * Why not p-retry: it computes every delay itself (no exact per-error wait), and
 * with a signal it reports a call that succeeded as aborted when the signal fires
 * during it, which would turn a delivered answer into a cut-off turn.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, PlatformError, type Backoff } from '../../contract.js';

/** A 429 without retry_after: Telegram's usual pause for one chat. */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

/** First pause after the platform could not be reached; doubled after each failure. */
export const UNREACHABLE_FIRST_BACKOFF_MS = 1_000;

/**
 * Longest pause between two tries while the platform is unreachable: once it is
 * back, an answer waits at most this long to be delivered.
 */
export const UNREACHABLE_MAX_BACKOFF_MS = 30_000;

/** Up to +50% at random: many conversations waiting on one outage should not all knock at once. */
const UNREACHABLE_BACKOFF: Backoff = {
  firstMs: UNREACHABLE_FIRST_BACKOFF_MS,
  maxMs: UNREACHABLE_MAX_BACKOFF_MS,
  jitter: 0.5,
};

export interface PlatformRetryPolicy {
  /** Tries while the platform answers 429 (the first included). */
  rateLimitAttempts: number;
  /** Total time spent waiting on retry_after before giving up (ms). */
  rateLimitBudgetMs: number;
  /** How long the call is retried while the platform is unreachable (ms); 0 = not retried. */
  outageHorizonMs: number;
}

export interface PlatformRetryOptions {
  policy: PlatformRetryPolicy;
  signal?: AbortSignal | undefined;
  /** Told of each 429 met (for metrics). */
  onRateLimited?(error: PlatformError): void;
  /** Told of each failed try while the platform is unreachable or refuses the token (for a log line). */
  onUnreachable?(error: PlatformError, attempt: number): void;
}

export function isPlatformError(error: unknown, kind: PlatformError['kind']): error is PlatformError {
  return error instanceof PlatformError && error.kind === kind;
}

/**
 * The platform cannot take any call now, for reasons that are not this call's: it is unreachable,
 * or it refuses the bot's token until the operator fixes it. Waited out up to the outage horizon;
 * a new message instead of an edit would not get through either.
 */
export function isPlatformOutage(error: unknown): error is PlatformError {
  return isPlatformError(error, 'unreachable') || isPlatformError(error, 'unauthorized');
}

/**
 * The failures retryPlatformCall tries again (429, unreachable): the platform may well take
 * the same call later, so a caller that cannot wait here keeps what it had to show for later.
 */
export function isRetriedPlatformError(error: unknown): error is PlatformError {
  return isPlatformError(error, 'rate-limited') || isPlatformOutage(error);
}

export async function retryPlatformCall<T>(call: () => Promise<T>, options: PlatformRetryOptions): Promise<T> {
  const { policy, signal } = options;
  const startedAt = performance.now();
  let rateLimitedTries = 0;
  let waitedOnRateLimitMs = 0;
  let unreachableTries = 0;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (signal?.aborted) throw error;
      let waitMs: number;
      if (isPlatformError(error, 'rate-limited')) {
        options.onRateLimited?.(error);
        rateLimitedTries++;
        waitMs = error.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
        if (rateLimitedTries >= policy.rateLimitAttempts || waitedOnRateLimitMs + waitMs > policy.rateLimitBudgetMs)
          throw error;
        waitedOnRateLimitMs += waitMs;
      } else if (isPlatformOutage(error)) {
        unreachableTries++;
        const remainingMs = policy.outageHorizonMs - (performance.now() - startedAt);
        if (remainingMs <= 0) throw error;
        options.onUnreachable?.(error, unreachableTries);
        waitMs = Math.min(remainingMs, backoffDelay(unreachableTries, UNREACHABLE_BACKOFF));
      } else {
        throw error;
      }
      await sleep(waitMs, undefined, signal ? { signal } : {}).catch(() => {
        throw error;
      });
    }
  }
}

/**
 * The new message is the last resort: nothing comes after it but losing the answer, so
 * it keeps honouring retry_after much longer (a bot-wide flood can last minutes). The
 * conversation's lock is kept alive meanwhile, and its next messages wait their turn.
 */
export const LAST_RESORT_ATTEMPTS = 12;
export const LAST_RESORT_BUDGET_MS = 180_000;
