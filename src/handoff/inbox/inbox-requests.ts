/**
 * What every inbox route asks of a request: its session (for a page, for a POST past the cross-site checks), the
 * conversation its path names when the session may see it, and how a session ends; with the small helpers the
 * routes share (an HTML answer, a form's fields, a safe way back after signing in, the inbox's path).
 */
import type { Request, Response } from 'express';
import type { ConversationRef, PlatformModule } from '../../contract.js';
import type { Logger } from '../../logger.js';
import { conversationIdProblem, parseConversationId } from '../conversation-id.js';
import { OperatorDesk, type InboxFeed } from '../pause/index.js';
import { sessionCookie } from './cookie.js';
import type { RequestGuard } from './guard.js';
import { endSessionStreams } from './live/index.js';
import { noticePage, signInPage, type SignInForm } from './pages/sign-in.js';
import type { AccountSessions } from './account-sessions.js';
import { sessionDigest, type InboxSession, type InboxSessions } from './sessions.js';

export interface InboxRequestsOptions {
  /** The inbox's path as a browser sees it (`inboxRoot`). */
  root: string;
  sessions: InboxSessions;
  feed: InboxFeed;
  guard: RequestGuard;
  /** Whose conversation-id shapes an id in a path is checked against. */
  platforms: readonly PlatformModule[];
  /** inbox.tokenSignIn: whether the sign-in form offers the admin token. */
  tokenSignIn: boolean;
  /** Where an account session's use is noted ("last seen"). */
  accountSessions: Pick<AccountSessions, 'seen'>;
  logger: Logger;
}

export class InboxRequests {
  readonly root: string;

  constructor(private readonly options: InboxRequestsOptions) {
    this.root = options.root;
  }

  async sessionOf(req: Request): Promise<InboxSession | null> {
    const id = sessionCookie(req);
    const session = id ? await this.options.sessions.read(id) : null;
    if (session?.account) await this.options.accountSessions.seen(session.account.id, sessionDigest(session.id));
    return session;
  }

  /** The sign-in page, with the admin token's form where inbox.tokenSignIn allows it. */
  signInForm(form: Omit<SignInForm, 'tokenSignIn'> = {}): string {
    return signInPage(this.root, { ...form, tokenSignIn: this.options.tokenSignIn });
  }

  /** Ends a session: gone from the store, and its open streams ended in every process. */
  async endSession(id: string): Promise<void> {
    await this.options.sessions.delete(id);
    await endSessionStreams(this.options.feed, sessionDigest(id));
  }

  /** The session of a page request, or null once the sign-in form was sent in its place. */
  async pageSession(req: Request, res: Response): Promise<InboxSession | null> {
    const session = await this.sessionOf(req);
    if (!session) send(res, 401, this.signInForm({ next: `${this.root}${req.url}` }));
    return session;
  }

  /** The session of a POST that passed the cross-site checks, or null once the refusal was sent. */
  async postSession(req: Request, res: Response): Promise<InboxSession | null> {
    const session = await this.sessionOf(req);
    if (!session) {
      send(
        res,
        401,
        noticePage(
          this.root,
          'Please sign in again',
          'Your inbox session has ended (signed out, or it expired). Nothing was changed.',
        ),
      );
      return null;
    }
    const problem = this.options.guard.csrfProblem(req, session);
    if (problem) {
      this.options.logger.warn({ problem, path: req.path }, 'refused an inbox request that looked cross-site');
      send(
        res,
        403,
        noticePage(
          this.root,
          'Request refused',
          `Nothing was changed: ${problem}. Open the inbox and try again from its page.`,
          session,
        ),
      );
      return null;
    }
    return session;
  }
  /**
   * The conversation of the path when the session may see it, or null once a 400/404 page was sent: 400 for an address
   * that is not <bot>:<platform>:<id>, 404 for an id its platform cannot have (too long, not its shape).
   */
  conversationOf(req: Request, res: Response, session: InboxSession): ConversationRef | null {
    const raw = req.params.id;
    const conversation = typeof raw === 'string' ? parseConversationId(raw) : null;
    const problem = conversation
      ? conversationIdProblem(conversation, this.options.platforms)
      : 'it is not <bot>:<platform>:<conversation id>';
    if (!conversation || problem) {
      send(
        res,
        conversation ? 404 : 400,
        noticePage(this.root, 'No such conversation', `This address names no conversation: ${problem}.`, session),
      );
      return null;
    }
    if (!OperatorDesk.sees(session.viewer, conversation.bot)) {
      send(
        res,
        404,
        noticePage(
          this.root,
          'Not in your inbox',
          "This conversation is another chatbot's, which your sign-in does not include. An admin can add it to your operator account.",
          session,
        ),
      );
      return null;
    }
    return conversation;
  }
}

export function send(res: Response, status: number, body: string): void {
  res.status(status).type('html').send(body);
}

export function formOf(req: Request): Record<string, string | undefined> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key, typeof value === 'string' ? value : undefined]),
  );
}

/** A path inside the inbox (under `root`) to go back to after signing in; anything else (another site, `//evil`) is dropped. */
export function safeNext(root: string, next: string | undefined): string | undefined {
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
