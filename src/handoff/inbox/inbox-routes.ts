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
 *   GET  /events[?conversation=…]           live changes (Server-Sent Events, live/)
 *   GET  /assets/inbox.js, /assets/inbox.css
 *   GET  /<a platform's admin page>         e.g. /whatsapp/<bot>/qr, for an operator who may see the bot
 * Every operator action goes through the OperatorDesk, as the admin API's do.
 */
import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import type { ConversationRef, PlatformModule } from '../../contract.js';
import type { Logger } from '../../logger.js';
import { sameSecret } from '../../http/admin-auth.js';
import { conversationIdProblem, formatConversationId, parseConversationId } from '../conversation-id.js';
import { OperatorDesk, operatorName, type InboxFeed, type InboxViewer, type ReplyOutcome } from '../pause/index.js';
import type { Gateway } from '../../gateway/index.js';
import { inboxStylesheet } from './assets.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from './cookie.js';
import { sendFile, userFile } from './files.js';
import { RequestGuard, setPageHeaders } from './guard.js';
import type { InboxLinks } from './sign-in-link.js';
import { inboxScript, serveInboxEvents } from './live/index.js';
import { conversationPage, type ConversationView } from './pages/conversation.js';
import { conversationPath, conversationTitle } from './pages/format.js';
import { historyPage } from './pages/history.js';
import { linkPage, noticePage, signInPage } from './pages/sign-in.js';
import { waitingPage } from './pages/waiting.js';
import type { InboxSession, InboxSessions } from './sessions.js';
import type { SignInLimit } from './sign-in-limit.js';

/** Conversations read in full on the waiting list; the rest are counted. */
export const WAITING_PAGE_SIZE = 100;
export const HISTORY_PAGE_SIZE = 100;
/** A reply is at most 20,000 characters: URL-encoded UTF-8 stays well inside this. */
const FORM_LIMIT = '256kb';

export interface InboxRouterOptions {
  adminToken: string;
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
  logger: Logger;
}

/**
 * A platform's page for operators (an adapter route declared `access: 'admin'`, such as the WhatsApp link page),
 * served at `/inbox<path>` to a signed-in operator who may see `bot`: the session cookie, never a token in a URL.
 */
export interface OperatorPage {
  path: string;
  bot: string;
  /** "WhatsApp link": the waiting list's link to it. */
  title: string;
  handler: RequestHandler;
}

/** An operator page is the platform's own markup (inline style, an SVG): no script, no form, no frame. */
const OPERATOR_PAGE_CSP =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

export function inboxRouter(options: InboxRouterOptions): Router {
  const { desk, sessions, logger } = options;
  const guard = new RequestGuard(options.publicUrl);
  const root = inboxRoot(options.publicUrl);
  const router = express.Router();
  router.get('/assets/inbox.css', inboxStylesheet());
  router.get('/assets/inbox.js', inboxScript());
  router.use((_req, res, next) => {
    setPageHeaders(res);
    next();
  });
  router.use(express.urlencoded({ extended: false, limit: FORM_LIMIT }));

  const sessionOf = async (req: Request): Promise<InboxSession | null> => {
    const id = sessionCookie(req);
    return id ? sessions.read(id) : null;
  };
  /** The session of a page request, or null once the sign-in form was sent in its place. */
  const pageSession = async (req: Request, res: Response): Promise<InboxSession | null> => {
    const session = await sessionOf(req);
    if (!session) send(res, 401, signInPage(root, { next: `${root}${req.url}` }));
    return session;
  };
  /** The session of a POST that passed the cross-site checks, or null once the refusal was sent. */
  const postSession = async (req: Request, res: Response): Promise<InboxSession | null> => {
    const session = await sessionOf(req);
    if (!session) {
      send(
        res,
        401,
        noticePage(
          root,
          'Please sign in again',
          'Your inbox session has ended (signed out, or it expired). Nothing was changed.',
        ),
      );
      return null;
    }
    const problem = guard.csrfProblem(req, session);
    if (problem) {
      logger.warn({ problem, path: req.path }, 'refused an inbox request that looked cross-site');
      send(
        res,
        403,
        noticePage(
          root,
          'Request refused',
          `Nothing was changed: ${problem}. Open the inbox and try again from its page.`,
          session,
        ),
      );
      return null;
    }
    return session;
  };
  /** The conversation of the path when the session may see it, or null once a 400/404 page was sent. */
  const conversationOf = (req: Request, res: Response, session: InboxSession): ConversationRef | null => {
    const raw = req.params.id;
    const conversation = typeof raw === 'string' ? parseConversationId(raw) : null;
    const problem = conversation
      ? conversationIdProblem(conversation, options.platforms)
      : 'it is not <bot>:<platform>:<conversation id>';
    if (!conversation || problem) {
      send(
        res,
        400,
        noticePage(root, 'No such conversation', `This address names no conversation: ${problem}.`, session),
      );
      return null;
    }
    if (!OperatorDesk.sees(session.viewer, conversation.bot)) {
      send(
        res,
        404,
        noticePage(
          root,
          'Not in your inbox',
          "Your sign-in (an e-mail link) is for another chatbot's conversations. Sign in with the admin token to see every chatbot.",
          session,
        ),
      );
      return null;
    }
    return conversation;
  };
  const showConversation = async (
    res: Response,
    session: InboxSession,
    conversation: ConversationRef,
    status = 200,
    view: ConversationView = {},
  ) => {
    send(res, status, conversationPage(root, session, await desk.open(conversation), Date.now(), view));
  };

  const operatorPages = options.operatorPages ?? [];
  for (const operatorPage of operatorPages) {
    router.use(operatorPage.path, async (req, res, next) => {
      const session = await sessionOf(req);
      if (!session) return void send(res, 401, signInPage(root, { next: `${root}${operatorPage.path}` }));
      // A platform's admin page can link a number to the bot (whoever scans its QR becomes the bot): only a session
      // signed in with the admin token opens it, never one an e-mail's link signed in for a conversation.
      if (session.viewer.bots !== 'all') {
        return void send(
          res,
          404,
          noticePage(
            root,
            'Not in your inbox',
            `Your sign-in (an e-mail link) opens its conversations only. Sign in with the admin token to open ` +
              `${operatorPage.title} of bot ${operatorPage.bot}.`,
            session,
          ),
        );
      }
      res.set('Content-Security-Policy', OPERATOR_PAGE_CSP);
      operatorPage.handler(req, res, next);
    });
  }

  router.get('/', async (req, res) => {
    const session = await sessionOf(req);
    if (!session) return void send(res, 200, signInPage(root));
    const pages = operatorPages
      .filter(() => session.viewer.bots === 'all')
      .map((operatorPage) => ({
        href: `${root}${operatorPage.path}`,
        title: `${operatorPage.title} (bot ${operatorPage.bot})`,
      }));
    send(
      res,
      200,
      waitingPage(root, session, await desk.waiting(session.viewer, WAITING_PAGE_SIZE), Date.now(), pages),
    );
  });

  router.post('/sign-in', async (req, res) => {
    const crossSite = guard.crossSiteProblem(req);
    if (crossSite)
      return void send(res, 403, noticePage(root, 'Request refused', `Nobody was signed in: ${crossSite}.`));
    const body = formOf(req);
    const next = safeNext(root, body.next);
    const address = req.ip ?? 'unknown';
    const attempt = await options.signIns.attempt(address);
    if (!attempt.allowed) {
      logger.warn({ address }, 'inbox sign-in attempts over the limit');
      res.set('Retry-After', String(attempt.retryAfterSeconds));
      return void send(
        res,
        429,
        noticePage(
          root,
          'Too many attempts',
          `Too many sign-in attempts from your address. Try again in ${Math.ceil(attempt.retryAfterSeconds / 60)} minutes.`,
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
    if (previous) await sessions.delete(previous);
    const session = await sessions.create({ bots: 'all' }, name.name);
    setSessionCookie(req, res, root, session.id, sessions.lifetimeMs);
    logger.info({ operator: session.operator }, 'an operator signed in to the inbox');
    res.redirect(303, next ?? root);
  });

  router.post('/sign-out', async (req, res) => {
    const session = await sessionOf(req);
    if (session) {
      const problem = guard.csrfProblem(req, session);
      if (problem)
        return void send(
          res,
          403,
          noticePage(root, 'Request refused', `You are still signed in: ${problem}.`, session),
        );
      await sessions.delete(session.id);
    }
    clearSessionCookie(req, res, root);
    res.redirect(303, root);
  });

  router.get('/link', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const claim = verifiedLink(root, res, options.links, token);
    if (!claim) return;
    const session = await sessionOf(req);
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
    const current = await sessionOf(req);
    if (!current || !OperatorDesk.sees(current.viewer, bot) || current.operator !== name.name) {
      // A reader already signed in for other chatbots keeps them, and gains this one.
      const bots: InboxViewer['bots'] =
        current?.viewer.bots === 'all' ? 'all' : [...new Set([...(current?.viewer.bots ?? []), bot])];
      if (current) await sessions.delete(current.id);
      const session = await sessions.create({ bots }, name.name);
      setSessionCookie(req, res, root, session.id, sessions.lifetimeMs);
      logger.info({ operator: session.operator, bot }, 'an operator signed in to the inbox with an e-mail link');
    }
    res.redirect(303, conversationPath(root, formatConversationId(claim.conversation)));
  });

  router.get('/events', async (req, res) => {
    const session = await sessionOf(req);
    if (!session) return void res.status(401).type('text').send('Sign in to the inbox first.');
    serveInboxEvents(options.feed, req, res, session.viewer);
  });

  router.get('/history', async (req, res) => {
    const session = await pageSession(req, res);
    if (!session) return;
    const entries = await desk.history(session.viewer, HISTORY_PAGE_SIZE);
    const names = await desk.chatbotNames(new Set(entries.map((entry) => entry.conversation.bot)));
    send(res, 200, historyPage(root, session, entries, names));
  });

  router.get('/conversations/:id', async (req, res) => {
    const session = await pageSession(req, res);
    const conversation = session && conversationOf(req, res, session);
    if (!session || !conversation) return;
    await showConversation(res, session, conversation);
  });

  router.post('/conversations/:id/messages', async (req, res) => {
    const session = await postSession(req, res);
    const conversation = session && conversationOf(req, res, session);
    if (!session || !conversation) return;
    const text = formOf(req).text ?? '';
    if (!(await desk.open(conversation)).pause) {
      return showConversation(res, session, conversation, 409, {
        error: 'This conversation was handed back to the assistant: your reply was not sent.',
        draft: text,
      });
    }
    const outcome = await desk.reply(conversation, text, session.operator);
    if (outcome.sent) return void res.redirect(303, conversationPath(root, formatConversationId(conversation)));
    await showConversation(res, session, conversation, replyStatus(outcome), {
      error: replyError(outcome),
      draft: text,
    });
  });

  router.post('/conversations/:id/claim', async (req, res) => {
    const session = await postSession(req, res);
    const conversation = session && conversationOf(req, res, session);
    if (!session || !conversation) return;
    const claim = await desk.claim(conversation, session.operator);
    if (claim.outcome === 'not-paused') {
      return showConversation(res, session, conversation, 409, {
        error: 'This conversation is not waiting for a person any more: there is nothing to claim.',
      });
    }
    res.redirect(303, conversationPath(root, formatConversationId(conversation)));
  });

  router.post('/conversations/:id/hand-back', async (req, res) => {
    const session = await postSession(req, res);
    const conversation = session && conversationOf(req, res, session);
    if (!session || !conversation) return;
    const outcome = await desk.handBack(conversation, { operator: session.operator });
    if (outcome === 'not-paused') {
      return showConversation(res, session, conversation, 409, {
        error: 'This conversation was already back with the assistant. Nothing was changed.',
      });
    }
    res.redirect(303, conversationPath(root, formatConversationId(conversation)));
  });

  router.get('/conversations/:id/files/:entry/:n', async (req, res) => {
    const session = await pageSession(req, res);
    const conversation = session && conversationOf(req, res, session);
    if (!session || !conversation) return;
    const at = Number(req.params.entry);
    const n = Number(req.params.n);
    if (!Number.isSafeInteger(at) || !Number.isSafeInteger(n) || n < 0) {
      return void send(
        res,
        404,
        noticePage(root, 'No such file', 'This address names no file of the conversation.', session),
      );
    }
    const file = await userFile(options.gateway, (await desk.open(conversation)).transcript, conversation, at, n);
    if (!file.ok)
      return void send(res, file.status, noticePage(root, 'The file cannot be shown', file.message, session));
    sendFile(res, file);
  });

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

function send(res: Response, status: number, body: string): void {
  res.status(status).type('html').send(body);
}

function formOf(req: Request): Record<string, string | undefined> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key, typeof value === 'string' ? value : undefined]),
  );
}

/** A path inside the inbox (under `root`) to go back to after signing in; anything else (another site, `//evil`) is dropped. */
function safeNext(root: string, next: string | undefined): string | undefined {
  if (!next?.startsWith(root) || next.includes('\\')) return undefined;
  return /^(\/[^/]|\?|$)/.test(next.slice(root.length)) ? next : undefined;
}

/**
 * The inbox's path as a browser sees it: /inbox, under PUBLIC_URL's path when it has one (a reverse proxy that
 * mounts the gateway at https://example.com/support/ and strips the prefix: the gateway still serves /inbox).
 */
export function inboxRoot(publicUrl: string | undefined): string {
  const prefix = publicUrl ? new URL(publicUrl).pathname.replace(/\/+$/, '') : '';
  return `${prefix}/inbox`;
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

function replyStatus(outcome: Exclude<ReplyOutcome, { sent: true }>): number {
  if (outcome.problem === 'invalid') return 400;
  if (outcome.problem === 'not-served') return 404;
  // What a later try may get through (the platform busy, unreachable, or refusing the bot's token until it is fixed).
  return outcome.kind === 'rate-limited' || outcome.kind === 'unreachable' || outcome.kind === 'unauthorized'
    ? 503
    : 422;
}

function replyError(outcome: Exclude<ReplyOutcome, { sent: true }>): string {
  if (outcome.problem !== 'platform') return `Your reply was not sent: ${outcome.message}`;
  return `Your reply was not sent: the platform said "${outcome.message}".`;
}
