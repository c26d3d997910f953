/**
 * HTTP: the signed hand-back link (public; the token is the credential) and
 * the operators' admin API (behind the admin bearer token):
 *   GET  /handoff/resume?token=…               confirmation page (changes nothing)
 *   POST /handoff/resume   token=…             hands the conversation back
 *   GET  /admin/handoffs
 *   GET  /admin/conversations/:id            (id = URL-encoded <bot>:<platform>:<conversation id>)
 *   POST /admin/conversations/:id/resume
 *   POST /admin/conversations/:id/messages   {"text": "…"}
 *   POST /admin/conversations/:id/claim      {"name": "…"}   the conversation is that operator's
 *   GET  /admin/handoff-mail                 e-mails waiting and dead letters
 *   POST /admin/handoff-mail/:id/retry       a dead letter back into the outbox
 */
import express, { type Request, type Response, type Router } from 'express';
import type { ConversationRef, PlatformModule } from '../contract.js';
import type { Logger } from '../logger.js';
import { conversationIdProblem, formatConversationId, parseConversationId } from './conversation-id.js';
import type { HandoffController } from './controller.js';
import { operatorName, type OperatorDesk } from './desk.js';
import type { ResumeClaim, ResumeLinks } from './link.js';
import type { Outbox, OutboxMail } from './outbox.js';
import type { PauseRecord } from './pause.js';
import { confirmPage, resumePages } from './pages.js';

/** Platform errors that refuse the operator's message itself (422); the others (rate limits, outages past their retries) are 503s to retry. */
const PLATFORM_REFUSALS: ReadonlySet<string> = new Set([
  'bad-format',
  'too-long',
  'other',
  'unsupported',
  'not-editable',
  'window-closed',
]);
/** The confirmation form posts one token of a few hundred bytes; anything far bigger is not ours. */
const RESUME_FORM_LIMIT = '8kb';
/**
 * The pages carry no script and load nothing; they may not be framed (a framed
 * button could be clicked by someone who does not see it), and the token in
 * the URL is not sent on as a Referer.
 */
const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/**
 * The POST needs no CSRF token: the signed token in its body is itself the
 * credential (no cookie or session is involved), so a forged POST needs the
 * token, and whoever has the token may hand back anyway.
 */
export function resumeRoute(controller: HandoffController, links: ResumeLinks, logger: Logger): Router {
  const router = express.Router();
  router.use('/resume', express.urlencoded({ extended: false, limit: RESUME_FORM_LIMIT }));

  /** The verified claim, or null once the refusal page was sent. */
  const claimOf = (req: Request, res: Response, token: string): ResumeClaim | null => {
    res.set(PAGE_HEADERS).type('html');
    if (!token) {
      res.status(400).send(resumePages.missing());
      return null;
    }
    const verified = links.verify(token);
    if (verified.ok) return verified;
    logger.info({ reason: verified.reason, method: req.method }, 'refused a hand-back link');
    if (verified.reason === 'expired') res.status(410).send(resumePages.expired());
    else res.status(400).send(resumePages.invalid());
    return null;
  };

  router.get('/resume', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const claim = claimOf(req, res, token);
    if (!claim) return;
    const name = formatConversationId(claim.conversation);
    try {
      const record = await controller.activePause(claim.conversation);
      if (!record || record.handoffId !== claim.handoffId) return void res.send(resumePages.alreadyBack(name));
      res.send(confirmPage(name, record, token));
    } catch (error) {
      logger.error({ err: error, conversation: name }, 'reading a paused conversation for the hand-back page failed');
      res.status(503).send(resumePages.failed());
    }
  });

  router.post('/resume', async (req, res) => {
    const body = req.body as { token?: unknown } | undefined;
    const token =
      typeof body?.token === 'string' ? body.token : typeof req.query.token === 'string' ? req.query.token : '';
    const claim = claimOf(req, res, token);
    if (!claim) return;
    const name = formatConversationId(claim.conversation);
    try {
      const outcome = await controller.resume(claim.conversation, {
        handoffId: claim.handoffId,
        by: 'the signed link',
      });
      res.send(outcome === 'resumed' ? resumePages.resumed(name) : resumePages.alreadyBack(name));
    } catch (error) {
      logger.error({ err: error, conversation: name }, 'handing a conversation back failed');
      res.status(503).send(resumePages.failed());
    }
  });
  return router;
}

/**
 * The operators' admin API: what the CLI calls. Every operator action goes through the desk, as
 * the inbox's do. `platforms`: whose conversation-id shapes an id in a path is checked against.
 */
export function adminRoutes(
  router: Router,
  desk: OperatorDesk,
  controller: HandoffController,
  outbox: Outbox,
  platforms: readonly PlatformModule[],
): void {
  router.get('/handoff-mail', async (_req, res) => {
    const [waiting, dead] = await Promise.all([outbox.pending(), outbox.dead()]);
    res.json({ waiting: waiting.map(describeMail), dead: dead.map(describeMail) });
  });

  router.post('/handoff-mail/:id/retry', async (req, res) => {
    const id = String(req.params.id);
    const mail = await outbox.requeue(id);
    if (!mail)
      return void res
        .status(404)
        .json({ error: `No dead handoff e-mail "${id}"; GET /admin/handoff-mail lists them.` });
    res.json({ requeued: true, mail: describeMail(mail) });
  });

  router.get('/handoffs', async (_req, res) => {
    res.json({ handoffs: (await controller.listPaused()).map(describePause) });
  });

  router.get('/conversations/:id', async (req, res) => {
    const conversation = conversationParam(req, res, platforms);
    if (!conversation) return;
    const { pause, transcript } = await desk.open(conversation);
    res.json({ conversation: formatConversationId(conversation), handoff: pause && describePause(pause), transcript });
  });

  router.post('/conversations/:id/resume', async (req, res) => {
    const conversation = conversationParam(req, res, platforms);
    if (!conversation) return;
    const outcome = await desk.handBack(conversation, { door: 'the admin API' });
    res.json({ conversation: formatConversationId(conversation), resumed: outcome === 'resumed' });
  });

  router.post('/conversations/:id/claim', async (req, res) => {
    const conversation = conversationParam(req, res, platforms);
    if (!conversation) return;
    const name = operatorName((req.body as { name?: unknown } | undefined)?.name);
    if (!name.ok)
      return void res.status(400).json({ error: `Send JSON {"name": "…"}, the operator's name. ${name.message}` });
    const claim = await desk.claim(conversation, name.name);
    const id = formatConversationId(conversation);
    if (claim.outcome === 'not-paused')
      return void res.status(409).json({ error: `${id} is not waiting for a person; there is nothing to claim.` });
    res.json({
      conversation: id,
      claimedBy: name.name,
      ...(claim.outcome === 'claimed' && claim.from ? { takenFrom: claim.from } : {}),
    });
  });

  router.post('/conversations/:id/messages', async (req, res) => {
    const conversation = conversationParam(req, res, platforms);
    if (!conversation) return;
    const text: unknown = (req.body as { text?: unknown } | undefined)?.text;
    const outcome = await desk.reply(conversation, typeof text === 'string' ? text : '');
    if (outcome.sent) return void res.json({ conversation: formatConversationId(conversation), sent: true });
    if (outcome.problem === 'invalid')
      return void res.status(400).json({ error: `Send JSON {"text": "…"}. ${outcome.message}` });
    if (outcome.problem === 'not-served') return void res.status(404).json({ error: outcome.message });
    // The platform refusing this message (no such chat, the bot blocked) is the operator's to know, not a gateway fault.
    const status = outcome.kind === 'not-found' ? 404 : PLATFORM_REFUSALS.has(outcome.kind) ? 422 : 503;
    res.status(status).json({ error: outcome.message });
  });
}

function conversationParam(req: Request, res: Response, platforms: readonly PlatformModule[]): ConversationRef | null {
  const raw = req.params.id;
  const conversation = typeof raw === 'string' ? parseConversationId(raw) : null;
  if (!conversation) {
    res.status(400).json({
      error: 'The conversation must be <bot>:<platform>:<conversation id>, URL-encoded, e.g. main%3Atelegram%3A12345.',
    });
    return null;
  }
  const problem = conversationIdProblem(conversation, platforms);
  if (problem) {
    res.status(400).json({ error: problem });
    return null;
  }
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
    ...(record.claim ? { claimedBy: record.claim.by, claimedAt: new Date(record.claim.at).toISOString() } : {}),
  };
}

/** A mail without its bodies (the transcript in them is long, and the CLI prints this). */
function describeMail(mail: OutboxMail) {
  return {
    id: mail.id,
    to: mail.to,
    subject: mail.subject,
    conversation: mail.conversation,
    createdAt: new Date(mail.createdAt).toISOString(),
    failures: mail.failures,
    ...(mail.permanentFailures ? { permanentFailures: mail.permanentFailures } : {}),
    ...(mail.lastError ? { lastError: mail.lastError } : {}),
    ...(mail.deadAt ? { deadAt: new Date(mail.deadAt).toISOString() } : {}),
  };
}
