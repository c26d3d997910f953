/** The small HTML pages the hand-back link answers with, written with the `html` template (every value escaped). */
import { html, type Html } from '../../format/index.js';
import { userLabel } from '../mail/index.js';
import type { PauseRecord } from '../pause/index.js';

/** A page that says `message` under `title`, with `more` (a form) below. */
function handBackPage(title: string, message: string, more?: Html): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title></head>
<body style="font-family:sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">
<h1>${title}</h1>
<p>${message}</p>
${more}
</body></html>`.markup;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * What a GET of the link shows: who is waiting, and a button that POSTs the
 * token back. Only that POST hands the conversation back, so a mail scanner
 * (Outlook Safe Links, Gmail's preview) that follows the link changes nothing.
 */
export function confirmPage(conversation: string, record: PauseRecord, token: string): string {
  const facts: [string, string][] = [
    ['Conversation', conversation],
    ['User', userLabel(record.user)],
    ['Why', record.reason],
    ['With a person since', iso(record.since)],
    ['The bot stays silent until', iso(record.expiresAt)],
  ];
  // The form's action is relative: it resolves to this same path behind any reverse proxy prefix.
  const form = html`<table>
${facts.map(([label, value]) => html`<tr><th align="left">${label}</th><td>${value}</td></tr>`)}
</table>
<form method="post" action="resume">
<input type="hidden" name="token" value="${token}">
<p><button type="submit">Hand back to the bot</button></p>
</form>`;
  return handBackPage(
    'Hand this conversation back to the bot?',
    'The assistant will answer the user again, and the user will be told.',
    form,
  );
}

export const resumePages = {
  resumed: (conversation: string) =>
    handBackPage(
      'The conversation is back with the bot',
      `The assistant answers ${conversation} again, and the user was told.`,
    ),
  alreadyBack: (conversation: string) =>
    handBackPage(
      'The conversation is already back with the bot',
      `${conversation} is not waiting for a person (it was handed back already, or its pause ran out). Nothing was changed.`,
    ),
  missing: () =>
    handBackPage(
      'This link is incomplete',
      'The link has no token. Open the whole link from the e-mail. Nothing was changed.',
    ),
  invalid: () =>
    handBackPage(
      'This link is not valid',
      'The link was changed or cut off, or it was signed with another secret (HANDOFF_SECRET). Nothing was changed.',
    ),
  failed: () =>
    handBackPage(
      'Please try again in a moment',
      'The conversation could not be handed back just now (state unreachable). Nothing was changed.',
    ),
  expired: () =>
    handBackPage(
      'This link has expired',
      'Hand-back links work for handoff.linkHours after the e-mail. Use `chatbridge handoff resume` or the admin API instead. Nothing was changed.',
    ),
};
