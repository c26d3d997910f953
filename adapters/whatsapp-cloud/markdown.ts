/**
 * WhatsApp's markup, as the Cloud API's text messages show it (the same as WhatsApp Web's):
 * markers next to words (`*bold*`, `_it_`, `~gone~`, `` `code` ``, ```` ```mono``` ````),
 * "> " quotes and "- " lists written out as text. WhatsApp has no escape character and no
 * link syntax (the layout writes links as "text (url)"); Meta counts the text as sent.
 */
import { serializeMarkers, type MarkupRenderer, type MarkupSyntax, type StyleMark } from '../../src/contract.js';

const MARKERS: Partial<Record<StyleMark['kind'], string>> = {
  bold: '*', italic: '_', strike: '~', code: '`', pre: '```',
};

const WHATSAPP: MarkupSyntax = {
  escape: (text) => text,
  open: (mark) => MARKERS[mark.kind] ?? '',
  close: (mark) => MARKERS[mark.kind] ?? '',
};

export const cloudMarkup: MarkupRenderer = Object.freeze({
  name: 'whatsapp',
  layout: Object.freeze({ linkMarks: false, marksInLinks: 'all-but-code', quoteMark: false }),
  serialize: (runs) => serializeMarkers(runs, WHATSAPP),
  // UTF-16 units: never fewer than the characters Meta counts, so a chunk within 4,096 by this count is within Meta's.
  measure: (rendered) => rendered.length,
  countsVisibleText: false,
} satisfies MarkupRenderer);
