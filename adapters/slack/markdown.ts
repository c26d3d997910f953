/**
 * Slack's markup: mrkdwn (a section's text). Markers next to words (`*bold*`, `_it_`,
 * `~gone~`, `` `code` ``, ```` ```block``` ````), links as `<url|text>`, and only & < >
 * escaped (escapeMrkdwn). Slack counts the text as sent.
 */
import { serializeMarkers, type MarkupRenderer, type MarkupSyntax, type StyleMark } from '../../src/contract.js';

const MARKERS: Partial<Record<StyleMark['kind'], string>> = {
  bold: '*',
  italic: '_',
  strike: '~',
  code: '`',
  pre: '```',
};

/**
 * Slack's own escaping: the three characters its API asks to have as entities (& < >), and no
 * others; the HTML escaper writes `&quot;` and `&#39;` too, which mrkdwn is not to be sent.
 */
function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** `|` and `>` would end Slack's <url|text> early, so they are percent-encoded. */
function escapeSlackUrl(url: string): string {
  return url.replace(/[&<>|]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '%3C' : c === '>' ? '%3E' : '%7C'));
}

const MRKDWN: MarkupSyntax = {
  escape: escapeMrkdwn,
  open: (mark) => (mark.kind === 'link' ? `<${escapeSlackUrl(mark.href)}|` : (MARKERS[mark.kind] ?? '')),
  close: (mark) => (mark.kind === 'link' ? '>' : (MARKERS[mark.kind] ?? '')),
};

export const slackMarkup: MarkupRenderer = Object.freeze({
  name: 'slack-mrkdwn',
  // Slack shows <url|text> with the text as is: markers inside it are not rendered. Quotes are "> " lines.
  layout: Object.freeze({ linkMarks: true, marksInLinks: 'none', quoteMark: false }),
  serialize: (runs) => serializeMarkers(runs, MRKDWN),
  measure: (rendered) => rendered.length,
  countsVisibleText: false,
} satisfies MarkupRenderer);
