/**
 * How a door hears its group. Either the bot's own Telegram adapter hands it every update of
 * the group (the adapter's divertChat: they never reach the users' intake), whatever the
 * adapter's mode; or the door's own bot polls, under a lease so that one replica polls.
 */
import { sequentialize } from '@grammyjs/runner';
import { Bot } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import type { LeaseTimings, Logger, PlatformStorage } from '../../../src/contract.js';
import type { DivertedChat, TelegramAdapter } from '../index.js';
import { undiciFetch } from '../transport.js';
import type { DoorReceiver } from './door.js';
import { LeasedPolling } from './leased-polling.js';

type Handle = (update: Update, me: UserFromGetMe) => Promise<void>;

/**
 * How long an update of the group that arrives before the door started waits for it (the
 * adapter may start first); after that it fails as the intake's would (a webhook answers 500
 * and Telegram sends it again).
 */
export const DOOR_START_WAIT_MS = 5_000;

/** The bot's own adapter hands the door its group's updates. */
export class SharedBotReceiver implements DoorReceiver {
  readonly link: DivertedChat;
  /** In webhook mode a failed update is answered 500, and Telegram sends it again. */
  readonly redelivers: boolean;
  private handle: Handle | undefined;
  private readonly waiting = new Set<() => void>();

  constructor(adapter: TelegramAdapter, chat: number | string) {
    // At once, before the adapter starts: no update of the group ever reaches the users' intake.
    this.link = adapter.divertChat(chat, (update, me) => this.deliver(update, me));
    this.redelivers = adapter.redeliversOnAcceptFailure === true;
  }

  start(handle: Handle): Promise<void> {
    this.handle = handle;
    for (const wake of [...this.waiting]) wake();
    return Promise.resolve();
  }

  stop(): Promise<void> {
    this.handle = undefined;
    return Promise.resolve();
  }

  private async deliver(update: Update, me: UserFromGetMe): Promise<void> {
    const handle = this.handle ?? (await this.started(DOOR_START_WAIT_MS));
    if (!handle) {
      throw new Error(
        `the Telegram operator door is not started (still after ${DOOR_START_WAIT_MS} ms): update ${update.update_id} of the operators' group not handled`,
      );
    }
    await handle(update, me);
  }

  private started(maxWaitMs: number): Promise<Handle | undefined> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve(this.handle);
      };
      const timer = setTimeout(done, maxWaitMs);
      this.waiting.add(done);
    });
  }
}

export interface OwnBotOptions {
  token: string;
  apiRoot: string;
  storage: PlatformStorage;
  logger: Logger;
  leaseTimings?: LeaseTimings;
}

/** The door's own bot (HANDOFF_TELEGRAM_BOT_TOKEN), polling while this process holds the lease. */
export class OwnBotReceiver implements DoorReceiver {
  readonly bot: Bot;
  /** Long polling: an update is confirmed once handled, whether it worked or not. */
  readonly redelivers = false;
  private readonly polling: LeasedPolling;
  private handle: Handle | undefined;

  constructor(options: OwnBotOptions) {
    this.bot = new Bot(options.token, { client: { apiRoot: options.apiRoot, fetch: undiciFetch() } });
    // A topic's updates in order, as the intake's.
    this.bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
    this.bot.use(async (ctx) => {
      if (!this.handle) throw new Error('the Telegram operator door received an update after stop()');
      await this.handle(ctx.update, ctx.me);
    });
    // An update that failed for good is confirmed with the next getUpdates: all we can do is log.
    this.bot.catch((error) =>
      options.logger.error(
        { err: error.error, updateId: error.ctx.update.update_id },
        'telegram door: update of the operators’ group not handled',
      ),
    );
    this.polling = new LeasedPolling(this.bot, options.storage, options.logger, options.leaseTimings);
  }

  /** Whether this process polls the door's bot now (it holds the lease). */
  polls(): boolean {
    return this.polling.polling();
  }

  start(handle: Handle): Promise<void> {
    this.handle = handle;
    this.polling.start();
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    await this.polling.stop();
    this.handle = undefined;
  }
}
