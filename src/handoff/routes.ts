/**
 * HTTP: the signed hand-back link (public; the token is the credential) and
 * the operators' admin API (behind the admin bearer token):
 *   GET  /handoff/resume?token=…
 *   GET  /admin/handoffs
 *   GET  /admin/conversations/:id            (id = URL-encoded <bot>:<platform>:<conversation id>)
 *   POST /admin/conversations/:id/resume
 *   POST /admin/conversations/:id/messages   {"text": "…"}
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Gateway } from '../gateway/index.js';
import type { ConversationRef } from '../gateway/types.js';
import type { Logger } from '../logger.js';
import { formatConversationId, parseConversationId } from './conversation-id.js';
import type { HandoffController } from './controller.js';
import type { ResumeLinks } from './link.js';
import type { PauseRecord } from './pause.js';
import { resumePages } from './pages.js';

/** Longest operator message accepted (the platforms split long ones; this only stops accidents). */
export const OPERATOR_MESSAGE_MAX_CHARS = 20_000;

export function resumeRoute(controller: HandoffController, links: ResumeLinks, logger: Logger): Router {
  const router = express.Router();
  router.get('/resume', async (req, res) => {
    res.set('Cache-Control', 'no-store').type('html');
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (!token) return void res.status(400).send(resumePages.missing());
    const verified = links.verify(token);
    if (!verified.ok) {
      logger.info({ reason: verified.reason }, 'refused a hand-back link');
      return void res.status(verified.reason === 'expired' ? 410 : 400).send(verified.reason === 'expired' ? resumePages.expired() : resumePages.invalid());
    }
    const name = formatConversationId(verified.conversation);
    try {
      const outcome = await controller.resume(verified.conversation, { handoffId: verified.handoffId, by: 'signed link' });
      res.send(outcome === 'resumed' ? resumePages.resumed(name) : resumePages.alreadyBack(name));
    } catch (error) {
      logger.error({ err: error, conversation: name }, 'handing a conversation back failed');
      res.status(503).send(resumePages.failed());
    }
  });
  return router;
}

export function adminRoutes(router: Router, controller: HandoffController, gateway: Gateway): void {
  router.get('/handoffs', async (_req, res) => {
    res.json({ handoffs: (await controller.listPaused()).map(describePause) });
  });

  router.get('/conversations/:id', async (req, res) => {
    const conversation = conversationParam(req, res);
    if (!conversation) return;
    const [pause, transcript] = await Promise.all([controller.activePause(conversation), controller.transcript(conversation)]);
    res.json({ conversation: formatConversationId(conversation), handoff: pause && describePause(pause), transcript });
  });

  router.post('/conversations/:id/resume', async (req, res) => {
    const conversation = conversationParam(req, res);
    if (!conversation) return;
    const outcome = await controller.resume(conversation, { by: 'admin API' });
    res.json({ conversation: formatConversationId(conversation), resumed: outcome === 'resumed' });
  });

  router.post('/conversations/:id/messages', async (req, res) => {
    const conversation = conversationParam(req, res);
    if (!conversation) return;
    const text: unknown = (req.body as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string' || text.trim() === '' || text.length > OPERATOR_MESSAGE_MAX_CHARS) {
      return void res.status(400).json({ error: `Send JSON {"text": "…"} with 1–${OPERATOR_MESSAGE_MAX_CHARS} characters.` });
    }
    if (!gateway.outboundFor(conversation)) {
      return void res.status(404).json({ error: `No adapter serves bot "${conversation.bot}" on "${conversation.platform}" in this gateway.` });
    }
    await controller.sayAsOperator(conversation, text);
    res.json({ conversation: formatConversationId(conversation), sent: true });
  });
}

function conversationParam(req: Request, res: Response): ConversationRef | null {
  const raw = req.params.id;
  const conversation = typeof raw === 'string' ? parseConversationId(raw) : null;
  if (!conversation) res.status(400).json({ error: 'The conversation must be <bot>:<platform>:<conversation id>, URL-encoded, e.g. main%3Atelegram%3A12345.' });
  return conversation;
}

function describePause(record: PauseRecord) {
  return {
    conversation: formatConversationId(record.conversation),
    handoffId: record.handoffId,
    since: new Date(record.since).toISOString(),
    expiresAt: new Date(record.expiresAt).toISOString(),
    reason: record.reason,
    ...(record.user ? { user: record.user } : {}),
  };
}
