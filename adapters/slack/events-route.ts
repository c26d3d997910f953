/**
 * The HTTP Events endpoint of one bot (events, interactivity and slash commands, mounted
 * at /slack/events and /slack/<bot>/events). Slack's request is checked and parsed here
 * rather than by Bolt's receiver, so that each answer tells Slack the truth:
 *
 *   401  the signature does not verify, or is older than 5 minutes: not from Slack.
 *   200  queued; or well formed but nothing for the bot; or signed but not understood
 *        (logged once with the reason: Slack would only send the same body again).
 *   503  (Retry-After) the bot cannot take events yet: still starting after a bounded wait,
 *        the Web API unreachable (who the bot is, auth.test, is unknown), or stopping.
 *   503  (Retry-After) the message could not be queued within gateway.webhookAcceptMs, or Redis
 *        refused it (the core logs the outage once): Slack sends it again.
 *   500  the message could not be queued for another reason: Slack sends it again.
 *
 * Slack sends each request again when it gets anything but a 2xx within 3 s (a few times,
 * then gives up), so a 4xx or 5xx is only for what a later delivery can fix.
 */
import { defaultBodyLimit, verifySlackRequest } from '@slack/bolt';
import express, { type Request, type RequestHandler, type Response } from 'express';
import {
  NOT_QUEUED_RETRY_AFTER_SECONDS,
  NotQueuedError,
  type Logger,
  type WebhookAdmission,
} from '../../src/contract.js';
import { parseSlackHttpBody, type SlackInput } from './events.js';

/**
 * How long a request that arrives while the bot is starting waits for it. Slack wants the
 * answer within 3 s, and after the wait the message is still to be queued (one Redis step,
 * and for a channel thread reply a conversations.replies); answering a little late costs
 * a redelivery that the dedupe drops, answering 503 costs the user Slack's next retry.
 */
export const ADMISSION_WAIT_MS = 2_000;
/** Slack retries on its own schedule (about 1 min, then 5); the header says when this process expects to take events. */
const RETRY_AFTER_SECONDS = 30;

export interface SlackEventsRouteOptions {
  bot: string;
  signingSecret: string;
  logger: Logger;
  /** Whether the bot can take events now, waiting up to `maxWaitMs` while it starts. */
  admit(maxWaitMs: number): Promise<WebhookAdmission>;
  /** Queues what the request asks of the bot; resolves once queued. */
  dispatch(input: SlackInput): Promise<void>;
}

/** Slack's signature check (Bolt's verifier); the reason when it fails. */
function signatureProblem(req: Request, raw: string, signingSecret: string): string | undefined {
  const signature = req.get('x-slack-signature');
  const timestamp = req.get('x-slack-request-timestamp');
  if (!signature || !timestamp) return 'no x-slack-signature or x-slack-request-timestamp header';
  try {
    verifySlackRequest({
      signingSecret,
      body: raw,
      headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': Number(timestamp) },
    });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function retryNumOf(req: Request): number | undefined {
  const header = req.get('x-slack-retry-num');
  return header === undefined ? undefined : Number(header);
}

export function slackEventsRouter(options: SlackEventsRouteOptions): RequestHandler {
  const { bot, signingSecret, logger } = options;
  const handle = async (req: Request, res: Response): Promise<void> => {
    const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const refused = signatureProblem(req, raw, signingSecret);
    if (refused) {
      logger.warn({ bot, reason: refused }, 'slack: refused a request whose signature does not verify (401)');
      res.status(401).end();
      return;
    }
    const request = parseSlackHttpBody(raw, req.get('content-type'));
    const retryNum = retryNumOf(req);
    switch (request.kind) {
      case 'url_verification':
        res.json({ challenge: request.challenge });
        return;
      case 'ssl_check':
        res.status(200).end();
        return;
      case 'ignored':
        logger.debug({ bot, what: request.what }, 'slack: acknowledged a request with nothing for the bot');
        res.status(200).end();
        return;
      case 'malformed':
        logger.warn(
          {
            bot,
            reason: request.reason,
            ...(request.eventId ? { eventId: request.eventId } : {}),
            ...(retryNum !== undefined ? { retryNum } : {}),
          },
          'slack: acknowledged a signed request it cannot understand; dropped, not answered',
        );
        res.status(200).end();
        return;
    }
    const admission = await options.admit(ADMISSION_WAIT_MS);
    if (!admission.admitted) {
      logger.warn(
        { bot, reason: admission.reason, ...(retryNum !== undefined ? { retryNum } : {}) },
        'slack: the bot cannot take events yet; answered 503, Slack will send it again',
      );
      res.status(503).set('Retry-After', String(RETRY_AFTER_SECONDS)).json({ error: admission.reason });
      return;
    }
    try {
      await options.dispatch(request);
    } catch (error) {
      if (error instanceof NotQueuedError) {
        logger.debug({ bot, reason: error.message }, 'slack: answered 503, Slack will send the event again');
        res.status(503).set('Retry-After', String(NOT_QUEUED_RETRY_AFTER_SECONDS)).json({ error: error.message });
        return;
      }
      logger.error({ err: error, bot }, 'slack: an event was not queued; answered 500, Slack will send it again');
      res.status(500).json({ error: 'not queued, retry later' });
      return;
    }
    res.status(200).end();
  };

  const router = express.Router();
  // The raw bytes: the signature covers them exactly as sent. Bolt's limit, far above any event.
  router.post('/', express.raw({ type: () => true, limit: defaultBodyLimit }), handle);
  return router;
}
