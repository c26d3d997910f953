/**
 * The day's digests in the admin API (issue 29), what `chatbridge digest …` calls:
 *   GET  /admin/digests/:bot?kind=logs|leads[&day=YYYY-MM-DD]   the mail as it would be sent (day: default today)
 *   POST /admin/digests/:bot/send  {"kind", "day", "again"?}    queues it, once per chatbot, kind and day
 * Written against the Digests interface only: the service decides what a day holds and whether it was sent.
 */
import type { Request, Response, Router } from 'express';
import {
  badDayMessage,
  badKindMessage,
  parseDigestDay,
  parseDigestKind,
  type DigestKind,
  type DigestMail,
  type Digests,
  type DigestSendOutcome,
} from '../digests/index.js';

/** `bots`: the ids of the bots this gateway serves; any other is a 404. */
export function digestRoutes(router: Router, digests: Digests, bots: readonly string[]): void {
  router.get('/digests/:bot', async (req, res) => {
    const bot = botParam(req, res, bots);
    if (!bot) return;
    const kind = parseDigestKind(req.query.kind);
    if (!kind) return void res.status(400).json({ error: badKindMessage('kind', req.query.kind) });
    const day = req.query.day === undefined ? (await digests.window(bot)).day : parseDigestDay(req.query.day);
    if (!day) return void res.status(400).json({ error: badDayMessage('day', req.query.day) });
    const { to, mail } = await digests.preview(bot, kind, day);
    res.json({ bot, kind, day, to, mail: mail && describeMail(mail) });
  });

  router.post('/digests/:bot/send', async (req, res) => {
    const bot = botParam(req, res, bots);
    if (!bot) return;
    const body = (req.body ?? {}) as { kind?: unknown; day?: unknown; again?: unknown };
    const kind = parseDigestKind(body.kind);
    if (!kind) return void res.status(400).json({ error: badKindMessage('kind', body.kind) });
    const day = parseDigestDay(body.day);
    if (!day) return void res.status(400).json({ error: badDayMessage('day', body.day) });
    if (body.again !== undefined && typeof body.again !== 'boolean')
      return void res.status(400).json({ error: `again must be true or false (got ${JSON.stringify(body.again)}).` });
    const outcome = await digests.send(bot, kind, day, { again: body.again === true });
    const { status, error } = answerOf(outcome, bot, kind, day);
    res.status(status).json({ bot, kind, day, ...outcome, ...(error ? { error } : {}) });
  });
}

function botParam(req: Request, res: Response, bots: readonly string[]): string | null {
  const bot = String(req.params.bot);
  if (bots.includes(bot)) return bot;
  res.status(404).json({ error: `No bot "${bot}" in this gateway; its bots: ${bots.join(', ') || 'none'}.` });
  return null;
}

/** The HTTP status of an outcome, and what an operator is told when it is a refusal. */
function answerOf(
  outcome: DigestSendOutcome,
  bot: string,
  kind: DigestKind,
  day: string,
): { status: number; error?: string } {
  if (outcome.queued || outcome.reason === 'empty') return { status: 200 };
  if (outcome.reason === 'no-address') return { status: 422, error: outcome.message };
  return {
    status: 409,
    error:
      `The ${kind} digest of bot ${bot} for ${day} was already sent (queued ${new Date(outcome.at).toISOString()}); ` +
      'send it with "again": true to send it once more.',
  };
}

/** The mail as JSON, each attachment with its size in bytes (what the CLI shows of it). */
function describeMail(mail: DigestMail) {
  return {
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments.map((attachment) => ({
      ...attachment,
      size: Buffer.byteLength(attachment.content, 'utf8'),
    })),
    omitted: mail.omitted,
  };
}
