/**
 * WhatsApp's markup: markers next to words (`*bold*`, `_it_`, `~gone~`, `` `code` ``,
 * ```` ```mono``` ````). WhatsApp has no escape character and no link syntax (the layout
 * writes links out as "text (url)"); it counts the text as sent.
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

export const whatsappMarkup: MarkupRenderer = Object.freeze({
  name: 'whatsapp',
  layout: Object.freeze({ linkMarks: false, marksInLinks: 'all-but-code', quoteMark: false }),
  serialize: (runs) => serializeMarkers(runs, WHATSAPP),
  measure: (rendered) => rendered.length,
  countsVisibleText: false,
} satisfies MarkupRenderer);
