/**
 * Character-level helpers of the stream decoder: the delimiters it looks for, and
 * a fast reading of the commonest record, `{"content":"…"}`.
 */

const LF = 10;
const CR = 13;
const SPACE = 32;
export const QUOTE = 34;
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
const LOWER_CASE_BIT = 0x20;

/**
 * Whether `{"content":"` or `{"Content":"` starts at `at`. Compared by char code:
 * `startsWith` on the two-byte strings a non-ASCII answer decodes to was one of
 * the decoder's largest costs.
 */
function startsPlainFragment(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== OPEN_BRACE || text.charCodeAt(at + 1) !== QUOTE) return false;
  // 'c' or 'C': no other code gives 'c' with the lower-case bit set.
  if ((text.charCodeAt(at + 2) | LOWER_CASE_BIT) !== FRAGMENT_PREFIX.charCodeAt(2)) return false;
  for (let k = 3; k < FRAGMENT_PREFIX.length; k++) {
    if (text.charCodeAt(at + k) !== FRAGMENT_PREFIX.charCodeAt(k)) return false;
  }
  return true;
}

/** The index just past a `{"content":"…"}` record starting at `at`, or -1 for any other record. */
export function plainFragmentEnd(text: string, at: number): number {
  if (!startsPlainFragment(text, at)) return -1;
  const close = closingQuote(text, at + FRAGMENT_PREFIX.length);
  return close >= 0 && text.charCodeAt(close + 1) === CLOSE_BRACE ? close + 2 : -1;
}

/** The content of the record `plainFragmentEnd` found; null when its escapes are invalid JSON. */
export function plainFragmentContent(text: string, at: number, end: number): string | null {
  return unescapeJsonString(text.slice(at + FRAGMENT_PREFIX.length, end - 2));
}

const LETTER_U = 117;

/** The character a one-letter JSON escape (`\n`, `\"`, …) stands for, or null for a letter JSON does not have. */
function simpleEscape(kind: number): string | null {
  // A switch, not a Map: a third of the fragments carry escapes, so this runs often.
  switch (kind) {
    case QUOTE:
      return '"';
    case BACKSLASH:
      return '\\';
    case 47:
      return '/';
    case 98:
      return '\b';
    case 102:
      return '\f';
    case 110:
      return '\n';
    case 114:
      return '\r';
    case 116:
      return '\t';
    default:
      return null;
  }
}

/** The value of one hex digit, or -1. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const letter = code | LOWER_CASE_BIT;
  return letter >= 97 && letter <= 102 ? letter - 87 : -1;
}

/** The UTF-16 unit of the four hex digits at `at`, or -1 when they are not four hex digits. */
function hex4(raw: string, at: number): number {
  let unit = 0;
  for (let k = 0; k < 4; k++) {
    const digit = hexDigit(raw.charCodeAt(at + k));
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

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
      const unit = hex4(raw, escape + 2);
      if (unit < 0) return null;
      result += String.fromCharCode(unit);
      from = escape + 6;
    } else {
      const replacement = simpleEscape(kind);
      if (replacement === null) return null;
      result += replacement;
      from = escape + 2;
    }
    escape = raw.indexOf('\\', from);
  }
  return result + raw.slice(from);
}
