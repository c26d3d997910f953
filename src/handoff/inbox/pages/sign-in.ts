/** The pages of a reader without a session: the sign-in forms, the e-mailed links' pages, and plain notices. */
import type { InboxSession } from '../sessions.js';
import { alert, inboxPage } from './layout.js';
import { html } from '../../../format/index.js';

export interface SignInForm {
  error?: string;
  /** What the reader typed as their name, kept when the form comes back with an error. */
  name?: string;
  /** What the reader typed as their address. */
  email?: string;
  /** Where to go once signed in (an inbox path the reader asked for). */
  next?: string;
  /** Whether the admin token's form is shown (inbox.tokenSignIn). */
  tokenSignIn?: boolean;
}

export function signInPage(root: string, form: SignInForm = {}): string {
  const next = form.next ? html`<input type="hidden" name="next" value="${form.next}">` : '';
  return inboxPage({
    root,
    title: 'Sign in',
    main: html`<h1>Sign in to the inbox</h1>
<p>Conversations handed from the chatbot to a person wait here for an answer.</p>
${alert(form.error)}
<form method="post" action="${root}/sign-in/email" class="stacked">
${next}
<label for="email">Your e-mail address</label>
<input type="email" id="email" name="email" required maxlength="254" autocomplete="email" value="${form.email ?? ''}">
<p class="hint">An operator's address receives a sign-in link, which works once, in this browser.</p>
<button type="submit">E-mail me a sign-in link</button>
</form>
${
  form.tokenSignIn === false
    ? ''
    : html`<h2>Or with the admin token</h2>
<form method="post" action="${root}/sign-in" class="stacked">
${next}
<label for="token">Admin token</label>
<input type="password" id="token" name="token" required autocomplete="current-password">
<label for="name">Your name</label>
<input type="text" id="name" name="name" required maxlength="60" autocomplete="name" value="${form.name ?? ''}">
<p class="hint" id="name-hint">The other operators see it with each message you send.</p>
<button type="submit">Sign in</button>
</form>`
}`,
  });
}

/** What every address asking for a link is told, an operator's or not. */
export function linkSentPage(root: string, minutes: number): string {
  return inboxPage({
    root,
    title: 'Check your e-mail',
    main: html`<h1>Check your e-mail</h1>
<p role="status">If that address belongs to an operator, a sign-in link is on its way to it. It works once, for ${minutes} minutes, in this browser.</p>
<p><a href="${root}">Back to the sign-in</a></p>`,
  });
}

/** What an e-mailed sign-in link shows: a button. Only the button's POST spends the link. */
export function signInLinkPage(root: string, token: string): string {
  return inboxPage({
    root,
    title: 'Sign in',
    main: html`<h1>Sign in to the inbox</h1>
<p>Press the button to finish signing in.</p>
<form method="post" action="${root}/sign-in/link" class="stacked">
<input type="hidden" name="token" value="${token}">
<button type="submit">Sign in</button>
</form>`,
  });
}

export interface LinkForm {
  token: string;
  /** "Ana Lima on Telegram". */
  conversation: string;
  chatbot: string;
  name?: string;
  /** The operator account the link was sent to: no name is asked. */
  account?: string;
  error?: string;
}

/**
 * What the handoff e-mail's inbox link shows: the conversation it names and a button. Only the button's POST signs
 * in, so a mail scanner following the link changes nothing.
 */
export function linkPage(root: string, form: LinkForm): string {
  return inboxPage({
    root,
    title: 'Open the conversation',
    main: html`<h1>Open this conversation in the inbox</h1>
<p>${form.conversation}, with the chatbot ${form.chatbot}, asked for a person.</p>
${alert(form.error)}
<form method="post" action="${root}/link" class="stacked">
<input type="hidden" name="token" value="${form.token}">
${
  form.account
    ? html`<p class="hint">You sign in as ${form.account}, for this chatbot's conversations.</p>`
    : html`<label for="name">Your name</label>
<input type="text" id="name" name="name" required maxlength="60" autocomplete="name" value="${form.name ?? ''}">
<p class="hint">The other operators see it with each message you send. The link signs you in for this chatbot's conversations.</p>`
}
<button type="submit">Open conversation</button>
</form>`,
  });
}

/** A page that only says something (a refusal, a link gone stale), with the way on. */
export function noticePage(root: string, title: string, message: string, session?: InboxSession): string {
  return inboxPage({
    root,
    title,
    ...(session ? { session } : {}),
    main: html`<h1>${title}</h1>
<p role="alert">${message}</p>
<p><a href="${root}">Go to the inbox</a></p>`,
  });
}
