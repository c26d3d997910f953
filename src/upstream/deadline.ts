import type { AbortCause } from './errors.js';

/**
 * The one AbortSignal a call hands to undici: it fires when the caller's signal
 * does or when the timer runs out, and remembers which, so the error can say
 * 'aborted' or 'timeout' instead of a generic network failure.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private firedCause: AbortCause = null;
  private currentTimeoutMs: number;
  private readonly onCallerAbort = () => this.fire('aborted');

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.signal = this.controller.signal;
    this.currentTimeoutMs = timeoutMs;
    if (callerSignal?.aborted) this.fire('aborted');
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.arm(timeoutMs);
  }

  /** Why the call was cut short, or null while it was not. */
  get cause(): AbortCause {
    return this.firedCause;
  }

  /** The timeout that applies now (for messages). */
  get timeoutMs(): number {
    return this.currentTimeoutMs;
  }

  /** (Re)starts the timer: a stream re-arms it after every chunk, as an idle timeout. */
  arm(timeoutMs: number): void {
    clearTimeout(this.timer);
    this.currentTimeoutMs = timeoutMs;
    if (this.firedCause !== null) return;
    this.timer = setTimeout(() => this.fire('timeout'), timeoutMs);
    this.timer.unref();
  }

  /** Stops the timer while the caller, not the service, is the one taking time. */
  pause(): void {
    clearTimeout(this.timer);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  private fire(cause: Exclude<AbortCause, null>): void {
    if (this.firedCause !== null) return;
    this.firedCause = cause;
    clearTimeout(this.timer);
    this.controller.abort(cause === 'timeout' ? new Error('upstream call timed out') : this.callerSignal?.reason);
  }
}
