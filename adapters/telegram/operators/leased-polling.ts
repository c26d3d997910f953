/**
 * A door with a bot of its own receives by long polling, and Telegram answers 409 to a second
 * poller of one bot: every gateway replica runs the same configuration, so only the holder of a
 * lease in the shared store polls (the kit's HeldLease: the others stand by, and one takes over
 * within the lease's time when the holder dies, at once when it releases the lease on stop).
 * What is Telegram's is here: polling starts when the lease is taken and stops when it is lost.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunnerHandle } from '@grammyjs/runner';
import type { Bot } from 'grammy';
import { HeldLease, type LeaseTimings, type Logger, type PlatformStorage } from '../../../src/contract.js';
import { startPolling } from '../polling.js';

/** The lease's name in the bot's PlatformStorage (scoped to platform and bot by the runtime). */
export const DOOR_POLL_LEASE = 'operators-poller';

/** Updates a door handles: messages (commands, files) and presses of its buttons. */
export const DOOR_ALLOWED_UPDATES = ['message', 'callback_query'] as const;

export class LeasedPolling {
  private readonly lease: HeldLease;
  private runner: RunnerHandle | undefined;
  private stopped = false;

  /** `timings` default to the kit's DEFAULT_LEASE_TIMINGS. */
  constructor(
    private readonly bot: Bot,
    storage: PlatformStorage,
    private readonly logger: Logger,
    timings?: LeaseTimings,
  ) {
    this.lease = new HeldLease({
      storage,
      name: DOOR_POLL_LEASE,
      logger,
      timings,
      events: {
        acquired: () => this.startPolling(),
        // A start that failed (the Bot API out of reach) is tried again with each renewal.
        renewed: () => this.startPolling(),
        lost: () => this.stopPolling(),
      },
      words: {
        lease: 'the polling lease of the Telegram door',
        whenHeld: 'this process receives the operators’ group',
        whenLost: 'polling stopped here',
        check: 'REDIS_URL',
      },
    });
  }

  /** Whether this process polls now. */
  polling(): boolean {
    return this.runner?.isRunning() === true;
  }

  start(): void {
    this.stopped = false;
    this.lease.start();
  }

  /** Stops polling (updates being handled stay unconfirmed), then gives the lease up. */
  async stop(): Promise<void> {
    // Set first: a step in progress starts no poller after this, so none runs once the lease is released.
    this.stopped = true;
    await this.stopPolling();
    await this.lease.stop();
  }

  private async startPolling(): Promise<void> {
    if (this.polling()) return;
    try {
      // grammY needs the bot's getMe before it handles an update.
      if (!this.bot.isInited()) this.bot.botInfo = await this.bot.api.getMe();
      // A webhook left on this bot would answer every getUpdates 409.
      await this.bot.api.deleteWebhook();
    } catch (error) {
      this.logger.warn(
        { err: error },
        'telegram door: the Bot API did not answer getMe or deleteWebhook (check HANDOFF_TELEGRAM_API_ROOT and the network); ' +
          'trying again with the next renewal of the polling lease',
      );
      return;
    }
    if (this.stopped || !this.lease.held()) return;
    this.runner = startPolling(this.bot, { allowedUpdates: DOOR_ALLOWED_UPDATES, logger: this.logger });
  }

  private async stopPolling(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    if (runner?.isRunning()) await Promise.race([runner.stop(), sleep(5_000, undefined, { ref: false })]);
  }
}
