/**
 * The Telegram adapter: grammY on the Bot API, long polling with
 * @grammyjs/runner or a webhook handler the gateway mounts at /telegram/<bot>.
 * See README.md for BotFather setup and the choice between the two modes.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { Bot, GrammyError, webhookCallback } from 'grammy';
import type { BotCommand, UserFromGetMe } from 'grammy/types';
import { run, sequentialize, type RunnerHandle } from '@grammyjs/runner';
import type { Adapter, Inbound, InboundSink } from '../../src/gateway/types.js';
import type { Logger } from '../../src/logger.js';
import { ALBUM_WINDOW_MS, AlbumCollector } from './album.js';
import { capabilitiesForChat, telegramCapabilities } from './capabilities.js';
import { callbackToInbound, messageToInbound, type InboundContext } from './inbound.js';
import { DEFAULT_API_ROOT, restoreTelegramAttachment, type FileSource } from './media.js';
import { TelegramOutbound } from './outbound.js';

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
}

export type TelegramAdapter = Adapter & {
  /** Webhook mode: the express handler to mount at `/telegram/<bot>` (it parses JSON itself). */
  readonly webhookHandler?: RequestHandler;
};

/** Only what the adapter handles; anything else would be fetched for nothing. */
const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

function explainStartFailure(error: unknown, bot: string): Error {
  if (error instanceof GrammyError && error.error_code === 401) {
    return new Error(`Telegram rejected the token of bot "${bot}" (401 Unauthorized): check TELEGRAM_BOT_TOKEN or bots[].telegram.token (get it from @BotFather).`, { cause: error });
  }
  return new Error(`Telegram bot "${bot}" could not start: ${(error as Error).message}. Check the token, TELEGRAM_API_ROOT and the network.`, { cause: error });
}

export function createTelegramAdapter(options: TelegramAdapterOptions): TelegramAdapter {
  const { logger } = options;
  const apiRoot = (options.apiRoot ?? DEFAULT_API_ROOT).replace(/\/+$/, '');
  const localApi = options.localApi ?? false;
  const bot = new Bot(options.token, { client: { apiRoot }, ...(options.botInfo ? { botInfo: options.botInfo } : {}) });
  const files: FileSource = { api: bot.api, token: options.token, apiRoot, localApi };
  const capabilities = telegramCapabilities({ localApi });
  let sink: InboundSink | undefined;
  let runner: RunnerHandle | undefined;

  const deliver = async (inbound: Inbound): Promise<void> => {
    if (!sink) throw new Error('telegram adapter received an update before start() or after stop()');
    await sink.accept(inbound);
  };
  const albums = new AlbumCollector(options.albumWindowMs ?? ALBUM_WINDOW_MS, deliver, (error) => {
    logger.error({ err: error }, 'telegram: an album could not be handed to the gateway');
  });
  const context = (me: UserFromGetMe): InboundContext => ({ bot: options.bot, botInfo: me, files });

  // One chat's updates are handled in order, so the core queues them in the order they were sent.
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  bot.on('message', async (ctx) => {
    const inbound = messageToInbound(ctx.message, context(ctx.me));
    if (ctx.message.media_group_id) albums.add(ctx.message.media_group_id, inbound);
    else await deliver(inbound);
  });
  bot.on('callback_query:data', async (ctx) => {
    // Stop the client's spinner first; the answer itself comes as a message.
    await ctx.answerCallbackQuery().catch((error: unknown) => logger.warn({ err: error }, 'telegram: answerCallbackQuery failed'));
    const inbound = callbackToInbound(ctx.callbackQuery, context(ctx.me));
    if (inbound) await deliver(inbound);
  });
  if (options.mode === 'polling') {
    // With long polling the update is already confirmed; all we can do is log. (In webhook mode
    // the error propagates, the request answers 500 and Telegram redelivers.)
    bot.catch((error) => logger.error({ err: error.error, updateId: error.ctx.update.update_id }, 'telegram: update not handled'));
  }

  let webhookHandler: RequestHandler | undefined;
  if (options.mode === 'webhook') {
    const callback = webhookCallback(bot, 'express', options.webhookSecret ? { secretToken: options.webhookSecret } : {});
    const router = express.Router();
    router.post('/', express.json({ limit: '10mb' }), (req: Request, res: Response, next: NextFunction) => {
      // Not started yet (or stopping): 503 makes Telegram retry later instead of losing the update.
      if (!sink) {
        res.status(503).json({ error: `telegram bot "${options.bot}" is not started` });
        return;
      }
      callback(req, res).catch((error: unknown) => {
        logger.error({ err: error, bot: options.bot }, 'telegram: webhook update not queued; Telegram will redeliver it');
        if (res.headersSent) return next(error);
        res.status(500).json({ error: 'update not queued, retry later' });
      });
    });
    webhookHandler = router;
  }

  return {
    platform: 'telegram',
    bot: options.bot,
    capabilities,
    outbound: new TelegramOutbound(bot.api, logger),
    webhookHandler,
    capabilitiesFor: (_conversation, isGroup) => capabilitiesForChat(capabilities, isGroup),
    // Needs only the Bot API (getFile + download), not start(): a process that never polled
    // can still fetch a file another process accepted.
    restoreAttachment: (ref, info) => restoreTelegramAttachment(files, ref, info),
    async start(newSink, info) {
      try {
        await bot.init();
        // The "/" menu: the commands the gateway answers, unless the options name others.
        const commands = options.commands ?? info?.commands.map(({ name, description }) => ({ command: name, description: description.slice(0, 256) }));
        if (commands?.length) await bot.api.setMyCommands(commands);
        if (options.mode === 'polling') {
          // getUpdates answers 409 while a webhook is set, e.g. after switching modes.
          await bot.api.deleteWebhook();
        } else if (options.webhookPublicUrl) {
          const url = `${options.webhookPublicUrl.replace(/\/+$/, '')}/telegram/${options.bot}`;
          await bot.api.setWebhook(url, {
            allowed_updates: [...ALLOWED_UPDATES],
            ...(options.webhookSecret ? { secret_token: options.webhookSecret } : {}),
          });
        }
      } catch (error) {
        throw explainStartFailure(error, options.bot);
      }
      if (options.mode === 'webhook' && !options.webhookSecret) {
        logger.warn({ bot: options.bot }, 'telegram: webhook mode without webhookSecret (TELEGRAM_WEBHOOK_SECRET); anyone who finds the URL can post fake updates');
      }
      sink = newSink;
      if (options.mode === 'polling') {
        runner = run(bot, { runner: { fetch: { allowed_updates: ALLOWED_UPDATES } } });
      }
      logger.info({ bot: options.bot, username: bot.botInfo.username, mode: options.mode }, 'telegram: started');
    },
    async stop() {
      if (runner?.isRunning()) await runner.stop();
      runner = undefined;
      await albums.flushAll();
      sink = undefined;
    },
  };
}
