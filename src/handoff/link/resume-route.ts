/**
 * HTTP: the signed hand-back link, public (the token is the credential):
 *   GET  /handoff/resume?token=…               confirmation page (changes nothing)
 *   POST /handoff/resume   token=…             hands the conversation back
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from '../../logger.js';
import { formatConversationId } from '../conversation-id.js';
import type { HandoffController, ResumeClaim } from '../pause/index.js';
import { confirmPage, resumePages } from './resume-pages.js';
import type { ResumeLinks } from './resume-link.js';

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
