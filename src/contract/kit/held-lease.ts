/**
 * One holder, across the replicas of a gateway, of something only one process may run (a
 * WhatsApp number's browser, the poller of a Telegram bot): a lease in the adapter's
 * PlatformStorage elects it. The holder renews the lease every `renewEveryMs` (a third of its
 * TTL: two renewals may fail before it runs out); the others stand by and try again every
 * `retryEveryMs`, so one of them takes over within the TTL when the holder dies, and at once
 * when it gives the lease up on stop().
 *
 * A holder must stop before another process can start. A renewal the store does not answer
 * keeps the lease only while it surely lasts past the next try (`confirmedAt`, taken before
 * the call that confirmed it); after that, or when the lease was taken, `lost` is told at once.
 */
import type { Logger } from '../adapter.js';
import type { PlatformStorage } from '../platform-module.js';

export interface LeaseTimings {
  /** How long the lease lasts without a renewal: a dead holder is replaced after at most this. */
  ttlMs: number;
  /** How often the holder renews (a third of the TTL: two renewals may fail before it expires). */
  renewEveryMs: number;
  /** How often a standby process tries to take the lease. */
  retryEveryMs: number;
}

export const DEFAULT_LEASE_TIMINGS: LeaseTimings = { ttlMs: 30_000, renewEveryMs: 10_000, retryEveryMs: 5_000 };

/** What the holder runs, told of the lease; a returned promise is waited for before the next step (and by stop()). */
export interface LeaseEvents {
  /** This process now holds the lease: start what only the holder runs. */
  acquired(): void | Promise<void>;
  /** It no longer holds it (taken, or not renewed in time): stop at once, another process may start. */
  lost(): void | Promise<void>;
  /** Another process holds it (after each try that did not get it). */
  standby?(): void | Promise<void>;
  /** A renewal confirmed it (each `renewEveryMs`): e.g. start again what failed to start when acquired. */
  renewed?(): void | Promise<void>;
}

/** The lease in the log lines, in the adapter's words. */
export interface HeldLeaseWords {
  /** Which lease: 'the WhatsApp browser lease'. */
  lease: string;
  /** What its holder does, logged when it takes it: 'this process runs the browser of this number'. */
  whenHeld: string;
  /** What a holder does when it loses it: 'closing this browser'. */
  whenLost: string;
  /** What to check when the store does not answer: 'REDIS_URL'. */
  check: string;
}

export interface HeldLeaseOptions {
  storage: PlatformStorage;
  /** The lease's name in the storage (which scopes it to the platform and bot). */
  name: string;
  logger: Logger;
  events: LeaseEvents;
  words: HeldLeaseWords;
  /** Tests shorten these; default DEFAULT_LEASE_TIMINGS. */
  timings?: LeaseTimings | undefined;
}

export class HeldLease {
  private readonly timings: LeaseTimings;
  private token: string | undefined;
  /** When the last call that confirmed the lease was made: its TTL runs from no earlier than this. */
  private confirmedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** The step in progress, so that stop() releases only after it. */
  private step: Promise<void> = Promise.resolve();

  constructor(private readonly options: HeldLeaseOptions) {
    this.timings = options.timings ?? DEFAULT_LEASE_TIMINGS;
  }

  /** Whether this process holds the lease (as far as it surely knows). */
  held(): boolean {
    return this.token !== undefined;
  }

  /** Tries to take the lease now, then keeps trying (standby) or renewing (holder) in the background. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /**
   * Stops trying and, after the step in progress, gives the lease up, so another process takes
   * over without waiting for it to expire. Stop what the holder runs before: `lost` is not told.
   */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.step;
    const token = this.token;
    this.token = undefined;
    if (token)
      await this.options.storage
        .releaseLease(this.options.name, token)
        .catch((error: unknown) =>
          this.options.logger.warn(
            { err: error },
            `could not release ${this.options.words.lease}; another process takes over once it expires`,
          ),
        );
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.step = this.tick()
        .catch((error: unknown) =>
          this.options.logger.error({ err: error }, `${this.options.words.lease}: its holder's step failed`),
        )
        .finally(() => this.schedule(this.held() ? this.timings.renewEveryMs : this.timings.retryEveryMs));
    }, delayMs);
  }

  private async tick(): Promise<void> {
    if (this.token) await this.renew(this.token);
    else await this.acquire();
  }

  private async acquire(): Promise<void> {
    const { storage, name, words } = this.options;
    const askedAt = Date.now();
    let token: string | null;
    try {
      token = await storage.acquireLease(name, this.timings.ttlMs);
    } catch (error) {
      this.options.logger.warn(
        { err: error },
        `could not ask for ${words.lease} (the state store did not answer: check ${words.check} and the network); trying again`,
      );
      return;
    }
    if (!token) {
      await this.options.events.standby?.();
      return;
    }
    if (!this.running) {
      await storage.releaseLease(name, token).catch(() => undefined);
      return;
    }
    this.token = token;
    this.confirmedAt = askedAt;
    this.options.logger.info(`took ${words.lease}: ${words.whenHeld}`);
    await this.options.events.acquired();
  }

  private async renew(token: string): Promise<void> {
    const { storage, name, words } = this.options;
    const askedAt = Date.now();
    let renewed: boolean;
    try {
      renewed = await storage.renewLease(name, token, this.timings.ttlMs);
    } catch (error) {
      // Unknown whether it still holds: it keeps holding only while the lease surely lasts past
      // the next try, so that it has stopped before the lease can go to another process.
      if (Date.now() + this.timings.renewEveryMs - this.confirmedAt < this.timings.ttlMs) {
        this.options.logger.warn(
          { err: error },
          `could not renew ${words.lease} (the state store did not answer: check ${words.check} and the network); trying again`,
        );
        return;
      }
      this.options.logger.warn(
        { err: error },
        `could not renew ${words.lease} before it may run out (the state store did not answer: check ${words.check} and the network)`,
      );
      renewed = false;
    }
    if (renewed) {
      this.confirmedAt = askedAt;
      await this.options.events.renewed?.();
      return;
    }
    this.token = undefined;
    this.options.logger.warn(`lost ${words.lease} (another process may hold it now): ${words.whenLost}`);
    await this.options.events.lost();
  }
}
