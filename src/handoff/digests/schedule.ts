/**
 * When the digests go: every process looks once a minute whether, for a chatbot with an address in
 * EmailForDailyChatLogs or EmailForDailyLeads, it is past `digests.hour` in the chatbot's TimeZone
 * and yesterday's digest is not queued yet; then one of them (a short lock) builds and queues it.
 * Queuing is once per chatbot, kind and day whatever the timing (DigestService.send); the lock only
 * saves the others the work. A process that was down at that hour sends it when it is back, the
 * same day; a day missed altogether is sent by hand (`chatbridge digest send --day`).
 */
import { DateTime } from 'luxon';
import type { Gateway } from '../../gateway/index.js';
import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import type { DeskBot } from '../pause/index.js';
import { digestKeys } from '../keys.js';
import { DIGEST_SETTING, type DigestService } from './service.js';
import type { DigestKind } from './types.js';

export interface DigestSchedulePolicy {
  /** The local hour (0–23) the previous day's digests go at. */
  hour: number;
  /** How often each process looks. */
  checkEveryMs: number;
  /** A builder's lock: longer than building a day of 10,000 conversations takes. */
  buildLockMs: number;
}

const KINDS: readonly DigestKind[] = ['logs', 'leads'];

export class DigestSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Digests this process saw queued (bot, kind, day): not asked about again. */
  private readonly done = new Set<string>();

  constructor(
    private readonly options: {
      service: DigestService;
      gateway: Pick<Gateway, 'settings'>;
      state: StateStore;
      bots: readonly DeskBot[];
      policy: DigestSchedulePolicy;
      logger: Logger;
      /** The clock (tests move it across a day and a daylight-saving change). */
      now?: () => number;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check(), this.options.policy.checkEveryMs);
    this.timer.unref();
    void this.check();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One look at every chatbot (also what the timer runs); resolves once whatever was due is queued. */
  check(): Promise<void> {
    this.running ??= this.checkAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async checkAll(): Promise<void> {
    const now = (this.options.now ?? Date.now)();
    for (const bot of this.options.bots) {
      for (const kind of KINDS) {
        try {
          await this.checkOne(bot, kind, now);
        } catch (error) {
          this.options.logger.error(
            { err: error, bot: bot.id, kind },
            `the ${kind === 'logs' ? 'chat logs' : 'leads'} of the day could not be built; trying again at the next check`,
          );
        }
      }
    }
  }

  private async checkOne(bot: DeskBot, kind: DigestKind, now: number): Promise<void> {
    const settings = await this.options.gateway.settings.fresh(bot.serialNumber);
    const address = settings[DIGEST_SETTING[kind]]?.trim();
    if (!address) return;
    const zone = DateTime.fromMillis(now, { zone: settings.TimeZone || 'UTC' }).isValid
      ? settings.TimeZone || 'UTC'
      : 'UTC';
    const local = DateTime.fromMillis(now, { zone });
    if (local.hour < this.options.policy.hour) return;
    const day = local.minus({ days: 1 }).toISODate()!;
    const key = `${bot.id}:${kind}:${day}`;
    if (this.done.has(key)) return;
    const { state } = this.options;
    const lockKey = digestKeys.building(bot.id, kind, day);
    const token = await state.acquireLock(lockKey, this.options.policy.buildLockMs);
    if (!token) return;
    try {
      const outcome = await this.options.service.send(bot.id, kind, day);
      // Each outcome is final for that day (an address fixed later: `chatbridge digest send`); said once.
      this.done.add(key);
      if (!outcome.queued && outcome.reason === 'no-address')
        this.options.logger.error({ bot: bot.id, kind }, outcome.message);
    } finally {
      await state.releaseLock(lockKey, token);
    }
  }
}
