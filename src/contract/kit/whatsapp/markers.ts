/**
 * WhatsApp's markup, the same in WhatsApp Web and in the Cloud API's text messages: markers
 * next to words (`*bold*`, `_it_`, `~gone~`, `` `code` ``, ```` ```mono``` ````), "> " quotes
 * and "- " lists written out as text. WhatsApp has no escape character and no link syntax (the
 * layout writes links out as "text (url)"); it counts the text as sent. Both WhatsApp adapters
 * declare it, and an adapter imports no other, so it lives in the kit.
 */
import { serializeMarkers, type MarkupRenderer, type MarkupSyntax, type StyleMark } from '../../markup.js';

const MARKERS: Partial<Record<StyleMark['kind'], string>> = {
  bold: '*',
  italic: '_',
  strike: '~',
  code: '`',
  pre: '```',
};

const WHATSAPP: MarkupSyntax = {
  escape: (text) => text,
  open: (mark) => MARKERS[mark.kind] ?? '',
  close: (mark) => MARKERS[mark.kind] ?? '',
};

export const whatsappMarkup: MarkupRenderer = Object.freeze({
  name: 'whatsapp',
  layout: Object.freeze({ linkMarks: false, marksInLinks: 'all-but-code', quoteMark: false }),
  serialize: (runs) => serializeMarkers(runs, WHATSAPP),
  // UTF-16 units: never fewer than the characters WhatsApp counts, so a chunk within the limit by this count is within WhatsApp's.
  measure: (rendered) => rendered.length,
  countsVisibleText: false,
} satisfies MarkupRenderer);
