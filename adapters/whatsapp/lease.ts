/**
 * One browser per WhatsApp number across replicas: a lease in the shared state store
 * elects the process that runs the bot's client. The holder renews it; the others stand
 * by and try again every few seconds, so they take over within the lease's time when the
 * holder dies, and at once when it releases the lease on stop. A holder that cannot renew
 * (the lease was taken, or the store did not answer for longer than the lease lasts) is
 * told at once, so it closes its browser before another process opens one.
 */
import type { Logger, PlatformStorage } from '../../src/contract.js';

/** The lease's name in the bot's PlatformStorage. */
export const BROWSER_LEASE = 'browser';

export interface LeaseTimings {
  /** How long the lease lasts without a renewal: a dead holder is replaced after at most this. */
  ttlMs: number;
  /** How often the holder renews (a third of the TTL: two renewals may fail before it expires). */
  renewEveryMs: number;
  /** How often a standby process tries to take the lease. */
  retryEveryMs: number;
}

export const DEFAULT_LEASE_TIMINGS: LeaseTimings = { ttlMs: 30_000, renewEveryMs: 10_000, retryEveryMs: 5_000 };

export interface LeaseEvents {
  /** This process now holds the lease: start the browser. */
  acquired(): void;
  /** This process no longer holds it (taken, or not renewed in time): close the browser at once. */
  lost(): void;
  /** Another process holds it (after each try that did not get it). */
  standby?(): void;
}

export class BrowserLease {
  private token: string | undefined;
  /** When the holder last renewed (or took) the lease: past ttlMs it may be someone else's. */
  private confirmedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** The step in progress, so that stop() releases only after it. */
  private step: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: PlatformStorage,
    private readonly logger: Logger,
    private readonly events: LeaseEvents,
    private readonly timings: LeaseTimings = DEFAULT_LEASE_TIMINGS,
  ) {}

  held(): boolean {
    return this.token !== undefined;
  }

  /** Tries to take the lease now, then keeps trying (standby) or renewing (holder) in the background. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops trying and gives the lease up, so another process takes over without waiting for it to expire. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.step;
    const token = this.token;
    this.token = undefined;
    if (token)
      await this.storage
        .releaseLease(BROWSER_LEASE, token)
        .catch((error: unknown) =>
          this.logger.warn(
            { err: error },
            'could not release the WhatsApp browser lease; another process takes over once it expires',
          ),
        );
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.step = this.tick().finally(() =>
        this.schedule(this.held() ? this.timings.renewEveryMs : this.timings.retryEveryMs),
      );
    }, delayMs);
  }

  private async tick(): Promise<void> {
    if (this.token) await this.renew(this.token);
    else await this.acquire();
  }

  private async acquire(): Promise<void> {
    let token: string | null;
    try {
      token = await this.storage.acquireLease(BROWSER_LEASE, this.timings.ttlMs);
    } catch (error) {
      this.logger.warn(
        { err: error },
        'could not ask for the WhatsApp browser lease (state store unreachable); trying again',
      );
      return;
    }
    if (!token || !this.running) {
      if (token) await this.storage.releaseLease(BROWSER_LEASE, token).catch(() => undefined);
      else this.events.standby?.();
      return;
    }
    this.token = token;
    this.confirmedAt = Date.now();
    this.logger.info('took the WhatsApp browser lease: this process runs the browser of this number');
    this.events.acquired();
  }

  private async renew(token: string): Promise<void> {
    let renewed: boolean;
    try {
      renewed = await this.storage.renewLease(BROWSER_LEASE, token, this.timings.ttlMs);
    } catch (error) {
      // Unknown whether it still holds: it keeps the browser only while the lease surely lasts
      // past the next try, so that it has closed it before the lease can go to another process.
      if (Date.now() + this.timings.renewEveryMs - this.confirmedAt < this.timings.ttlMs) {
        this.logger.warn(
          { err: error },
          'could not renew the WhatsApp browser lease (state store unreachable); trying again',
        );
        return;
      }
      renewed = false;
    }
    if (renewed) {
      this.confirmedAt = Date.now();
      return;
    }
    this.token = undefined;
    this.logger.warn('lost the WhatsApp browser lease (another process may run this number now): closing this browser');
    this.events.lost();
  }
}
