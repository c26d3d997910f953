/**
 * The project's one backoff: how long to wait before trying again something that failed
 * for reasons of its own (a platform, the Chatbot Service or Redis out of reach). Adapters
 * and the core alike take their waits from `backoffDelay`; each place keeps its own numbers
 * (a named `Backoff` next to the code that waits).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';

export interface Backoff {
  /** The wait after the first failure (ms); doubled after each further one. */
  firstMs: number;
  /**
   * The longest wait, jitter included: whatever comes back is tried again within this long
   * (what the README promises, e.g. "at most 30 s apart").
   */
  maxMs: number;
  /**
   * Up to how much longer than the doubled wait (a fraction: 0.5 = up to +50%), at random, so
   * that many waiting on one outage (conversations, gateways) do not all knock at once; 0 = exact.
   */
  jitter: number;
}

/** Doublings past which the wait is the cap anyway (2^30 × 1 ms is 12 days); keeps the power finite. */
const MAX_DOUBLINGS = 30;

/**
 * The wait before the next try after `failures` failures in a row (1 for the first):
 * `firstMs · 2^(failures−1)`, longer by up to `jitter` of itself, at most `maxMs`.
 * `random` is Math.random's (tests pass their own).
 */
export function backoffDelay(failures: number, backoff: Backoff, random: () => number = Math.random): number {
  const doublings = Math.min(Math.max(failures, 1) - 1, MAX_DOUBLINGS);
  const doubled = backoff.firstMs * 2 ** doublings;
  return Math.round(Math.min(backoff.maxMs, doubled * (1 + backoff.jitter * random())));
}

export interface RetryWithBackoffOptions {
  backoff: Backoff;
  /** Ends the tries: a wait in progress ends at once, and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Whether this failure (the `attempt`-th) is worth another try; default: every one. */
  retryIf?(error: unknown, attempt: number): boolean;
  /**
   * Told of each failure that will be tried again, before the backoff (a log line). It may
   * wait itself first, e.g. the `retry_after` a platform asked for; the backoff comes after that.
   */
  onFailure?(error: unknown, attempt: number): void | Promise<void>;
  /** The waits do not keep the process alive (tries in the background of a process that may exit). */
  unref?: boolean;
}

/**
 * Calls `attempt` until it resolves, waiting `backoffDelay` between failures, for as long as
 * `retryIf` says a failure is worth it (then it rejects with that failure) and `signal` has not
 * aborted; a TypeError that is not a network error (a bug) ends the tries too, after its wait.
 * p-retry runs the attempts (counting, which failures end them, the signal); the waits are
 * ours, with p-retry's own delay off (minTimeout 0): its formula can only double, or double
 * at random up to twice, and the project has one backoff.
 */
export function retryWithBackoff<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: RetryWithBackoffOptions,
): Promise<T> {
  const { backoff, signal } = options;
  const retryIf = options.retryIf ?? (() => true);
  return pRetry(attempt, {
    retries: Number.POSITIVE_INFINITY,
    minTimeout: 0,
    ...(signal ? { signal } : {}),
    shouldRetry: ({ error, attemptNumber }) => retryIf(error, attemptNumber),
    // p-retry calls this for every failure, before shouldRetry: only a failure tried again waits.
    onFailedAttempt: async ({ error, attemptNumber }) => {
      if (!retryIf(error, attemptNumber)) return;
      try {
        await options.onFailure?.(error, attemptNumber);
        await sleep(backoffDelay(attemptNumber, backoff), undefined, {
          ...(signal ? { signal } : {}),
          ref: !options.unref,
        });
      } catch (waitError) {
        // Aborted while waiting: the caller hears the signal's reason, as from an abort between tries.
        if (signal?.aborted) throw signal.reason;
        throw waitError;
      }
    },
  });
}
