/**
 * The webhook of one bot (mounted at /whatsapp-cloud/<bot>/webhook, and at /whatsapp-cloud/webhook
 * for the first bot with a Cloud number). Each answer tells Meta the truth, since Meta retries
 * anything but a 200 for up to 7 days:
 *
 *   GET   the subscription handshake: `hub.challenge` when hub.mode=subscribe and hub.verify_token
 *         matches (constant time); 403 otherwise.
 *   POST  401  X-Hub-Signature-256 does not verify over the raw bytes: not from Meta.
 *         400  signed, but not Meta's envelope (events.ts says where); a message or status
 *              inside it that the adapter cannot read is logged and skipped, the rest taken.
 *         200  the user messages for this number are queued (each one accepted by the core);
 *              statuses and changes of other fields are acknowledged (statuses.ts logs them).
 *         503  (Retry-After) the bot cannot take messages yet: starting after a bounded wait, or stopping.
 *         503  (Retry-After) the messages could not be queued within gateway.webhookAcceptMs, or
 *              Redis refused them (the core logs the outage once): Meta sends the webhook again, and
 *              the messages queued meanwhile are dropped as duplicates then.
 *         500  a message could not be queued for another reason: Meta sends the webhook again.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type Request, type RequestHandler, type Response } from 'express';
import {
  NOT_QUEUED_RETRY_AFTER_SECONDS,
  NotQueuedError,
  type Logger,
  type WebhookAdmission,
} from '../../src/contract.js';
import { parseWebhook, type MessagesChange } from './events.js';
import { SIGNATURE_HEADER, signatureProblem } from './signature.js';

/**
 * Largest body read. A webhook holds a few messages or statuses (text ≤ 4,096 characters; files
 * come as ids), a few KB; Meta batches at most some tens. 1 MB is far above that.
 */
export const WEBHOOK_BODY_LIMIT = '1mb';
/**
 * How long a webhook that arrives while the bot starts waits for it. Meta's timeout is not
 * documented (sources say 3 to 20 s), so the answer should come quickly: a 503 after this costs
 * the user Meta's next try, a late 200 at worst a redelivery that the dedupe drops.
 */
export const ADMISSION_WAIT_MS = 2_000;
/** When a bot that cannot take messages expects to take them again (Meta retries on its own schedule). */
const RETRY_AFTER_SECONDS = 30;

export interface WebhookRouteOptions {
  bot: string;
  appSecret: string;
  verifyToken: string;
  logger: Logger;
  /** Whether the bot can take messages now, waiting up to `maxWaitMs` while it starts. */
  admit(maxWaitMs: number): Promise<WebhookAdmission>;
  /** Hands the changes' messages to the core (resolves once all are queued) and records their statuses. */
  dispatch(changes: readonly MessagesChange[]): Promise<void>;
}

/** Equal in constant time, whatever the lengths (digests have one length). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function cloudWebhookRouter(options: WebhookRouteOptions): RequestHandler {
  const { bot, logger } = options;

  const handshake = (req: Request, res: Response): void => {
    // From the raw query: names with dots (hub.mode) stay as Meta wrote them.
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const mode = query.get('hub.mode');
    const token = query.get('hub.verify_token') ?? '';
    const challenge = query.get('hub.challenge') ?? '';
    if (mode !== 'subscribe' || !sameSecret(token, options.verifyToken)) {
      logger.warn(
        { bot, mode },
        'whatsapp-cloud: refused a webhook handshake whose hub.verify_token is not WHATSAPP_CLOUD_VERIFY_TOKEN (403)',
      );
      res.status(403).type('text/plain').send('hub.verify_token does not match');
      return;
    }
    logger.info({ bot }, 'whatsapp-cloud: Meta verified the webhook');
    res.status(200).type('text/plain').send(challenge);
  };

  const receive = async (req: Request, res: Response): Promise<void> => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const refused = signatureProblem(raw, req.get(SIGNATURE_HEADER), options.appSecret);
    if (refused) {
      logger.warn({ bot, reason: refused }, 'whatsapp-cloud: refused a webhook whose signature does not verify (401)');
      res.status(401).json({ error: refused });
      return;
    }
    const parsed = parseWebhook(raw.toString('utf8'));
    if (!parsed.ok) {
      logger.warn(
        { bot, reason: parsed.reason },
        "whatsapp-cloud: refused a signed webhook that is not Meta's shape (400)",
      );
      res.status(400).json({ error: parsed.reason });
      return;
    }
    if (parsed.otherFields.length > 0)
      logger.debug({ bot, fields: parsed.otherFields }, 'whatsapp-cloud: acknowledged changes of other fields');
    if (parsed.changes.some((change) => change.messages.length > 0)) {
      const admission = await options.admit(ADMISSION_WAIT_MS);
      if (!admission.admitted) {
        logger.warn(
          { bot, reason: admission.reason },
          'whatsapp-cloud: the bot cannot take messages yet; answered 503, Meta will send them again',
        );
        res.status(503).set('Retry-After', String(RETRY_AFTER_SECONDS)).json({ error: admission.reason });
        return;
      }
    }
    try {
      await options.dispatch(parsed.changes);
    } catch (error) {
      if (error instanceof NotQueuedError) {
        logger.debug({ bot, reason: error.message }, 'whatsapp-cloud: answered 503, Meta will send the webhook again');
        res.status(503).set('Retry-After', String(NOT_QUEUED_RETRY_AFTER_SECONDS)).json({ error: error.message });
        return;
      }
      logger.error(
        { err: error, bot },
        'whatsapp-cloud: a message was not queued; answered 500, Meta will send the webhook again',
      );
      res.status(500).json({ error: 'not queued, Meta retries' });
      return;
    }
    res.status(200).end();
  };

  const router = express.Router();
  router.get('/', handshake);
  // The raw bytes: the signature covers them exactly as Meta sent them.
  router.post('/', express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), (req, res, next) => {
    receive(req, res).catch(next);
  });
  return router;
}
