/**
 * Connecting to a platform at start without letting an unreachable platform hang the
 * gateway (the contract's `status()` and `start()` rules): the first try decides only whether
 * the platform refuses the bot (a token); after any other failure start() resolves, the
 * adapter reports itself not connected (for /readyz), and tries go on in the background with
 * backoff until one connects, the platform refuses, or stop().
 */
import type { AdapterStatus } from '../adapter.js';
import { retryWithBackoff, type Backoff } from './backoff.js';

/**
 * A platform coming back is noticed within half a minute; the first try again comes after a
 * second, and the waits spread up to twice as long (capped), so that gateways that lost the
 * platform together do not all come back in the same instant.
 */
export const RECONNECT_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 30_000, jitter: 1 };

/**
 * What an attempt throws when the platform answered and asking again cannot change the answer
 * (a refused or revoked token, a bad webhook URL): the tries end. Its message says what to fix.
 */
export class ConnectRefusedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectRefusedError';
  }
}

export interface StayConnectedOptions {
  /** One try to connect; throws ConnectRefusedError for a refusal, anything else is tried again. */
  attempt(signal: AbortSignal): Promise<void>;
  /** Default RECONNECT_BACKOFF. */
  backoff?: Backoff;
  /** A try that has not finished by then is cut off (its `signal` aborts) and counts as failed. */
  attemptTimeoutMs?: number;
  /** A failure in words, for status() (never a secret); default its message. */
  describe?(error: unknown): string;
  /** Told of each failure that is tried again, with the words status() reports (a log line). */
  onRetry?(error: unknown, attempt: number, reason: string): void;
  /** The platform refused after start() had resolved: the bot stays offline (a log line). */
  onRefusedLater?(error: ConnectRefusedError): void;
}

type Outcome = 'connected' | 'stopped' | ConnectRefusedError;

export class StayConnected {
  private state: AdapterStatus = { connected: false, reason: 'not started' };
  private stopper: AbortController | undefined;

  constructor(private readonly options: StayConnectedOptions) {}

  status(): AdapterStatus {
    return { ...this.state };
  }

  /**
   * Resolves once the first try connected (`true`) or failed without a refusal (`false`: tries
   * go on in the background, and `onConnectedLater` runs when one connects). Rejects with the
   * ConnectRefusedError when the first try is refused.
   */
  start(onConnectedLater: () => void): Promise<boolean> {
    const stopper = new AbortController();
    this.stopper = stopper;
    this.state = { connected: false, reason: 'connecting' };
    return new Promise<boolean>((resolve, reject) => {
      let first = true;
      const settleFirst = (connected: boolean): boolean => {
        const wasFirst = first;
        first = false;
        if (wasFirst) resolve(connected);
        return wasFirst;
      };
      void this.tries(stopper.signal, () => settleFirst(false)).then((outcome) => {
        if (outcome === 'stopped') {
          settleFirst(false);
        } else if (outcome === 'connected') {
          this.state = { connected: true };
          if (!settleFirst(true)) onConnectedLater();
        } else {
          this.state = { connected: false, reason: outcome.message };
          if (first) {
            first = false;
            reject(outcome);
          } else {
            this.options.onRefusedLater?.(outcome);
          }
        }
      });
    });
  }

  /** Ends the tries (the adapter's stop()). */
  stop(): void {
    this.stopper?.abort();
    this.stopper = undefined;
    this.state = { connected: false, reason: 'stopped' };
  }

  private async tries(stop: AbortSignal, onFirstFailure: () => void): Promise<Outcome> {
    const { attemptTimeoutMs } = this.options;
    try {
      await retryWithBackoff(
        () =>
          this.options.attempt(
            attemptTimeoutMs === undefined ? stop : AbortSignal.any([stop, AbortSignal.timeout(attemptTimeoutMs)]),
          ),
        {
          backoff: this.options.backoff ?? RECONNECT_BACKOFF,
          signal: stop,
          retryIf: (error) => !stop.aborted && !(error instanceof ConnectRefusedError),
          onFailure: (error, attempt) => {
            const reason = this.options.describe?.(error) ?? (error instanceof Error ? error.message : String(error));
            this.state = { connected: false, reason };
            this.options.onRetry?.(error, attempt, reason);
            if (attempt === 1) onFirstFailure();
          },
          // Tries in the background must not keep a process alive that is otherwise done.
          unref: true,
        },
      );
    } catch (error) {
      if (stop.aborted) return 'stopped';
      // Not a refusal, yet the tries ended: a bug in the attempt (p-retry does not retry a TypeError).
      return error instanceof ConnectRefusedError
        ? error
        : new ConnectRefusedError(error instanceof Error ? error.message : String(error), { cause: error });
    }
    return stop.aborted ? 'stopped' : 'connected';
  }
}
