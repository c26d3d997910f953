/**
 * Noticing that the state store lost its data under a running gateway (a Redis
 * restarted without persistence, a flush, a failover to an empty replica) and
 * seeding it again: the settings mirror and the embedded service's demo chatbot
 * are written only at start, and without them every answer fails.
 *
 * A marker key is written once everything is seeded. It is checked on every
 * reconnect of the Redis client (a restart is one), periodically (a flush is
 * not), and before each request to the embedded service (messages that waited
 * for Redis are answered the moment it is back, before a reconnect check could
 * finish); when it is gone, one gateway (under a short lock) seeds again and the
 * others wait for it.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import { RedisStateStore, type StateStore } from '../state/index.js';

/** Present while the state holds what start-up seeded; never expires. */
export const SEED_MARKER_KEY = 'state:seeded';
/** Held by the gateway that is seeding again, so gateways sharing a Redis do not seed twice at once. */
const RESEED_LOCK_KEY = 'state:reseeding';
/** Far longer than a seed takes (a few writes); a gateway that dies while seeding frees it by then. */
const RESEED_LOCK_TTL_MS = 60_000;
/** How long a check waits for another gateway's seeding before it lets its caller go on anyway. */
const OTHER_SEEDER_WAIT_MS = 5_000;
const OTHER_SEEDER_POLL_MS = 100;
/**
 * As often as the gateway's sweep for orphaned queues: a loss without a reconnect
 * (FLUSHALL) is repaired within this long; a Redis restart is repaired on reconnect.
 */
export const STATE_CHECK_INTERVAL_MS = 15_000;

export interface StateWatchOptions {
  state: StateStore;
  logger: Logger;
  /** Writes everything start-up seeds; idempotent (it only adds what is missing). */
  seed: () => Promise<void>;
  intervalMs?: number;
}

export class StateLossWatch {
  private readonly owner = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<boolean> | undefined;
  /** Before start() the marker is not written yet: a missing one means nothing. */
  private started = false;
  private readonly onReconnect = () => void this.check();

  constructor(private readonly options: StateWatchOptions) {}

  /** Marks the state as seeded (call after start-up seeded it) and starts watching it. */
  async start(): Promise<void> {
    await this.options.state.set(SEED_MARKER_KEY, new Date().toISOString());
    this.started = true;
    // An in-memory store loses its data only with the process: nothing to watch.
    if (!(this.options.state instanceof RedisStateStore)) return;
    this.options.state.client.on('ready', this.onReconnect);
    this.timer = setInterval(() => void this.check(), this.options.intervalMs ?? STATE_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    this.started = false;
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.options.state instanceof RedisStateStore) this.options.state.client.off('ready', this.onReconnect);
  }

  /**
   * Seeds again when the marker is gone; resolves once the state is seeded (by this
   * gateway or another). True when this call seeded. Never rejects.
   */
  check(): Promise<boolean> {
    if (!this.started) return Promise.resolve(false);
    // A reconnect and the timer firing together check once.
    this.checking ??= this.checkOnce().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async checkOnce(): Promise<boolean> {
    const { state, logger } = this.options;
    try {
      if ((await state.get(SEED_MARKER_KEY)) !== null) return false;
      if (!(await state.setIfAbsent(RESEED_LOCK_KEY, this.owner, RESEED_LOCK_TTL_MS))) {
        await this.waitForOtherSeeder();
        return false;
      }
      logger.warn(
        'the state store lost its data (the seed marker is gone: was Redis restarted without persistence, or flushed?); ' +
          'seeding the chatbot settings and the demo chatbot again',
      );
      try {
        await this.options.seed();
        await state.set(SEED_MARKER_KEY, new Date().toISOString());
      } finally {
        await state.del(RESEED_LOCK_KEY);
      }
      logger.info('state seeded again after the loss');
      return true;
    } catch (error) {
      // Redis being down is already reported by the state store; the next check tries again.
      logger.debug({ err: error }, 'checking the state for a loss failed; will check again');
      return false;
    }
  }

  private async waitForOtherSeeder(): Promise<void> {
    const until = Date.now() + OTHER_SEEDER_WAIT_MS;
    while (Date.now() < until && (await this.options.state.get(SEED_MARKER_KEY)) === null) {
      await new Promise((resolve) => setTimeout(resolve, OTHER_SEEDER_POLL_MS));
    }
  }
}
