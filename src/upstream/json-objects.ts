import { BACKSLASH, CLOSE_BRACE, OPEN_BRACE, QUOTE, isBlank, plainFragmentEnd } from './json-text.js';

/** A whole record is text[start, end); `plain`: it is known to be `{"content":"…"}` (see plainFragmentEnd). */
export type OnRecord = (text: string, start: number, end: number, plain: boolean) => void;

/**
 * Cuts JSON objects sent back to back (`{…}{…}`, or one per line) out of text
 * that arrives in pieces. Only braces outside strings count, so a `}` or `"` in
 * an answer never ends a record early. An unfinished record is carried as its
 * pieces and joined once, when it ends: a long final cut into many chunks is not
 * copied again with each one.
 */
export class JsonObjectSplitter {
  private parts: string[] = [];
  private carried = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** `maxChars`: the most an unfinished record may hold, in UTF-16 units. */
  constructor(private readonly maxChars: number) {}

  get hasUnfinished(): boolean {
    return this.depth > 0;
  }

  /**
   * Hands each whole object in text[from…] to `onRecord` (until `stopped()` says so) and
   * carries an unfinished one. Returns -1 when it took all of the text, the index of the
   * first significant character that starts no object (another framing follows), or
   * 'too-large' when the unfinished record outgrew `maxChars`.
   */
  split(text: string, from: number, onRecord: OnRecord, stopped: () => boolean): number | 'too-large' {
    const n = text.length;
    let { depth, inString, escaped } = this;
    let start = from;
    let i = from;
    while (i < n) {
      if (depth === 0) {
        while (i < n && isBlank(text.charCodeAt(i))) i++;
        if (i === n) break;
        if (text.charCodeAt(i) !== OPEN_BRACE) {
          this.depth = 0;
          return i;
        }
        start = i;
        // Most records are `{"content":"…"}` whole in this text: found with one scan, not two.
        const end = plainFragmentEnd(text, i);
        if (end !== -1) {
          onRecord(text, i, end, true);
          if (stopped()) return -1;
          i = end;
          continue;
        }
      }
      if (inString) {
        // From quote to quote: a final repeats the whole answer in one string.
        const close = closingQuote(text, i, escaped);
        if (close === -1) {
          escaped = backslashesBefore(text, n, i, escaped) % 2 === 1;
          i = n;
        } else {
          [inString, escaped, i] = [false, false, close + 1];
        }
        continue;
      }
      const c = text.charCodeAt(i++);
      if (c === QUOTE) {
        inString = true;
      } else if (c === OPEN_BRACE) {
        depth++;
      } else if (c === CLOSE_BRACE && --depth === 0) {
        if (this.parts.length === 0) {
          onRecord(text, start, i, false);
        } else {
          const record = this.parts.join('') + text.slice(start, i);
          this.parts = [];
          this.carried = 0;
          onRecord(record, 0, record.length, false);
        }
        if (stopped()) return -1;
      }
    }
    [this.depth, this.inString, this.escaped] = [depth, inString, escaped];
    if (depth === 0) return -1;
    const rest = text.slice(start);
    this.parts.push(rest);
    this.carried += rest.length;
    return this.carried > this.maxChars ? 'too-large' : -1;
  }
}

/**
 * How many backslashes run right before `at`, back to `floor`; when they reach it,
 * one more if the text before `floor` ended in an escaping backslash (`escapedAtFloor`).
 */
function backslashesBefore(text: string, at: number, floor: number, escapedAtFloor: boolean): number {
  let k = at;
  while (k > floor && text.charCodeAt(k - 1) === BACKSLASH) k--;
  return at - k + (k === floor && escapedAtFloor ? 1 : 0);
}

/** The quote at or after `from` that ends the string being read, or -1 when the text ends first. */
function closingQuote(text: string, from: number, escapedAtFrom: boolean): number {
  let quote = text.indexOf('"', from);
  while (quote !== -1 && backslashesBefore(text, quote, from, escapedAtFrom) % 2 === 1)
    quote = text.indexOf('"', quote + 1);
  return quote;
}
