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
const LOWER_CASE_BIT = 0x20;

/**
 * Whether `{"content":"` or `{"Content":"` starts at `at`. Compared by char code:
 * `startsWith` on the two-byte strings a non-ASCII answer decodes to was one of
 * the decoder's largest costs.
 */
export function startsPlainFragment(text: string, at: number): boolean {
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
    case QUOTE: return '"';
    case BACKSLASH: return '\\';
    case 47: return '/';
    case 98: return '\b';
    case 102: return '\f';
    case 110: return '\n';
    case 114: return '\r';
    case 116: return '\t';
    default: return null;
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

/*
 * Byte-level helpers. The decoder works on the UTF-8 bytes: decoding a whole chunk
 * to text cost about as much as everything else together, and every delimiter it
 * looks for is ASCII, which never occurs inside a multi-byte UTF-8 sequence.
 */

export const TAB_BYTE = 9;
const BOM_0 = 0xef;
const BOM_1 = 0xbb;
const BOM_2 = 0xbf;

/** Bytes of one blank (JSON whitespace or a U+FEFF) at `at`: 0 for none, -1 when `end` cuts a U+FEFF short. */
export function blankBytes(bytes: Uint8Array, at: number, end: number): number {
  const c = bytes[at];
  if (c === SPACE || c === LF || c === CR || c === TAB_BYTE) return 1;
  if (c !== BOM_0) return 0;
  if (at + 1 < end && bytes[at + 1] !== BOM_1) return 0;
  if (at + 2 < end && bytes[at + 2] !== BOM_2) return 0;
  return at + 2 < end ? 3 : -1;
}

export function isJsonSpaceByte(c: number | undefined): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB_BYTE;
}

/** Index of the first byte quote at or after `from` (before `end`) that no backslash escapes, or -1. */
export function unescapedQuoteByte(bytes: Buffer, from: number, end: number): number {
  let quote = bytes.indexOf(QUOTE, from);
  while (quote !== -1 && quote < end && backslashBytesBefore(bytes, quote, from) % 2 === 1) quote = bytes.indexOf(QUOTE, quote + 1);
  return quote < end ? quote : -1;
}

/** How many backslash bytes run right before `at`, counting none before `floor`. */
export function backslashBytesBefore(bytes: Uint8Array, at: number, floor: number): number {
  let i = at;
  while (i > floor && bytes[i - 1] === BACKSLASH) i--;
  return at - i;
}

/** Whether the escape letter after a backslash is one JSON has (`\u` aside). */
export function isSimpleEscapeLetter(kind: number): boolean {
  return simpleEscape(kind) !== null;
}

/** Whether the four bytes at `at` are hex digits. */
export function isHex4(bytes: Uint8Array, at: number): boolean {
  for (let k = 0; k < 4; k++) if (hexDigit(bytes[at + k] ?? -1) < 0) return false;
  return true;
}

/** Whether the bytes at `at` spell `word` (lower-case ASCII letters) in any casing. */
export function bytesEqualIgnoringCase(bytes: Uint8Array, at: number, end: number, word: string): boolean {
  if (end - at !== word.length) return false;
  for (let k = 0; k < word.length; k++) {
    if (((bytes[at + k] ?? 0) | LOWER_CASE_BIT) !== word.charCodeAt(k)) return false;
  }
  return true;
}

const DATA_PREFIX = 'data:';

/** Where the value of a `data:` line starting at `start` begins, or -1 for another line. */
export function dataPayload(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < DATA_PREFIX.length) return -1;
  for (let k = 0; k < DATA_PREFIX.length; k++) if (bytes[start + k] !== DATA_PREFIX.charCodeAt(k)) return -1;
  return start + 5 < end && bytes[start + 5] === SPACE ? start + 6 : start + 5;
}

/** UTF-16 units of the first `length` bytes (a trailing cut character not counted, as the text decoder held it back). */
export function charCount(bytes: Uint8Array, length: number): number {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, length), { stream: true }).length;
}

/** bytes.indexOf(byte, from), not looking at or past `end` (the carry buffer is longer than its content). */
export function indexBefore(bytes: Buffer, byte: number, from: number, end: number): number {
  const at = bytes.indexOf(byte, from);
  return at < end ? at : -1;
}

/** The bytes of an unfinished line or record, carried from one chunk to the next; grows by doubling. */
export class ByteCarry {
  /** Longer than `length`: nothing past `length` means anything. */
  bytes = Buffer.allocUnsafe(0);
  length = 0;

  append(chunk: Uint8Array): void {
    const needed = this.length + chunk.length;
    if (needed > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.bytes.length * 2, 4096));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    this.bytes.set(chunk, this.length);
    this.length = needed;
  }

  /** Keeps source[from, end), where source is either `bytes` or a chunk. */
  keep(source: Buffer, from: number, end: number): void {
    if (source === this.bytes) {
      this.bytes.copyWithin(0, from, end);
      this.length = end - from;
    } else {
      this.length = 0;
      this.append(source.subarray(from, end));
    }
  }

  clear(): void {
    this.length = 0;
  }
}
