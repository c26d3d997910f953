/**
 * Signing in and out of the inbox: with the admin token (a session for every chatbot), or with the e-mail's link (a
 * page with a button, so that a mail scanner opening it changes nothing; then a session for that chatbot's
 * conversations). Guesses are limited per client and per account (sign-in-limit.ts).
 */
import type { Request, Response, Router } from 'express';
import type { ConversationRef } from '../../contract.js';
import type { Logger } from '../../logger.js';
import { sameSecret } from '../../http/admin-auth.js';
import { formatConversationId } from '../conversation-id.js';
import { OperatorDesk, operatorName, type InboxViewer } from '../pause/index.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from './cookie.js';
import type { RequestGuard } from './guard.js';
import { formOf, safeNext, send, type InboxRequests } from './inbox-requests.js';
import { conversationPath, conversationTitle } from './pages/format.js';
import { linkPage, noticePage, signInPage } from './pages/sign-in.js';
import type { InboxSessions, SessionOrigin } from './sessions.js';
import type { InboxLinks } from './sign-in-link.js';
import { signInAddress, type SignInLimit } from './sign-in-limit.js';

export interface SignInRoutesOptions {
  adminToken: string;
  desk: OperatorDesk;
  sessions: InboxSessions;
  links: InboxLinks;
  signIns: SignInLimit;
  guard: RequestGuard;
  logger: Logger;
}

/** POST /sign-in, POST /sign-out, GET and POST /link, on `router`. */
export function mountSignIn(router: Router, requests: InboxRequests, options: SignInRoutesOptions): void {
  const { desk, sessions, guard, logger } = options;
  const { root } = requests;
  router.post('/sign-in', async (req, res) => {
    const crossSite = guard.crossSiteProblem(req);
    if (crossSite)
      return void send(res, 403, noticePage(root, 'Request refused', `Nobody was signed in: ${crossSite}.`));
    const body = formOf(req);
    const next = safeNext(root, body.next);
    const { address, untrustedProxy } = signInAddress(req);
    const attempt = await options.signIns.attempt(address);
    if (!attempt.allowed) {
      const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
      if (attempt.limited === 'account')
        logger.error(
          { address, untrustedProxy },
          'Too many wrong admin tokens at the inbox sign-in from every address together: nobody signs in for the rest of the ' +
            'window. Someone is guessing; behind a reverse proxy set TRUST_PROXY (http.trustProxy) so that guesses are counted per client.',
        );
      else logger.warn({ address }, 'inbox sign-in attempts over the limit');
      res.set('Retry-After', String(attempt.retryAfterSeconds));
      return void send(
        res,
        429,
        noticePage(
          root,
          'Too many attempts',
          attempt.limited === 'address'
            ? `Too many sign-in attempts from your address. Try again in ${minutes} minutes.`
            : `Too many wrong admin tokens were tried, from anywhere: the sign-in rests. Try again in ${minutes} minutes.`,
        ),
      );
    }
    if (!sameSecret(body.token ?? '', options.adminToken)) {
      logger.info({ address }, 'inbox sign-in with a wrong admin token');
      return void send(
        res,
        401,
        signInPage(root, {
          error: 'That is not the admin token (ADMIN_TOKEN). Check it and try again.',
          name: body.name ?? '',
          ...(next ? { next } : {}),
        }),
      );
    }
    await options.signIns.succeeded(address);
    const name = operatorName(body.name);
    if (!name.ok) return void send(res, 400, signInPage(root, { error: name.message, ...(next ? { next } : {}) }));
    const previous = sessionCookie(req);
    if (previous) await requests.endSession(previous);
    const session = await sessions.create({ by: 'token', operator: name.name }, originOf(req));
    setSessionCookie(req, res, root, session.id, sessions.lifetimeMs);
    logger.info({ operator: session.operator }, 'an operator signed in to the inbox');
    res.redirect(303, next ?? root);
  });

  router.post('/sign-out', async (req, res) => {
    const session = await requests.sessionOf(req);
    if (session) {
      const problem = guard.csrfProblem(req, session);
      if (problem)
        return void send(
          res,
          403,
          noticePage(root, 'Request refused', `You are still signed in: ${problem}.`, session),
        );
      await requests.endSession(session.id);
    }
    clearSessionCookie(req, res, root);
    res.redirect(303, root);
  });

  router.get('/link', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const claim = verifiedLink(root, res, options.links, token);
    if (!claim) return;
    const session = await requests.sessionOf(req);
    const opened = await desk.open(claim.conversation);
    send(
      res,
      200,
      linkPage(root, {
        token,
        conversation: conversationTitle(
          opened.pause?.user ?? opened.transcript.findLast((entry) => entry.role === 'user')?.user,
          claim.conversation.platform,
        ),
        chatbot: opened.chatbot,
        ...(session ? { name: session.operator } : {}),
      }),
    );
  });

  router.post('/link', async (req, res) => {
    const crossSite = guard.crossSiteProblem(req);
    if (crossSite)
      return void send(res, 403, noticePage(root, 'Request refused', `Nobody was signed in: ${crossSite}.`));
    const body = formOf(req);
    const claim = verifiedLink(root, res, options.links, body.token ?? '');
    if (!claim) return;
    const name = operatorName(body.name);
    if (!name.ok) {
      const opened = await desk.open(claim.conversation);
      return void send(
        res,
        400,
        linkPage(root, {
          token: body.token ?? '',
          conversation: conversationTitle(opened.pause?.user, claim.conversation.platform),
          chatbot: opened.chatbot,
          error: name.message,
        }),
      );
    }
    const { bot } = claim.conversation;
    const current = await requests.sessionOf(req);
    if (!current || !OperatorDesk.sees(current.viewer, bot) || current.operator !== name.name) {
      // A reader already signed in for other chatbots keeps them, and gains this one.
      const bots: InboxViewer['bots'] =
        current?.viewer.bots === 'all' ? 'all' : [...new Set([...(current?.viewer.bots ?? []), bot])];
      if (current) await requests.endSession(current.id);
      const session = await sessions.create(
        bots === 'all' ? { by: 'token', operator: name.name } : { by: 'link', operator: name.name, bots },
        originOf(req),
      );
      setSessionCookie(req, res, root, session.id, sessions.lifetimeMs);
      logger.info({ operator: session.operator, bot }, 'an operator signed in to the inbox with an e-mail link');
    }
    res.redirect(303, conversationPath(root, formatConversationId(claim.conversation)));
  });
}

function originOf(req: Request): SessionOrigin {
  return { userAgent: req.get('user-agent') ?? '', address: signInAddress(req).address };
}

function verifiedLink(
  root: string,
  res: Response,
  links: InboxLinks,
  token: string,
): { conversation: ConversationRef } | null {
  if (!token) {
    send(
      res,
      400,
      noticePage(root, 'This link is incomplete', 'The link has no token. Open the whole link from the e-mail.'),
    );
    return null;
  }
  const verified = links.verify(token);
  if (verified.ok) return verified;
  if (verified.reason === 'expired') {
    send(
      res,
      410,
      noticePage(
        root,
        'This link has expired',
        'Inbox links work for handoff.inboxLinkHours after the e-mail (7 days unless configured). Sign in with the admin token instead.',
      ),
    );
  } else {
    send(
      res,
      400,
      noticePage(
        root,
        'This link is not valid',
        'The link was changed or cut off, or it was signed with another secret (HANDOFF_SECRET). Sign in with the admin token instead.',
      ),
    );
  }
  return null;
}
