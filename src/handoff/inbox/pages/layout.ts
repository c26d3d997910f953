/**
 * The frame of every inbox page: the stylesheet and script of the inbox's own (no inline code:
 * the CSP forbids it), the live-update stream the page listens to, the navigation and sign-out.
 */
import type { InboxSession } from '../sessions.js';
import { html, type Html } from '../../../format/index.js';

export interface PageFrame {
  /** The inbox's path as the browser sees it (`/inbox`, or under PUBLIC_URL's path): every URL of the page starts with it. */
  root: string;
  title: string;
  main: Html;
  /** Signed in: the navigation, who, and sign-out. */
  session?: InboxSession;
  /** The SSE stream of the page (`/inbox/events…`); none on pages without live parts. */
  events?: string;
  /** Which navigation link is this page. */
  current?: 'waiting' | 'history' | 'leads' | 'operators';
}

export function inboxPage(frame: PageFrame): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · chatbridge inbox</title>
<link rel="stylesheet" href="${frame.root}/assets/inbox.css">
<script src="${frame.root}/assets/inbox.js" defer></script>
</head>
<body${frame.events ? html` data-events="${frame.events}"` : ''}>
${frame.session ? header(frame.root, frame.session, frame.current) : ''}
<main>
${frame.main}
</main>
</body>
</html>
`.markup;
}

function header(root: string, session: InboxSession, current: PageFrame['current']): Html {
  const link = (href: string, label: string, which: PageFrame['current']) =>
    html`<a href="${href}"${current === which ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<header class="top">
<nav aria-label="Inbox">${link(root, 'Waiting', 'waiting')} ${link(`${root}/history`, 'History', 'history')} ${link(`${root}/leads`, 'Leads', 'leads')}${
    session.role === 'admin' ? html` ${link(`${root}/operators`, 'Operators', 'operators')}` : ''
  }</nav>
<p class="who">Signed in as <strong>${session.operator}</strong>${session.viewer.bots === 'all' ? '' : html` (chatbot ${session.viewer.bots.join(', ')})`}</p>
<form method="post" action="${root}/sign-out" class="sign-out">${csrfField(session)}<button type="submit">Sign out</button></form>
</header>`;
}

/** The hidden field every state-changing form carries. */
export function csrfField(session: InboxSession): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrf}">`;
}

/** An error the page reports: announced by screen readers as it appears. */
export function alert(message: string | undefined): Html | '' {
  return message ? html`<p class="alert" role="alert">${message}</p>` : '';
}
