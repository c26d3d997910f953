/** The small HTML pages the hand-back link answers with; every value in them is escaped. */
import { escapeHtml, userLabel } from './mail.js';
import type { PauseRecord } from './pause.js';

/** `html` is markup already escaped by the caller; title and message are plain text. */
export function page(title: string, message: string, html = ''): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family:sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(message)}</p>`,
    html,
    '</body></html>',
  ].join('\n');
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
  const form = [
    '<table>',
    ...facts.map(
      ([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    // Relative action: resolves to this same path behind any reverse proxy prefix.
    '<form method="post" action="resume">',
    `<input type="hidden" name="token" value="${escapeHtml(token)}">`,
    '<p><button type="submit">Hand back to the bot</button></p>',
    '</form>',
  ].join('\n');
  return page(
    'Hand this conversation back to the bot?',
    'The assistant will answer the user again, and the user will be told.',
    form,
  );
}

export const resumePages = {
  resumed: (conversation: string) =>
    page(
      'The conversation is back with the bot',
      `The assistant answers ${conversation} again, and the user was told.`,
    ),
  alreadyBack: (conversation: string) =>
    page(
      'The conversation is already back with the bot',
      `${conversation} is not waiting for a person (it was handed back already, or its pause ran out). Nothing was changed.`,
    ),
  missing: () =>
    page('This link is incomplete', 'The link has no token. Open the whole link from the e-mail. Nothing was changed.'),
  invalid: () =>
    page(
      'This link is not valid',
      'The link was changed or cut off, or it was signed with another secret (HANDOFF_SECRET). Nothing was changed.',
    ),
  failed: () =>
    page(
      'Please try again in a moment',
      'The conversation could not be handed back just now (state unreachable). Nothing was changed.',
    ),
  expired: () =>
    page(
      'This link has expired',
      'Hand-back links work for handoff.linkHours after the e-mail. Use `chatbridge handoff resume` or the admin API instead. Nothing was changed.',
    ),
};
