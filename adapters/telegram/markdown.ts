/**
 * Telegram's markup: the Bot API's "HTML style" (the outbound sends `parse_mode: HTML`).
 * Only the tags Telegram accepts, properly nested; text and attributes escaped by the
 * project's one HTML escaper, whose entities Telegram decodes. Telegram limits a message's
 * text after entity parsing, so tags cost nothing and an entity counts as one character.
 */
import {
  escapeHtml,
  htmlVisibleText,
  serializeNested,
  type MarkupRenderer,
  type MarkupSyntax,
  type StyleMark,
} from '../../src/contract.js';

function openTag(mark: StyleMark): string {
  switch (mark.kind) {
    case 'bold':
      return '<b>';
    case 'italic':
      return '<i>';
    case 'strike':
      return '<s>';
    case 'code':
      return '<code>';
    case 'pre':
      return mark.lang ? `<pre><code class="language-${escapeHtml(mark.lang)}">` : '<pre>';
    case 'link':
      return `<a href="${escapeHtml(mark.href)}">`;
    case 'quote':
      return '<blockquote>';
  }
}

function closeTag(mark: StyleMark): string {
  switch (mark.kind) {
    case 'bold':
      return '</b>';
    case 'italic':
      return '</i>';
    case 'strike':
      return '</s>';
    case 'code':
      return '</code>';
    case 'pre':
      return mark.lang ? '</code></pre>' : '</pre>';
    case 'link':
      return '</a>';
    case 'quote':
      return '</blockquote>';
  }
}

const TELEGRAM_HTML: MarkupSyntax = { escape: escapeHtml, open: openTag, close: closeTag };

export const telegramMarkup: MarkupRenderer = Object.freeze({
  name: 'telegram-html',
  // "All other entities can't contain each other": code cannot sit in a link. Quotes are entities too.
  layout: Object.freeze({ linkMarks: true, marksInLinks: 'all-but-code', quoteMark: true }),
  serialize: (runs) => serializeNested(runs, TELEGRAM_HTML),
  measure: (rendered) => htmlVisibleText(rendered).length,
  countsVisibleText: true,
} satisfies MarkupRenderer);
