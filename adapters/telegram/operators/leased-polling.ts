/**
 * A door with a bot of its own receives by long polling, and Telegram answers 409 to a second
 * poller of one bot: every gateway replica runs the same configuration, so only the holder of a
 * lease in the shared store polls. The holder renews it; the others stand by and try again every
 * few seconds, so one takes over within the lease's time when the holder dies, and at once when
 * it releases the lease on stop. A holder that loses the lease stops polling at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunnerHandle } from '@grammyjs/runner';
import type { Bot } from 'grammy';
import type { Logger, PlatformStorage } from '../../../src/contract.js';
import { startPolling } from '../polling.js';

/** The lease's name in the bot's PlatformStorage (scoped to platform and bot by the runtime). */
export const DOOR_POLL_LEASE = 'operators-poller';

/** Updates a door handles: messages (commands, files) and presses of its buttons. */
export const DOOR_ALLOWED_UPDATES = ['message', 'callback_query'] as const;

export interface PollLeaseTimings {
  /** How long the lease lasts without a renewal: a dead holder is replaced after at most this. */
  ttlMs: number;
  /** How often the holder renews (a third of the TTL: two renewals may fail before it expires). */
  renewEveryMs: number;
  /** How often a standby tries to take the lease. */
  retryEveryMs: number;
}

export const DEFAULT_POLL_LEASE_TIMINGS: PollLeaseTimings = {
  ttlMs: 30_000,
  renewEveryMs: 10_000,
  retryEveryMs: 5_000,
};

export class LeasedPolling {
  private token: string | undefined;
  private runner: RunnerHandle | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** The step in progress, so that stop() releases only after it. */
  private step: Promise<void> = Promise.resolve();

  constructor(
    private readonly bot: Bot,
    private readonly storage: PlatformStorage,
    private readonly logger: Logger,
    private readonly timings: PollLeaseTimings = DEFAULT_POLL_LEASE_TIMINGS,
  ) {}

  /** Whether this process polls now. */
  polling(): boolean {
    return this.runner?.isRunning() === true;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops polling (updates being handled stay unconfirmed) and gives the lease up. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.step;
    await this.stopPolling();
    const token = this.token;
    this.token = undefined;
    if (token) {
      await this.storage
        .releaseLease(DOOR_POLL_LEASE, token)
        .catch((error: unknown) =>
          this.logger.warn(
            { err: error },
            'telegram door: could not release the polling lease; another process takes over once it expires',
          ),
        );
    }
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.step = this.tick().finally(() =>
        this.schedule(this.token ? this.timings.renewEveryMs : this.timings.retryEveryMs),
      );
    }, delayMs);
  }

  private async tick(): Promise<void> {
    try {
      if (this.token) await this.renew(this.token);
      else await this.acquire();
      if (this.token && !this.polling()) await this.startPolling();
    } catch (error) {
      this.logger.warn(
        { err: error },
        'telegram door: the polling lease or the Bot API did not answer (check REDIS_URL, HANDOFF_TELEGRAM_API_ROOT and the network); trying again',
      );
    }
  }

  private async acquire(): Promise<void> {
    const token = await this.storage.acquireLease(DOOR_POLL_LEASE, this.timings.ttlMs);
    if (!token) return;
    if (!this.running) {
      await this.storage.releaseLease(DOOR_POLL_LEASE, token).catch(() => undefined);
      return;
    }
    this.token = token;
    this.logger.info('telegram door: took the polling lease: this process receives the operators’ group');
  }

  private async renew(token: string): Promise<void> {
    if (await this.storage.renewLease(DOOR_POLL_LEASE, token, this.timings.ttlMs)) return;
    this.token = undefined;
    this.logger.warn('telegram door: lost the polling lease (another process polls now): polling stopped here');
    await this.stopPolling();
  }

  private async startPolling(): Promise<void> {
    // grammY needs the bot's getMe before it handles an update; a failure is tried again on the next tick.
    if (!this.bot.isInited()) this.bot.botInfo = await this.bot.api.getMe();
    // A webhook left on this bot would answer every getUpdates 409.
    await this.bot.api.deleteWebhook();
    if (!this.running || !this.token) return;
    this.runner = startPolling(this.bot, { allowedUpdates: DOOR_ALLOWED_UPDATES, logger: this.logger });
  }

  private async stopPolling(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    if (runner?.isRunning()) await Promise.race([runner.stop(), sleep(5_000, undefined, { ref: false })]);
  }
}
