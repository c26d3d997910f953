/**
 * The platforms' pages for operators (an adapter route declared `access: 'admin'`, such as the WhatsApp link page),
 * served under the inbox to a session signed in with the admin token: the session cookie opens them, never a token
 * in a URL, which would end up in proxy logs and browser history.
 */
import type { RequestHandler, Router } from 'express';
import { send, type InboxRequests } from './inbox-requests.js';
import type { PlatformPageLink } from './pages/waiting.js';
import { noticePage } from './pages/sign-in.js';
import type { InboxSession } from './sessions.js';

/** A platform's page for operators, served at `/inbox<path>`. */
export interface OperatorPage {
  path: string;
  bot: string;
  /** "WhatsApp link": the waiting list's link to it. */
  title: string;
  handler: RequestHandler;
}

/** An operator page is the platform's own markup (inline style, an SVG): no script, no form, no frame. */
const OPERATOR_PAGE_CSP =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'none'; " +
  "frame-ancestors 'none'; base-uri 'none'";

/**
 * Whether a session opens the platforms' pages. Such a page can link a number to the bot (whoever scans its QR
 * becomes the bot): only an admin's session opens one (an admin account's, or the admin token's), never an operator's
 * nor one an e-mail's link signed in for a conversation.
 */
function opensOperatorPages(session: InboxSession): boolean {
  return session.role === 'admin';
}

/** Each page at its path under the inbox, on `router`. */
export function mountOperatorPages(router: Router, requests: InboxRequests, pages: readonly OperatorPage[]): void {
  const { root } = requests;
  for (const operatorPage of pages) {
    router.use(operatorPage.path, async (req, res, next) => {
      const session = await requests.sessionOf(req);
      if (!session) return void send(res, 401, requests.signInForm({ next: `${root}${operatorPage.path}` }));
      if (!opensOperatorPages(session)) {
        return void send(
          res,
          404,
          noticePage(
            root,
            'Not in your inbox',
            `Only an admin opens ${operatorPage.title} of bot ${operatorPage.bot}: whoever links a number there becomes the bot.`,
            session,
          ),
        );
      }
      res.set('Content-Security-Policy', OPERATOR_PAGE_CSP);
      operatorPage.handler(req, res, next);
    });
  }
}

/** The waiting list's links to the pages the session opens. */
export function operatorPageLinks(
  root: string,
  session: InboxSession,
  pages: readonly OperatorPage[],
): PlatformPageLink[] {
  if (!opensOperatorPages(session)) return [];
  return pages.map((page) => ({ href: `${root}${page.path}`, title: `${page.title} (bot ${page.bot})` }));
}
