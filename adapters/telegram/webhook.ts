/**
 * The webhook endpoint (POST /telegram/<bot>): the secret is checked before a byte
 * of the body is read, so nobody without it can make the gateway parse anything;
 * then the body is parsed with a limit that fits real updates. An update the core could not
 * queue in time (gateway.webhookAcceptMs, Redis out) is answered 503, another failure 500:
 * Telegram sends either again.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { BotError, webhookCallback, type Bot } from 'grammy';
import {
  NOT_QUEUED_RETRY_AFTER_SECONDS,
  NotQueuedError,
  type Logger,
  type WebhookAdmission,
} from '../../src/contract.js';

/**
 * Largest webhook body parsed. An update is a message (text ≤ 4,096 characters, a caption
 * ≤ 1,024, entities, a reply_to_message with the same) or a callback query: a few KB,
 * tens at worst. Files never come inline (only their file_id). 1 MB leaves room for
 * anything Telegram sends and keeps one request's parse well under a millisecond per KB.
 */
export const WEBHOOK_BODY_LIMIT = '1mb';

/**
 * How long an update that arrives while the bot is starting (the port opens before the
 * adapter starts, and Telegram delivers what it holds at once) waits for the start. Well
 * under the time Telegram waits for an answer (grammY's own webhook timeout is 10 s); a 503
 * instead would hold the user's message until Telegram's next try.
 */
export const ADMISSION_WAIT_MS = 5_000;
/** When the updates of a bot that cannot take them should come again (its Bot API unreachable, or stopping). */
const RETRY_AFTER_SECONDS = 30;

/** Telegram's header carrying the secret_token given to setWebhook. */
const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** Equal in constant time, whatever the lengths (digests have one length). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Where a bot's webhook is served on the gateway's port, and registered with setWebhook (under the public URL). */
export function webhookPath(bot: string): string {
  return `/telegram/${bot}`;
}

export interface WebhookOptions {
  bot: string;
  secret?: string;
  logger: Logger;
  /**
   * Whether the bot can take updates now, waiting up to `maxWaitMs` while it starts; refused
   * (before start(), while the Bot API is unreachable, after stop()), the update is answered
   * 503 and Telegram sends it again.
   */
  admit: (maxWaitMs: number) => Promise<WebhookAdmission>;
}

export function telegramWebhookRouter(bot: Bot, options: WebhookOptions): RequestHandler {
  const { logger, secret } = options;
  const callback = webhookCallback(bot, 'express', secret ? { secretToken: secret } : {});
  const router = express.Router();
  router.post(
    '/',
    (req: Request, res: Response, next: NextFunction) => {
      // Before the body: a request without the secret costs a header comparison, nothing more.
      if (secret !== undefined && !sameSecret(req.get(SECRET_HEADER) ?? '', secret)) {
        res.status(401).json({ error: `missing or wrong ${SECRET_HEADER}` });
        return;
      }
      next();
    },
    express.json({ limit: WEBHOOK_BODY_LIMIT }),
    async (req: Request, res: Response, next: NextFunction) => {
      const admission = await options.admit(ADMISSION_WAIT_MS);
      if (!admission.admitted) {
        // 503 makes Telegram retry later instead of losing the update.
        logger.warn(
          { bot: options.bot, reason: admission.reason },
          'telegram: the bot cannot take updates yet; answered 503, Telegram will send it again',
        );
        res.status(503).set('Retry-After', String(RETRY_AFTER_SECONDS)).json({ error: admission.reason });
        return;
      }
      callback(req, res).catch((error: unknown) => {
        const cause = error instanceof BotError ? error.error : error;
        if (cause instanceof NotQueuedError && !res.headersSent) {
          // The core logged the outage once; the request is answered in time, and Telegram sends it again.
          logger.debug(
            { bot: options.bot, reason: cause.message },
            'telegram: answered 503, Telegram will send it again',
          );
          res.status(503).set('Retry-After', String(NOT_QUEUED_RETRY_AFTER_SECONDS)).json({ error: cause.message });
          return;
        }
        logger.error(
          { err: error, bot: options.bot },
          'telegram: webhook update not queued; Telegram will redeliver it',
        );
        if (res.headersSent) return next(error);
        res.status(500).json({ error: 'update not queued, retry later' });
      });
    },
  );
  return router;
}
