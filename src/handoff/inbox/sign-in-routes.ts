/**
 * Signing in and out of the inbox:
 *
 * - by e-mail link (POST /sign-in/email, then the mail's /sign-in/link): an operator account, sign-in-mail.ts;
 * - with the admin token (POST /sign-in), the break-glass key, unless inbox.tokenSignIn is false: an admin session;
 * - with a handoff e-mail's link (/link): the operator account it was sent to, or, for an address that is none, a
 *   named reader of that chatbot's conversations.
 *
 * Every link opens a page with a button first, so that a mail scanner following it changes nothing. Guesses and
 * requests are limited per client and per account or e-mail address (sign-in-limit.ts); every sign-in, refusal and
 * sign-out of an account is written to the audit log.
 */
import type { Request, Response, Router } from 'express';
import type { ConversationRef } from '../../contract.js';
import type { Logger } from '../../logger.js';
import { sameSecret } from '../../http/admin-auth.js';
import { formatConversationId } from '../conversation-id.js';
import type { AuditLog, OperatorAccounts } from '../operators/index.js';
import { OperatorDesk, operatorName, type InboxViewer } from '../pause/index.js';
import {
  clearPendingCookie,
  clearSessionCookie,
  pendingCookie,
  sessionCookie,
  setPendingCookie,
  setSessionCookie,
} from './cookie.js';
import type { RequestGuard } from './guard.js';
import { formOf, safeNext, send, type InboxRequests } from './inbox-requests.js';
import { conversationPath, conversationTitle } from './pages/format.js';
import { linkPage, linkSentPage, noticePage, signInLinkPage } from './pages/sign-in.js';
import type { InboxSession, InboxSessions, NewSession, SessionOrigin } from './sessions.js';
import type { InboxLinks } from './sign-in-link.js';
import { signInAddress, type Attempt, type SignInLimit } from './sign-in-limit.js';
import { newBrowserNonce, SIGN_IN_LINK_PATH, type SignInMail } from './sign-in-mail.js';

export interface SignInRoutesOptions {
  adminToken: string;
  /** inbox.tokenSignIn: whether the admin token signs in to the inbox. */
  tokenSignIn: boolean;
  desk: OperatorDesk;
  sessions: InboxSessions;
  links: InboxLinks;
  signInMail: SignInMail;
  accounts: OperatorAccounts;
  audit: AuditLog;
  signIns: SignInLimit;
  guard: RequestGuard;
  logger: Logger;
}

/** POST /sign-in, /sign-in/email, /sign-out; GET and POST /sign-in/link and /link, on `router`. */
export function mountSignIn(router: Router, requests: InboxRequests, options: SignInRoutesOptions): void {
  const { desk, guard, logger, audit } = options;
  const { root } = requests;

  /** Ends the browser's session, if any, and starts `what`: the cookie set, the sign-in audited. */
  const startSession = async (req: Request, res: Response, what: NewSession, how: string): Promise<InboxSession> => {
    const previous = sessionCookie(req);
    if (previous) await requests.endSession(previous);
    const session = await options.sessions.create(what, originOf(req));
    setSessionCookie(req, res, root, session.id, options.sessions.lifetimeMs);
    await audit.record({
      action: 'signed-in',
      actor:
        session.account?.email ?? `${session.operator} (${what.by === 'token' ? 'the admin token' : 'no account'})`,
      detail: how,
      address: signInAddress(req).address,
    });
    logger.info(
      { operator: session.operator, account: session.account?.id, by: session.by },
      'an operator signed in to the inbox',
    );
    return session;
  };

  /** The refusal of a request over a limit, or false when it may go on. */
  const overLimit = (res: Response, attempt: Attempt, address: string, untrustedProxy: boolean): boolean => {
    if (attempt.allowed) return false;
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    if (attempt.limited === 'account')
      logger.error(
        { address, untrustedProxy },
        'Too many wrong admin tokens at the inbox sign-in from every address together: nobody signs in with it for the rest of ' +
          'the window. Someone is guessing; behind a reverse proxy set TRUST_PROXY (http.trustProxy) so that guesses are counted per client.',
      );
    else logger.warn({ address, limited: attempt.limited }, 'inbox sign-in attempts over the limit');
    res.set('Retry-After', String(attempt.retryAfterSeconds));
    const why = {
      address: 'Too many sign-in attempts from your address.',
      account: 'Too many wrong admin tokens were tried, from anywhere: the sign-in rests.',
      email: 'Too many sign-in links were asked for that e-mail address.',
    }[attempt.limited];
    send(res, 429, noticePage(root, 'Too many attempts', `${why} Try again in ${minutes} minutes.`));
    return true;
  };

  router.post('/sign-in/email', async (req, res) => {
    const crossSite = guard.crossSiteProblem(req);
    if (crossSite) return void send(res, 403, noticePage(root, 'Request refused', `Nothing was sent: ${crossSite}.`));
    const email = (formOf(req).email ?? '').trim();
    if (email === '' || email.length > 254)
      return void send(res, 400, requests.signInForm({ error: 'Type the e-mail address you were added with.' }));
    const { address, untrustedProxy } = signInAddress(req);
    if (overLimit(res, await options.signIns.linkRequest(address, email), address, untrustedProxy)) return;
    const nonce = pendingCookie(req) ?? newBrowserNonce();
    setPendingCookie(req, res, root, nonce, options.signInMail.minutes * 60_000);
    // The same page for every address, answered before the account is even looked up: neither what it says nor how
    // long it takes tells whether the address is an operator's.
    send(res, 200, linkSentPage(root, options.signInMail.minutes));
    void options.signInMail.request(email, nonce, address);
  });

  router.get(SIGN_IN_LINK_PATH, async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const state = await options.signInMail.check(token, pendingCookie(req));
    if (state === 'ok') return void send(res, 200, signInLinkPage(root, token));
    refuseLink(res, state);
  });

  router.post(SIGN_IN_LINK_PATH, async (req, res) => {
    const crossSite = guard.crossSiteProblem(req);
    if (crossSite)
      return void send(res, 403, noticePage(root, 'Request refused', `Nobody was signed in: ${crossSite}.`));
    const spent = await options.signInMail.spend(formOf(req).token ?? '', pendingCookie(req));
    if (!spent.ok) {
      await audit.record({
        action: 'sign-in-refused',
        actor: 'someone with a sign-in link',
        detail: spent.reason,
        address: signInAddress(req).address,
      });
      return void refuseLink(res, spent.reason);
    }
    clearPendingCookie(req, res, root);
    await startSession(req, res, { by: 'account', account: spent.account }, 'by e-mail link');
    res.redirect(303, root);
  });

  const refuseLink = (res: Response, reason: 'gone' | 'other-browser' | 'no-account'): void => {
    const [status, title, message] = {
      gone: [410, 'This link no longer works', 'A sign-in link works once, for a few minutes. Ask for a new one.'],
      'other-browser': [
        403,
        'Open the link where you asked for it',
        'A sign-in link works only in the browser that asked for it (this one did not, or its cookies were cleared). ' +
          'Ask for a new link from this browser.',
      ],
      'no-account': [403, 'Not an operator', 'This address is no longer an operator. Ask an admin.'],
    }[reason] as [number, string, string];
    send(res, status, noticePage(root, title, message));
  };

  router.post('/sign-in', async (req, res) => {
    const crossSite = guard.crossSiteProblem(req);
    if (crossSite)
      return void send(res, 403, noticePage(root, 'Request refused', `Nobody was signed in: ${crossSite}.`));
    if (!options.tokenSignIn)
      return void send(
        res,
        403,
        noticePage(
          root,
          'Signing in with the admin token is off',
          'This inbox is signed in to by e-mail link (inbox.tokenSignIn is false). Ask for a link with your address.',
        ),
      );
    const body = formOf(req);
    const next = safeNext(root, body.next);
    const { address, untrustedProxy } = signInAddress(req);
    if (overLimit(res, await options.signIns.attempt(address), address, untrustedProxy)) return;
    if (!sameSecret(body.token ?? '', options.adminToken)) {
      logger.info({ address }, 'inbox sign-in with a wrong admin token');
      await audit.record({ action: 'sign-in-refused', actor: 'someone', detail: 'a wrong admin token', address });
      return void send(
        res,
        401,
        requests.signInForm({
          error: 'That is not the admin token (ADMIN_TOKEN). Check it and try again.',
          name: body.name ?? '',
          ...(next ? { next } : {}),
        }),
      );
    }
    await options.signIns.succeeded(address);
    const name = operatorName(body.name);
    if (!name.ok) return void send(res, 400, requests.signInForm({ error: name.message, ...(next ? { next } : {}) }));
    await startSession(req, res, { by: 'token', operator: name.name }, 'with the admin token');
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
      if (session.account)
        await audit.record({ action: 'signed-out', actor: session.account.email, address: signInAddress(req).address });
    }
    clearSessionCookie(req, res, root);
    res.redirect(303, root);
  });

  router.get('/link', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const claim = verifiedLink(root, res, options.links, token);
    if (!claim) return;
    const session = await requests.sessionOf(req);
    const [opened, account] = await Promise.all([
      desk.open(claim.conversation),
      claim.to ? options.accounts.byEmail(claim.to) : null,
    ]);
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
        ...(account ? { account: `${account.name} (${account.email})` } : {}),
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
    const { bot } = claim.conversation;
    const there = conversationPath(root, formatConversationId(claim.conversation));
    const current = await requests.sessionOf(req);
    const account = claim.to ? await options.accounts.byEmail(claim.to) : null;
    if (account) {
      // The operator the mail went to: signed in as their account, for this chatbot (the rest needs their own sign-in).
      if (current?.account?.id === account.id && OperatorDesk.sees(current.viewer, bot))
        return void res.redirect(303, there);
      const sees = account.role === 'admin' || account.bots === 'all' || account.bots.includes(bot);
      if (!sees)
        return void send(
          res,
          403,
          noticePage(
            root,
            'Not in your inbox',
            `Your operator account does not include this chatbot. Ask an admin to add bot "${bot}" to it.`,
          ),
        );
      await startSession(req, res, { by: 'account', account, only: [bot] }, `by a handoff e-mail's link (bot ${bot})`);
      return void res.redirect(303, there);
    }
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
    if (!current || !OperatorDesk.sees(current.viewer, bot) || current.operator !== name.name || current.account) {
      // A reader already signed in for other chatbots keeps them, and gains this one.
      const bots: InboxViewer['bots'] =
        current && !current.account && current.viewer.bots === 'all'
          ? 'all'
          : [...new Set([...(current && !current.account ? current.viewer.bots : []), bot])];
      await startSession(
        req,
        res,
        bots === 'all' ? { by: 'token', operator: name.name } : { by: 'link', operator: name.name, bots },
        `by a handoff e-mail's link (bot ${bot})`,
      );
    }
    res.redirect(303, there);
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
): { conversation: ConversationRef; to?: string } | null {
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
        'Inbox links work for handoff.inboxLinkHours after the e-mail (7 days unless configured). Sign in with your e-mail address instead.',
      ),
    );
  } else {
    send(
      res,
      400,
      noticePage(
        root,
        'This link is not valid',
        'The link was changed or cut off, or it was signed with another secret (HANDOFF_SECRET). Sign in with your e-mail address instead.',
      ),
    );
  }
  return null;
}
