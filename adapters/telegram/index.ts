/**
 * The Telegram adapter: grammY on the Bot API, long polling with
 * @grammyjs/runner or a webhook handler the gateway mounts at /telegram/<bot>.
 * See README.md for BotFather setup and the choice between the two modes.
 */
import { Bot, GrammyError, type Api } from 'grammy';
import type { BotCommand, Update, UserFromGetMe } from 'grammy/types';
import { sequentialize, type RunnerHandle } from '@grammyjs/runner';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CredentialWatch,
  SinkHolder,
  WebhookGate,
  type Adapter,
  type HttpRoute,
  type Inbound,
} from '../../src/contract.js';
import type { Logger } from '../../src/contract.js';
import { ALBUM_WINDOW_MS, AlbumCollector } from './album.js';
import { telegramCapabilities, withoutDrafts } from './capabilities.js';
import { callbackToInbound, messageToInbound, type InboundContext } from './inbound.js';
import { editToRevision, stopToInbound } from './revisions.js';
import { DEFAULT_API_ROOT, restoreTelegramAttachment, type FileSource } from './media.js';
import { TelegramOutbound } from './outbound.js';
import { TokenBucket, type PacingOptions } from './pacing.js';
import { startPolling } from './polling.js';
import { telegramWebhookRouter, webhookPath } from './webhook.js';
import { telegramConnection } from './connection.js';
import { TOKEN_REFUSED } from './errors.js';
import { isDoorChat } from './operators/updates.js';
import { undiciFetch } from './transport.js';

export interface TelegramAdapterOptions {
  /** Configured bot id (config `bots[].id`). */
  bot: string;
  /** BotFather token (TELEGRAM_BOT_TOKEN). */
  token: string;
  /** Bot API server root (TELEGRAM_API_ROOT); default https://api.telegram.org. */
  apiRoot?: string;
  /** apiRoot is a local Bot API server in --local mode: downloads up to 2000 MB. */
  localApi?: boolean;
  mode: 'polling' | 'webhook';
  /** Checked against X-Telegram-Bot-Api-Secret-Token on every webhook request. */
  webhookSecret?: string;
  /** Public base URL of the gateway; start() registers <webhookPublicUrl>/telegram/<bot>. */
  webhookPublicUrl?: string;
  logger: Logger;
  /** The bot's getMe, to skip that call (tests). */
  botInfo?: UserFromGetMe;
  /** Registered with setMyCommands on start (the "/" menu), when given. */
  commands?: BotCommand[];
  /** Override of ALBUM_WINDOW_MS. */
  albumWindowMs?: number;
  /** The bot-wide pace of this adapter's messages (pacing.ts); default Telegram's 30 messages/s. */
  pacing?: PacingOptions;
}

/** Takes one update of a diverted chat; a rejection fails it as the intake's would (webhook 500, Telegram sends it again). */
export type DivertedUpdateHandler = (update: Update, me: UserFromGetMe) => Promise<void>;

/** What a door sharing the bot calls the Bot API with, as this bot. */
export interface DivertedChat {
  api: Api;
  files: FileSource;
  /** The bot-wide pace of its messages (pacing.ts), which the door's messages count against too. */
  pacer: TokenBucket;
}

export type TelegramAdapter = Adapter & {
  /** Webhook mode: the endpoint at webhookPath(bot), which the runtime mounts; none when polling. */
  readonly routes: readonly HttpRoute[];
  /**
   * Hands every update of one chat (its messages and button presses) to `handler` instead of the
   * users' intake, in polling and webhook mode alike: the operators' group of an operator door that
   * shares this bot (operators/). `chat`: its id, or a public group's @username. Call before
   * start(); one chat per adapter (a second call replaces the first).
   */
  divertChat(chat: number | string, handler: DivertedUpdateHandler): DivertedChat;
};

/** The adapters this folder built: a door sharing a bot checks that the bot's adapter is one. */
const telegramAdapters = new WeakSet<Adapter>();

export function isTelegramAdapter(adapter: Adapter | undefined): adapter is TelegramAdapter {
  return adapter !== undefined && telegramAdapters.has(adapter);
}

/** Only what the adapter handles; anything else would be fetched for nothing. */
const ALLOWED_UPDATES = ['message', 'edited_message', 'callback_query', 'stopped_message_generation'] as const;
/** On stop, a pending album is handed to the gateway for at most this long (Redis may be down). */
const STOP_GRACE_MS = 5_000;

function explainStartFailure(error: unknown, bot: string): string {
  if (error instanceof GrammyError && error.error_code === 401) {
    return `Telegram rejected the token of bot "${bot}" (401 Unauthorized): check TELEGRAM_BOT_TOKEN or bots[].telegram.token (get it from @BotFather).`;
  }
  return `Telegram bot "${bot}" could not start: ${(error as Error).message}. Check the token, TELEGRAM_API_ROOT and the network.`;
}

export function createTelegramAdapter(options: TelegramAdapterOptions): TelegramAdapter {
  const { logger } = options;
  const apiRoot = (options.apiRoot ?? DEFAULT_API_ROOT).replace(/\/+$/, '');
  const localApi = options.localApi ?? false;
  // undici instead of grammY's default node-fetch: the Bot API client was the largest CPU cost per answer (transport.ts).
  const bot = new Bot(options.token, {
    client: { apiRoot, fetch: undiciFetch() },
    ...(options.botInfo ? { botInfo: options.botInfo } : {}),
  });
  const files: FileSource = { api: bot.api, token: options.token, apiRoot, localApi };
  const capabilities = telegramCapabilities({ localApi });
  const sink = new SinkHolder({ who: `telegram bot "${options.bot}"`, what: 'an update' });
  let runner: RunnerHandle | undefined;
  // A token revoked after the start: not connected (/readyz) until a call or the probe gets through; the core waits the answers out.
  const credentials = new CredentialWatch({
    reason: `${TOKEN_REFUSED}, for bot "${options.bot}"`,
    probe: async (signal) => {
      await bot.api.getMe(signal as Parameters<Bot['api']['getMe']>[0]);
    },
    logger,
  });
  // This instance's own pace: nothing else in the process shares its state (but a door sharing the bot, divertChat).
  const pacer = new TokenBucket(options.pacing);
  const outbound = credentials.watch(new TelegramOutbound(bot.api, logger, pacer));
  const groupOutbound = withoutDrafts(outbound);
  // Webhook mode: updates wait here (bounded) until the adapter has its sink and grammY knows the bot (getMe).
  const gate = new WebhookGate(`telegram bot "${options.bot}" is starting`);

  const deliver = (inbound: Inbound): Promise<void> => sink.accept(inbound);
  const albums = new AlbumCollector(options.albumWindowMs ?? ALBUM_WINDOW_MS, deliver, (error) => {
    logger.error({ err: error }, 'telegram: an album could not be handed to the gateway');
  });
  const context = (me: UserFromGetMe): InboundContext => ({ bot: options.bot, botInfo: me, files });

  // One chat's updates are handled in order, so the core queues them in the order they were sent.
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  let diverted: { chat: number | string; handler: DivertedUpdateHandler } | undefined;
  // The operators' group of a door sharing this bot: none of its updates reach the users' intake.
  bot.use(async (ctx, next) => {
    if (diverted && ctx.chat && isDoorChat(ctx.chat, diverted.chat)) await diverted.handler(ctx.update, ctx.me);
    else await next();
  });
  bot.on('message', async (ctx) => {
    const inbound = messageToInbound(ctx.message, context(ctx.me));
    if (ctx.message.media_group_id) albums.add(ctx.message.media_group_id, inbound);
    else await deliver(inbound);
  });
  // In the chat's order with its messages (sequentialize above), so an edit never overtakes what it edits.
  bot.on('edited_message', async (ctx) => {
    const revision = editToRevision(ctx.editedMessage, context(ctx.me));
    if (revision) await sink.revise(revision);
  });
  bot.on('stopped_message_generation', async (ctx) => {
    await deliver(stopToInbound(ctx.stoppedMessageGeneration, ctx.update.update_id, context(ctx.me)));
  });
  bot.on('callback_query:data', async (ctx) => {
    // Stop the client's spinner first; the answer itself comes as a message.
    await ctx
      .answerCallbackQuery()
      .catch((error: unknown) => logger.warn({ err: error }, 'telegram: answerCallbackQuery failed'));
    const inbound = callbackToInbound(ctx.callbackQuery, context(ctx.me));
    if (inbound) await deliver(inbound);
  });
  if (options.mode === 'polling') {
    // An update that failed for good (not a Redis outage: that one is held and retried) is
    // confirmed with the next getUpdates; all we can do is log. (In webhook mode the error
    // propagates, the request answers 500 and Telegram redelivers.)
    bot.catch((error) =>
      logger.error({ err: error.error, updateId: error.ctx.update.update_id }, 'telegram: update not handled'),
    );
  }

  /** The webhook endpoint parses JSON itself. */
  const routes: HttpRoute[] =
    options.mode === 'webhook'
      ? [
          {
            path: webhookPath(options.bot),
            handler: telegramWebhookRouter(bot, {
              bot: options.bot,
              logger,
              admit: (maxWaitMs) => gate.admit(maxWaitMs),
              ...(options.webhookSecret ? { secret: options.webhookSecret } : {}),
            }),
          },
        ]
      : [];

  let menu: BotCommand[] | undefined;
  const connection = telegramConnection({
    token: options.token,
    apiRoot,
    logger,
    explainRefusal: (error) => explainStartFailure(error, options.bot),
    async attempt(signal) {
      // Not bot.init(): it retries a network failure forever and silently; each of our attempts fails and is logged.
      if (!bot.isInited()) bot.botInfo = await bot.api.getMe(signal);
      if (menu?.length) await bot.api.setMyCommands(menu, undefined, signal);
      if (options.mode === 'polling') {
        // getUpdates answers 409 while a webhook is set, e.g. after switching modes.
        await bot.api.deleteWebhook(undefined, signal);
      } else if (options.webhookPublicUrl) {
        const url = `${options.webhookPublicUrl.replace(/\/+$/, '')}${webhookPath(options.bot)}`;
        await bot.api.setWebhook(
          url,
          {
            allowed_updates: [...ALLOWED_UPDATES],
            ...(options.webhookSecret ? { secret_token: options.webhookSecret } : {}),
          },
          signal,
        );
      }
    },
  });

  const adapter: TelegramAdapter = {
    platform: 'telegram',
    bot: options.bot,
    capabilities,
    outbound,
    routes,
    // Drafts are for private chats only: a group's outbound has no draft().
    outboundFor: (_conversation, isGroup) => (isGroup ? groupOutbound : outbound),
    // A webhook answers 500 when the update cannot be queued, and Telegram sends it again; an update
    // fetched by long polling is confirmed by the next getUpdates, so the core holds it through an outage.
    redeliversOnAcceptFailure: options.mode === 'webhook',
    // Needs only the Bot API (getFile + download), not start(): a process that never polled
    // can still fetch a file another process accepted.
    restoreAttachment: (ref, info) => restoreTelegramAttachment(files, ref, info),
    divertChat(chat, handler) {
      diverted = { chat, handler };
      return { api: bot.api, files, pacer };
    },
    async start(newSink, info) {
      // The "/" menu: the commands the gateway answers, unless the options name others.
      menu =
        options.commands ??
        info?.commands.map(({ name, description }) => ({ command: name, description: description.slice(0, 256) }));
      if (options.mode === 'webhook' && !options.webhookSecret) {
        logger.warn(
          { bot: options.bot },
          'telegram: webhook mode without webhookSecret (TELEGRAM_WEBHOOK_SECRET); anyone who finds the URL can post fake updates',
        );
      }
      sink.hold(newSink);
      gate.starting(`telegram bot "${options.bot}" is starting (getMe pending)`);
      const begin = () => {
        if (!sink.holding) return;
        if (options.mode === 'polling') {
          runner = startPolling(bot, { allowedUpdates: ALLOWED_UPDATES, logger, credentials });
        }
        gate.open();
        logger.info({ bot: options.bot, username: bot.botInfo.username, mode: options.mode }, 'telegram: started');
      };
      // Rejects only when Telegram refuses (e.g. the token); an unreachable Bot API is retried in the background.
      const connected = await connection.start(begin).catch((error: unknown) => {
        sink.release();
        gate.close(`telegram bot "${options.bot}" could not start: ${(error as Error).message}`);
        throw error;
      });
      if (connected) begin();
      // Until an attempt connects, grammY does not know the bot (getMe): an update could not be handled.
      else
        gate.close(
          `the Bot API is not reachable for telegram bot "${options.bot}" (${connection.status().reason ?? 'unreachable'}); trying again`,
        );
    },
    status: () => credentials.status() ?? connection.status(),
    async stop() {
      gate.close(`telegram bot "${options.bot}" is stopping`);
      connection.stop();
      credentials.stop();
      // No getUpdates from here on; updates still being handled stay unconfirmed.
      const stopping = runner?.isRunning() ? runner.stop() : undefined;
      runner = undefined;
      await Promise.race([albums.flushAll(), sleep(STOP_GRACE_MS, undefined, { ref: false })]);
      // Handlers of messages held while Redis is down end when the core gives those messages up
      // (redeliversOnAcceptFailure): unconfirmed, Telegram redelivers them to the next start.
      await stopping;
      sink.release();
    },
  };
  telegramAdapters.add(adapter);
  return adapter;
}
