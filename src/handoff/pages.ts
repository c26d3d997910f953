/** The small HTML pages the hand-back link answers with. */
import { escapeHtml } from './mail.js';

export function page(title: string, message: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family:sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(message)}</p>`,
    '</body></html>',
  ].join('\n');
}

export const resumePages = {
  resumed: (conversation: string) =>
    page('The conversation is back with the bot', `The assistant answers ${conversation} again, and the user was told.`),
  alreadyBack: (conversation: string) =>
    page('The conversation is already back with the bot', `${conversation} is not waiting for a person (it was handed back already, or its pause ran out). Nothing was changed.`),
  missing: () => page('This link is incomplete', 'The link has no token. Open the whole link from the e-mail. Nothing was changed.'),
  invalid: () =>
    page('This link is not valid', 'The link was changed or cut off, or it was signed with another secret (HANDOFF_SECRET). Nothing was changed.'),
  failed: () => page('Please try again in a moment', 'The conversation could not be handed back just now (state unreachable). Nothing was changed.'),
  expired: () =>
    page('This link has expired', 'Hand-back links work for handoff.linkHours after the e-mail. Use `chatbridge handoff resume` or the admin API instead. Nothing was changed.'),
};
