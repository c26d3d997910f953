/**
 * The operators' admin API (behind the admin bearer token), what the CLI calls:
 *   GET  /admin/handoffs
 *   GET  /admin/conversations/:id            (id = URL-encoded <bot>:<platform>:<conversation id>)
 *   POST /admin/conversations/:id/resume
 *   POST /admin/conversations/:id/messages   {"text": "…"}
 *   POST /admin/conversations/:id/claim      {"name": "…"}   the conversation is that operator's
 *   GET  /admin/handoff-mail                 e-mails waiting and dead letters
 *   POST /admin/handoff-mail/:id/retry       a dead letter back into the outbox
 *   GET  /admin/digests/:bot, POST /admin/digests/:bot/send   the day's digests (digest-routes.ts)
 */
import type { Request, Response, Router } from 'express';
import type { ConversationRef, PlatformModule } from '../../contract.js';
import { conversationIdProblem, formatConversationId, parseConversationId } from '../conversation-id.js';
import type { Digests } from '../digests/index.js';
import type { Outbox, OutboxMail } from '../mail/index.js';
import { operatorName, type HandoffController, type OperatorDesk, type PauseRecord } from '../pause/index.js';
import { digestRoutes } from './digest-routes.js';

/** Platform errors that refuse the operator's message itself (422); the others (rate limits, outages past their retries) are 503s to retry. */
const PLATFORM_REFUSALS: ReadonlySet<string> = new Set([
  'bad-format',
  'too-long',
  'other',
  'unsupported',
  'not-editable',
  'window-closed',
]);

/**
 * The operators' admin API: what the CLI calls. Every operator action goes through the desk, as
 * the inbox's do. `platforms`: whose conversation-id shapes an id in a path is checked against. `digests`: the day's
 * digests of `bots` (the ids of the bots served), under /admin/digests; none: those routes are not mounted.
 */
export function adminRoutes(
  router: Router,
  desk: OperatorDesk,
  controller: HandoffController,
  outbox: Outbox,
  platforms: readonly PlatformModule[],
  digests?: Digests,
  bots: readonly string[] = [],
): void {
  if (digests) digestRoutes(router, digests, bots);
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
    const claim = await desk.claim(conversation, { name: name.name });
    const id = formatConversationId(conversation);
    if (claim.outcome === 'not-paused')
      return void res.status(409).json({ error: `${id} is not waiting for a person; there is nothing to claim.` });
    if (claim.outcome === 'changed')
      return void res.status(409).json({
        error: `${id} was claimed by ${claim.holder ?? 'another operator'} at the same moment; claim it again to take it over.`,
        ...(claim.holder ? { claimedBy: claim.holder } : {}),
      });
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
    // Well formed, but no conversation of its platform can have this id.
    res.status(404).json({ error: problem });
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
