/**
 * Runs intermediate updates one at a time: the next waits for the previous call
 * to finish and for the pacing interval, and then shows the newest text (the
 * updates in between are coalesced, never queued). One platform call in flight
 * per conversation keeps the order of edits and spares the rate limit.
 *
 * An update is never run in the same turn of the event loop as the offer that
 * asked for it: it waits at least until the events already received are read
 * (`setImmediate`). Fragments that arrived together then make one update, and an
 * answer whose stream ended in the same read (a short or instant answer) makes
 * none: the relay drains the pacer first and shows it with one final call instead
 * of a draft or a first message followed by the final.
 */

/** What one update did, so the pacer knows how long to hold the next one. */
export type UpdateOutcome =
  | { kind: 'shown' }
  /** Nothing worth a platform call yet; does not use up the interval. */
  | { kind: 'waiting' }
  /** 429: the update was skipped; the next one waits at least this long. */
  | { kind: 'rate-limited'; retryAfterMs: number };

export class UpdatePacer {
  private inFlight: Promise<void> | null = null;
  /** Cancels the scheduled run (a timer, or the next turn of the event loop); null when none is scheduled. */
  private cancelScheduled: (() => void) | null = null;
  private pending = false;
  private closed = false;
  private lastShownAt = Number.NEGATIVE_INFINITY;
  private notBefore = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly update: () => Promise<UpdateOutcome>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** New text is available; it will be shown as soon as pacing allows. */
  offer(): void {
    if (this.closed) return;
    this.pending = true;
    this.schedule();
  }

  /**
   * How long to hold a final update so that it comes at least `spacingMs` after the last
   * update shown (or a retry_after asked for), never longer than `spacingMs` itself: a
   * longer retry_after is for the final's own retries and fallback to decide.
   */
  holdFinalFor(spacingMs: number): number {
    const now = Date.now();
    return Math.min(spacingMs, Math.max(0, this.lastShownAt + spacingMs - now, this.notBefore - now));
  }

  /** Stops scheduling and waits for the call in flight, so the final update is the only one left. */
  async drain(): Promise<void> {
    this.closed = true;
    this.cancelScheduled?.();
    this.cancelScheduled = null;
    while (this.inFlight) await this.inFlight;
  }

  private schedule(): void {
    if (this.closed || this.inFlight || this.cancelScheduled || !this.pending) return;
    const now = Date.now();
    const wait = Math.max(0, this.lastShownAt + this.intervalMs - now, this.notBefore - now);
    const fire = (): void => {
      this.cancelScheduled = null;
      this.run();
    };
    if (wait > 0) {
      const timer = setTimeout(fire, wait);
      this.cancelScheduled = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(fire);
      this.cancelScheduled = () => clearImmediate(immediate);
    }
  }

  private run(): void {
    if (this.closed || !this.pending) return;
    this.pending = false;
    const startedAt = Date.now();
    this.inFlight = this.update()
      .then((outcome) => {
        if (outcome.kind === 'shown') this.lastShownAt = startedAt;
        if (outcome.kind === 'rate-limited') {
          this.lastShownAt = startedAt;
          this.notBefore = Date.now() + outcome.retryAfterMs;
          // The skipped text is still owed to the user: try again once allowed.
          this.pending = true;
        }
      })
      .catch(this.onError)
      .finally(() => {
        this.inFlight = null;
        this.schedule();
      });
  }
}
