/** The pages of a reader without a session: the sign-in form, the e-mail link's page, and plain notices. */
import type { InboxSession } from '../sessions.js';
import { alert, inboxPage } from './layout.js';
import { html } from '../../../format/index.js';

export interface SignInForm {
  error?: string;
  /** What the reader typed as their name, kept when the form comes back with an error. */
  name?: string;
  /** Where to go once signed in (an inbox path the reader asked for). */
  next?: string;
}

export function signInPage(root: string, form: SignInForm = {}): string {
  return inboxPage({
    root,
    title: 'Sign in',
    main: html`<h1>Sign in to the inbox</h1>
<p>Conversations handed from the chatbot to a person wait here for an answer.</p>
${alert(form.error)}
<form method="post" action="${root}/sign-in" class="stacked">
${form.next ? html`<input type="hidden" name="next" value="${form.next}">` : ''}
<label for="token">Admin token</label>
<input type="password" id="token" name="token" required autocomplete="current-password">
<label for="name">Your name</label>
<input type="text" id="name" name="name" required maxlength="60" autocomplete="name" value="${form.name ?? ''}">
<p class="hint" id="name-hint">The other operators see it with each message you send.</p>
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
  error?: string;
}

/**
 * What the e-mail's inbox link shows: the conversation it names and a button. Only the button's
 * POST signs in, so a mail scanner following the link changes nothing.
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
<label for="name">Your name</label>
<input type="text" id="name" name="name" required maxlength="60" autocomplete="name" value="${form.name ?? ''}">
<p class="hint">The other operators see it with each message you send. The link signs you in for this chatbot's conversations.</p>
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
