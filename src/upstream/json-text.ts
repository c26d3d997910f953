/**
 * Character-level helpers of the stream decoder. All delimiters it looks for are
 * ASCII, so scanning decoded text by char code is safe for any UTF-8 input.
 */

export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const QUOTE = 34;
export const COLON = 58;
export const BACKSLASH = 92;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
const TAB = 9;
const BYTE_ORDER_MARK = 0xfeff;

export function isBlank(code: number): boolean {
  return code === SPACE || code === LF || code === CR || code === TAB || code === BYTE_ORDER_MARK;
}

/**
 * Index of the quote that closes a JSON string whose content starts at `from`;
 * -1 when `text` ends first, -2 on a raw control character (invalid JSON).
 */
function closingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
    else if (c < SPACE) return -2;
  }
  return -1;
}

/*
 * Fast path for the commonest record, `{"content":"…"}`. JSON.parse costs about
 * 0.4 µs per tiny object and dominated the decoder's profile; this reads the
 * string in one pass and leaves everything else (more fields, other casings,
 * whitespace) to JSON.parse.
 */
const FRAGMENT_PREFIX = '{"content":"';
const FRAGMENT_PREFIX_CAPITALISED = '{"Content":"';

/** The index just past a `{"content":"…"}` record starting at `at`, or -1 for any other record. */
export function plainFragmentEnd(text: string, at: number): number {
  if (!text.startsWith(FRAGMENT_PREFIX, at) && !text.startsWith(FRAGMENT_PREFIX_CAPITALISED, at)) return -1;
  const close = closingQuote(text, at + FRAGMENT_PREFIX.length);
  return close >= 0 && text.charCodeAt(close + 1) === CLOSE_BRACE ? close + 2 : -1;
}

/** The content of the record `plainFragmentEnd` found; null when its escapes are invalid JSON. */
export function plainFragmentContent(text: string, at: number, end: number): string | null {
  return unescapeJsonString(text.slice(at + FRAGMENT_PREFIX.length, end - 2));
}

const SIMPLE_ESCAPES = new Map<number, string>([
  [QUOTE, '"'], [BACKSLASH, '\\'], [47, '/'], [98, '\b'], [102, '\f'], [110, '\n'], [114, '\r'], [116, '\t'],
]);
const LETTER_U = 117;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * The value of a JSON string literal's content (without its quotes), or null when
 * an escape is invalid. Equivalent to JSON.parse(`"${raw}"`) for content whose
 * unescaped quotes were already ruled out, at a fraction of its per-call cost.
 * `\uXXXX` matters: .NET hosts escape every non-ASCII character that way.
 */
export function unescapeJsonString(raw: string): string | null {
  let from = 0;
  let escape = raw.indexOf('\\');
  if (escape === -1) return raw;
  let result = '';
  while (escape !== -1) {
    result += raw.slice(from, escape);
    const kind = raw.charCodeAt(escape + 1);
    if (kind === LETTER_U) {
      const hex = raw.slice(escape + 2, escape + 6);
      if (!HEX4.test(hex)) return null;
      result += String.fromCharCode(Number.parseInt(hex, 16));
      from = escape + 6;
    } else {
      const replacement = SIMPLE_ESCAPES.get(kind);
      if (replacement === undefined) return null;
      result += replacement;
      from = escape + 2;
    }
    escape = raw.indexOf('\\', from);
  }
  return result + raw.slice(from);
}
