/**
 * Where to cut the Markdown received so far for an intermediate render. Cutting
 * at a sentence end makes each update read as finished thoughts instead of a
 * word flickering in; the final render always uses the whole answer.
 */

/** After a sentence-ending mark followed by a space, or after a line break. */
const SENTENCE_END = /[.!?…:;](?=\s)|\n/g;

/**
 * The longest prefix ending at a sentence end that is at least `minLength` long;
 * the whole text when none is and the text has reached `giveUpLength`; otherwise
 * null (wait for more text).
 */
export function cutAtSentenceEnd(text: string, minLength: number, giveUpLength: number): string | null {
  if (text.length < minLength) return null;
  let cut = -1;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    if (end >= minLength) cut = end;
  }
  if (cut > 0) return text.slice(0, cut);
  return text.length >= giveUpLength ? text : null;
}

const FENCE_LINE = /^\s{0,3}(```|~~~)/;

/**
 * The text up to its last line break outside a code block. A native stream can
 * only append, so we append only text whose rendering will not change when more
 * arrives: whole lines, never an open code block.
 */
export function completeLinesPrefix(text: string): string {
  let insideFence = false;
  let lastSafeEnd = 0;
  let lineStart = 0;
  for (;;) {
    const newline = text.indexOf('\n', lineStart);
    if (newline < 0) break;
    if (FENCE_LINE.test(text.slice(lineStart, newline))) insideFence = !insideFence;
    if (!insideFence) lastSafeEnd = newline + 1;
    lineStart = newline + 1;
  }
  return text.slice(0, lastSafeEnd);
}
