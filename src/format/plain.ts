/**
 * Plain text: no markup at all (a terminal, the in-memory platform), and what the core
 * falls back to when a platform refuses an answer's formatting. Links are written out as
 * "text (url)" and quotes as "> " lines, since nothing would show them otherwise.
 */
import type { MarkupRenderer } from './markup.js';
import { visibleText } from './styled.js';

export const plainMarkup: MarkupRenderer = Object.freeze({
  name: 'plain',
  layout: Object.freeze({ linkMarks: false, marksInLinks: 'all-but-code', quoteMark: false }),
  // Nothing to escape or open: the message is the runs' text (no marker moves a space).
  serialize: visibleText,
  measure: (rendered: string) => rendered.length,
  countsVisibleText: true,
});
