/**
 * The inbox's HTTP routes, mounted at /inbox (install.ts):
 *   GET  /                                  the waiting list, or the sign-in form
 *   POST /sign-in   token, name             a session for every chatbot (the admin token)
 *   POST /sign-out
 *   GET  /link?token=…                      the e-mail's link: a page with a button (changes nothing)
 *   POST /link      token, name             a session for that chatbot's conversations
 *   GET  /conversations/:id                 one conversation
 *   POST /conversations/:id/messages  text  a reply to the user
 *   POST /conversations/:id/claim
 *   POST /conversations/:id/hand-back
 *   GET  /conversations/:id/files/:entry/:n a file the user sent
 *   GET  /history                           handed-back conversations
 *   GET  /leads[?day=…&bot=…], /leads.csv   a day's leads, and their CSV (leads-routes.ts)
 *   GET  /events[?conversation=…]           live changes (Server-Sent Events, live/)
 *   GET  /assets/inbox.js, /assets/inbox.css
 *   GET  /<a platform's admin page>         e.g. /whatsapp/<bot>/qr, for an operator who may see the bot
 * Every operator action goes through the OperatorDesk, as the admin API's do. The sign-in routes are in
 * sign-in-routes.ts, a conversation's in conversation-routes.ts, the platforms' pages in operator-pages.ts; what
 * every route asks of a request (its session, its conversation) in inbox-requests.ts.
 */
import express, { type ErrorRequestHandler, type Router } from 'express';
import type { PlatformModule } from '../../contract.js';
import type { Gateway } from '../../gateway/index.js';
import type { Logger } from '../../logger.js';
import type { InboxFeed, OperatorDesk } from '../pause/index.js';
import { inboxStylesheet } from './assets.js';
import { mountConversations } from './conversation-routes.js';
import { mountLeads, type LeadsPageOptions } from './leads-routes.js';
import { RequestGuard, setPageHeaders } from './guard.js';
import { inboxRoot, InboxRequests, send } from './inbox-requests.js';
import { inboxScript, serveInboxEvents } from './live/index.js';
import { mountOperatorPages, operatorPageLinks, type OperatorPage } from './operator-pages.js';
import { historyPage } from './pages/history.js';
import { noticePage } from './pages/sign-in.js';
import { waitingPage } from './pages/waiting.js';
import { UNTRUSTED_PROXY_WARNING } from './proxy-hint.js';
import { sessionDigest, type InboxSessions } from './sessions.js';
import type { InboxLinks } from './sign-in-link.js';
import { trustsProxy, type SignInLimit } from './sign-in-limit.js';
import { mountSignIn } from './sign-in-routes.js';
import { mountOperators } from './operators-routes.js';
import type { SignInMail } from './sign-in-mail.js';
import type { AccountSessions } from './account-sessions.js';
import type { AuditLog, OperatorAccounts, OperatorRoster } from '../operators/index.js';

export { inboxRoot } from './inbox-requests.js';
export type { OperatorPage } from './operator-pages.js';
export type { LeadsPageOptions } from './leads-routes.js';

/** Conversations read in full on the waiting list; the rest are counted. */
export const WAITING_PAGE_SIZE = 100;
export const HISTORY_PAGE_SIZE = 100;
/** A reply is at most 20,000 characters: URL-encoded UTF-8 stays well inside this. */
const FORM_LIMIT = '256kb';

export interface InboxRouterOptions {
  adminToken: string;
  /** inbox.tokenSignIn: whether the admin token signs in to the inbox (the break-glass way). */
  tokenSignIn: boolean;
  signInMail: SignInMail;
  accounts: OperatorAccounts;
  accountSessions: AccountSessions;
  audit: AuditLog;
  /** The operator accounts, for the admins' Operators page. */
  roster: OperatorRoster;
  /** The configured bots' ids: the chatbots an operator may be given. */
  bots: readonly string[];
  desk: OperatorDesk;
  gateway: Gateway;
  sessions: InboxSessions;
  links: InboxLinks;
  signIns: SignInLimit;
  feed: InboxFeed;
  /** Whose conversation-id shapes an id in a path is checked against. */
  platforms: readonly PlatformModule[];
  /** The platforms' admin pages, served at their path under the inbox. */
  operatorPages?: readonly OperatorPage[];
  /** admin.publicUrl (PUBLIC_URL): a page there is the inbox's own too, and its path prefixes every URL the pages hold. */
  publicUrl?: string;
  /** The day's digests, for the Leads page; none: the page says this gateway has none. */
  leads?: LeadsPageOptions;
  logger: Logger;
}

export function inboxRouter(options: InboxRouterOptions): Router {
  const { desk, logger } = options;
  const guard = new RequestGuard(options.publicUrl);
  const root = inboxRoot(options.publicUrl);
  const requests = new InboxRequests({ root, guard, ...options });
  const router = express.Router();
  router.get('/assets/inbox.css', inboxStylesheet());
  router.get('/assets/inbox.js', inboxScript());
  router.use((_req, res, next) => {
    setPageHeaders(res);
    next();
  });
  router.use(express.urlencoded({ extended: false, limit: FORM_LIMIT }));
  let proxyWarned = false;
  router.use((req, _res, next) => {
    if (!proxyWarned && req.get('x-forwarded-for') !== undefined && !trustsProxy(req)) {
      proxyWarned = true;
      logger.warn({ proxy: req.socket.remoteAddress }, UNTRUSTED_PROXY_WARNING);
    }
    next();
  });

  const operatorPages = options.operatorPages ?? [];
  mountOperatorPages(router, requests, operatorPages);

  router.get('/', async (req, res) => {
    const session = await requests.sessionOf(req);
    if (!session) return void send(res, 200, requests.signInForm());
    const [waiting, accounts] = await Promise.all([
      desk.waiting(session.viewer, WAITING_PAGE_SIZE),
      desk.accountNames(),
    ]);
    const links = operatorPageLinks(root, session, operatorPages);
    send(res, 200, waitingPage(root, session, waiting, Date.now(), links, undefined, accounts));
  });

  mountSignIn(router, requests, { ...options, guard });

  router.get('/events', async (req, res) => {
    const session = await requests.sessionOf(req);
    if (!session) return void res.status(401).type('text').send('Sign in to the inbox first.');
    serveInboxEvents(options.feed, req, res, session.viewer, {
      digest: sessionDigest(session.id),
      expiresAt: session.expiresAt,
    });
  });

  router.get('/history', async (req, res) => {
    const session = await requests.pageSession(req, res);
    if (!session) return;
    const [entries, accounts] = await Promise.all([
      desk.history(session.viewer, HISTORY_PAGE_SIZE),
      desk.accountNames(),
    ]);
    const names = await desk.chatbotNames(new Set(entries.map((entry) => entry.conversation.bot)));
    send(res, 200, historyPage(root, session, entries, names, accounts));
  });

  mountConversations(router, requests, options);
  mountOperators(router, requests, options.roster, options.bots);
  mountLeads(router, requests, desk, options.leads);

  router.use((req, res) => {
    send(res, 404, noticePage(root, 'Not found', `The inbox has no page ${req.path}.`));
  });
  const failed: ErrorRequestHandler = (error: { status?: unknown; type?: unknown }, req, res, _next) => {
    // A form too large or malformed is the browser's to fix; anything else is ours, and logged.
    const status = typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 503;
    if (status >= 500) logger.error({ err: error, method: req.method, path: req.path }, 'an inbox request failed');
    if (res.headersSent) return void res.end();
    send(
      res,
      status,
      noticePage(
        root,
        status === 413 ? 'Too long' : 'Please try again',
        status === 413
          ? 'What you sent is too long for the inbox. Nothing was changed.'
          : status >= 500
            ? "The inbox could not do that just now (the state store may be unreachable); the error is in the gateway's log. Try again in a moment."
            : 'The request could not be read. Nothing was changed.',
      ),
    );
  };
  router.use(failed);
  return router;
}

/** /inbox without an admin token: off, as the admin API is (404, saying why). */
export function inboxDisabled(publicUrl: string | undefined): Router {
  const root = inboxRoot(publicUrl);
  const router = express.Router();
  router.use((_req, res) => {
    setPageHeaders(res);
    send(
      res,
      404,
      noticePage(
        root,
        'The inbox is off',
        'The operator inbox is disabled; set ADMIN_TOKEN (admin.token) to enable it.',
      ),
    );
  });
  return router;
}
