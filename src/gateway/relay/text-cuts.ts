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
const SENTENCE_END_IN_LINE = /[.!?…](?=\s)/g;

/**
 * The longest prefix whose rendering will not change when more text arrives:
 * whole lines outside code blocks, plus the finished sentences of the line being
 * written. A native stream can only append, so it only ever gets such prefixes
 * (the caller still checks that the new rendering extends the old one).
 */
export function stableStreamPrefix(text: string): string {
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
  const openLine = text.slice(lineStart);
  if (insideFence || FENCE_LINE.test(openLine)) return text.slice(0, lastSafeEnd);
  let sentenceEnd = -1;
  for (const match of openLine.matchAll(SENTENCE_END_IN_LINE)) sentenceEnd = match.index + match[0].length;
  return text.slice(0, sentenceEnd > 0 ? lineStart + sentenceEnd : lastSafeEnd);
}

/**
 * Cuts Markdown into pieces of at most `maxChars` characters for a platform that
 * takes a limited amount per call (a native stream's append). The pieces are joined
 * again by the platform into one message, so a cut needs no Markdown footing: it
 * prefers a line break, then a space, and never splits a UTF-16 surrogate pair.
 */
export function piecesOf(markdown: string, maxChars: number): string[] {
  const limit = Math.max(2, Math.floor(maxChars));
  const pieces: string[] = [];
  let rest = markdown;
  while (rest.length > limit) {
    const window = rest.slice(0, limit);
    let cut = window.lastIndexOf('\n') + 1;
    if (cut <= 0) cut = window.lastIndexOf(' ') + 1;
    if (cut <= 0) cut = isHighSurrogate(rest.charCodeAt(limit - 1)) ? limit - 1 : limit;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
