import type { AskFinal, AskStreamEvent } from './api.js';
import { isPlainObject } from './case-insensitive.js';
import {
  BACKSLASH, CLOSE_BRACE, COLON, OPEN_BRACE, QUOTE, SPACE, bytesEqualIgnoringCase, isHex4, isJsonSpaceByte,
  isSimpleEscapeLetter, unescapeJsonString, unescapedQuoteByte,
} from './json-text.js';

/** An error object inside a stream (an envelope with `Success: false`). */
export interface StreamErrorEvent {
  type: 'error';
  /** 'upstream': the service sent an error object; 'decoder': the stream made no sense. */
  source: 'upstream' | 'decoder';
  code: number | null;
  message: string;
}

export type DecodedStreamEvent = AskStreamEvent | StreamErrorEvent;

/** One JSON object of a ClientAsk stream, as the decoder needs to see it. */
export type StreamObject =
  | { type: 'fragment'; content: string }
  /** `answerFromFragments`: the object marked completion without an answer; use the fragments so far. */
  | { type: 'final'; final: AskFinal; answerFromFragments: boolean }
  | StreamErrorEvent;

export function recordTooLarge(maxRecordChars: number): StreamErrorEvent {
  return {
    type: 'error', source: 'decoder', code: null,
    message: `a record of the answer stream exceeded ${maxRecordChars} characters; the stream is not a ClientAsk answer`,
  };
}

export function nothingReadable(unreadable: number): StreamErrorEvent {
  return {
    type: 'error', source: 'decoder', code: null,
    message: `the answer stream held ${unreadable} unreadable record(s) and no answer; is the base URL a Chatbot Service?`,
  };
}

/** What one JSON object of a ClientAsk stream means; null for objects we ignore (keep-alives, metadata). */
export function classifyStreamObject(value: unknown): StreamObject | null {
  if (!isPlainObject(value)) return null;
  const fields = lowerCaseFields(value);
  if (fields.get('success') === false) {
    const code = toIntOrNull(fields.get('code'));
    const message = typeof fields.get('message') === 'string' && fields.get('message') !== ''
      ? (fields.get('message') as string)
      : `the service reported a failure in the stream (Code ${code ?? 'missing'})`;
    return { type: 'error', source: 'upstream', code, message };
  }
  // Some hosts wrap every streamed object in the response envelope.
  const data = fields.get('data');
  if (fields.has('success') && isPlainObject(data)) return classifyStreamObject(data);

  const answer = fields.get('answer');
  const completed = fields.get('taskcompleted') === true;
  const content = fields.get('content');
  if (typeof answer === 'string' || completed) {
    // Without `Answer`, a completion marker's `content` is the whole answer (the older non-stream shape).
    return finalFrom(fields, typeof answer === 'string' ? answer : typeof content === 'string' ? content : null);
  }
  if (typeof content === 'string') return content === '' ? null : { type: 'fragment', content };
  return null;
}

function finalFrom(fields: Map<string, unknown>, answer: string | null): StreamObject {
  const noAnswer = fields.get('noanswer');
  const final: AskFinal = {
    type: 'final',
    questionId: toIntOrNull(fields.get('questionid')),
    answerId: toIntOrNull(fields.get('answerid') ?? fields.get('messageid')),
    answer: answer ?? '',
    totalToken: toIntOrNull(fields.get('totaltoken')),
    noAnswer: typeof noAnswer === 'boolean' ? noAnswer : null,
    incomplete: false,
  };
  return { type: 'final', final, answerFromFragments: answer === null };
}

function lowerCaseFields(value: Record<string, unknown>): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  for (const key of Object.keys(value)) {
    const lower = key.toLowerCase();
    if (!fields.has(lower) || key === lower) fields.set(lower, value[key]);
  }
  return fields;
}

function toIntOrNull(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  return null;
}

/** What FragmentLog.readPlain returns when the record is not `{"content":"…"}` / may be once more bytes come. */
export const NOT_PLAIN = -1;
export const NEED_MORE = -2;

const PLAIN_PREFIX = '{"content":"';
const PIECE_ESCAPED = 1;
const PIECE_SUSPECT = 2;

/**
 * The fragments of the answer, read straight from the bytes. Their escaped
 * contents are copied into one growing buffer and decoded once per chunk (one
 * decoder call per tiny fragment was a large cost); the decoded text is kept in
 * a few long strings for a stream that ends without its final, and the raw bytes
 * let the final object's `Answer` be recognised as "the fragments joined"
 * without decoding and parsing it.
 */
export class FragmentLog {
  /** Fragments emitted so far. */
  count = 0;
  /** Whether `raw` holds exactly the escaped contents of every fragment so far. */
  private rawExact = true;
  private raw = Buffer.allocUnsafe(64 * 1024);
  private rawLength = 0;
  private runStart = 0;
  private runChars = 0;
  private runFlags = 0;
  private pieceEnds: number[] = [];
  private pieceChars: number[] = [];
  private pieceFlags: number[] = [];
  private readonly parts: string[] = [];
  // The record readPlain found, until commit().
  private nextEnd = 0;
  private nextChars = 0;
  private nextFlags = 0;

  /**
   * Reads a `{"content":"…"}` record at `at` (either casing of `content`, valid
   * escapes, no raw control characters) without committing it. Returns the index
   * past its `}`, NOT_PLAIN, or NEED_MORE when `end` cuts it before that is known.
   */
  readPlain(bytes: Uint8Array, at: number, end: number): number {
    if (end - at < PLAIN_PREFIX.length) return NEED_MORE;
    if (bytes[at] !== OPEN_BRACE || bytes[at + 1] !== QUOTE || ((bytes[at + 2] ?? 0) | 0x20) !== 99) return NOT_PLAIN;
    for (let k = 3; k < PLAIN_PREFIX.length; k++) if (bytes[at + k] !== PLAIN_PREFIX.charCodeAt(k)) return NOT_PLAIN;
    this.reserve(end - at);
    const raw = this.raw;
    let w = this.rawLength;
    // UTF-16 units = bytes - extra; `need`: continuation bytes still due. A piece not
    // made of whole sequences is decoded alone, as the text decoder would have.
    let extra = 0;
    let need = 0;
    let flags = 0;
    for (let i = at + PLAIN_PREFIX.length; i < end; i++) {
      const c = bytes[i] ?? 0;
      if (c >= 0x80) {
        if (c < 0xc0) {
          if (need === 0) flags |= PIECE_SUSPECT;
          else need--;
          extra++;
        } else {
          if (need !== 0) flags |= PIECE_SUSPECT;
          need = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
          if (c >= 0xf0) extra--;
        }
        raw[w++] = c;
        continue;
      }
      if (need !== 0) flags |= PIECE_SUSPECT;
      need = 0;
      if (c === QUOTE) {
        if (i + 1 >= end) return NEED_MORE;
        if (bytes[i + 1] !== CLOSE_BRACE) return NOT_PLAIN;
        this.nextEnd = w;
        this.nextChars = w - this.rawLength - extra;
        this.nextFlags = flags;
        return i + 2;
      }
      if (c === BACKSLASH) {
        if (i + 1 >= end) return NEED_MORE;
        const kind = bytes[i + 1] ?? 0;
        const length = kind === LETTER_U_BYTE ? 6 : 2;
        if (i + length > end) return NEED_MORE;
        if (length === 6 ? !isHex4(bytes, i + 2) : !isSimpleEscapeLetter(kind)) return NOT_PLAIN;
        for (let k = 0; k < length; k++) raw[w++] = bytes[i + k] ?? 0;
        i += length - 1;
        flags |= PIECE_ESCAPED;
        continue;
      }
      if (c < SPACE) return NOT_PLAIN;
      raw[w++] = c;
    }
    return NEED_MORE;
  }

  /** Keeps the record the last readPlain found (an empty one is no fragment). */
  commit(): void {
    if (this.nextEnd === this.rawLength) return;
    this.rawLength = this.nextEnd;
    this.pieceEnds.push(this.nextEnd);
    this.pieceChars.push(this.nextChars);
    this.pieceFlags.push(this.nextFlags);
    this.runChars += this.nextChars;
    this.runFlags |= this.nextFlags;
  }

  /** Emits the committed fragments not yet emitted, in order. */
  flush(out: DecodedStreamEvent[]): void {
    const pieces = this.pieceEnds.length;
    if (pieces === 0) return;
    const text = (this.runFlags & PIECE_SUSPECT) === 0 ? this.raw.toString('utf8', this.runStart, this.rawLength) : '';
    // Valid UTF-8 decodes to exactly the counted units; anything else is decoded piece
    // by piece (as the text decoder would have), and `raw` is no longer trusted for the final.
    const whole = (this.runFlags & PIECE_SUSPECT) === 0 && text.length === this.runChars;
    if (!whole) this.rawExact = false;
    const contents: string[] = [];
    let rawFrom = this.runStart;
    let charFrom = 0;
    for (let k = 0; k < pieces; k++) {
      const rawEnd = this.pieceEnds[k] ?? 0;
      const chars = this.pieceChars[k] ?? 0;
      let content = whole ? text.slice(charFrom, charFrom + chars) : this.raw.toString('utf8', rawFrom, rawEnd);
      // readPlain let only valid escapes through, so this is never null.
      if ((this.pieceFlags[k] ?? 0) & PIECE_ESCAPED) content = unescapeJsonString(content) ?? content;
      contents.push(content);
      out.push({ type: 'fragment', content });
      rawFrom = rawEnd;
      charFrom += chars;
    }
    this.count += pieces;
    this.parts.push(whole && (this.runFlags & PIECE_ESCAPED) === 0 ? text : contents.join(''));
    this.pieceEnds = [];
    this.pieceChars = [];
    this.pieceFlags = [];
    this.runChars = 0;
    this.runFlags = 0;
    // Once `raw` cannot be trusted, it only needs to hold one run.
    if (!this.rawExact) this.rawLength = 0;
    this.runStart = this.rawLength;
  }

  /** A fragment read by JSON.parse (another shape of record): emitted after those pending. */
  addDecoded(content: string, out: DecodedStreamEvent[]): void {
    this.flush(out);
    this.rawExact = false;
    this.rawLength = 0;
    this.runStart = 0;
    this.count++;
    this.parts.push(content);
    out.push({ type: 'fragment', content });
  }

  joined(): string {
    return this.parts.join('');
  }

  /** Whether bytes[at, end) are exactly the escaped contents of all fragments (after a flush). */
  equalsRaw(bytes: Buffer, at: number, end: number): boolean {
    return this.rawExact && this.rawLength > 0 && this.pieceEnds.length === 0 && end - at === this.rawLength
      && bytes.compare(this.raw, 0, this.rawLength, at, end) === 0;
  }

  get rawBytes(): number {
    return this.rawExact ? this.rawLength : 0;
  }

  private reserve(more: number): void {
    if (this.rawLength + more <= this.raw.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.raw.length * 2, this.rawLength + more));
    this.raw.copy(grown, 0, 0, this.rawLength);
    this.raw = grown;
  }
}

const LETTER_U_BYTE = 117;
const ANSWER_SENTINEL = '\u0000chatbridge:answer-from-fragments\u0000';
const ANSWER_SENTINEL_JSON = JSON.stringify(ANSWER_SENTINEL);

/**
 * The final object bytes[at, end) classified without decoding or parsing its
 * `Answer` when that is byte for byte the fragments joined (the embedded service
 * always sends it so, and it repeats the whole answer: parsing it was a third of
 * the decoder's time). The rest of the object, with the answer swapped for a
 * sentinel, still goes through JSON.parse and classifyStreamObject, so key order,
 * casing and escapes elsewhere mean what they always meant. Null when unsure
 * (nested values, escaped keys, no matching answer, anything odd): the caller
 * then parses the whole object.
 */
export function classifyFinalAgainstFragments(bytes: Buffer, at: number, end: number, log: FragmentLog): StreamObject | null {
  const length = log.rawBytes;
  if (length === 0 || end - at < length) return null;
  // Bytes past `end` belong to the next record (or are stale): never looked at.
  const byteAt = (k: number): number => (k < end ? bytes[k] ?? -1 : -1);
  let i = skipJsonSpace(bytes, at, end);
  if (byteAt(i) !== OPEN_BRACE) return null;
  i = skipJsonSpace(bytes, i + 1, end);
  let swapFrom = -1;
  let swapTo = -1;
  while (i < end && byteAt(i) !== CLOSE_BRACE) {
    if (byteAt(i) !== QUOTE) return null;
    const keyEnd = bytes.indexOf(QUOTE, i + 1);
    if (keyEnd === -1 || keyEnd >= end || bytes.subarray(i + 1, keyEnd).includes(BACKSLASH)) return null;
    const keyIsAnswer = bytesEqualIgnoringCase(bytes, i + 1, keyEnd, 'answer');
    i = skipJsonSpace(bytes, keyEnd + 1, end);
    if (byteAt(i) !== COLON) return null;
    i = skipJsonSpace(bytes, i + 1, end);
    const c = byteAt(i);
    if (c === QUOTE) {
      const close = i + 1 + length;
      if (keyIsAnswer && swapFrom === -1 && byteAt(close) === QUOTE && log.equalsRaw(bytes, i + 1, close)) {
        swapFrom = i;
        swapTo = close + 1;
        i = swapTo;
      } else {
        const quote = unescapedQuoteByte(bytes, i + 1, end);
        if (quote === -1) return null;
        i = quote + 1;
      }
    } else if (c === OPEN_BRACE || c === 91 /* [ */) {
      return null;
    } else {
      while (i < end && byteAt(i) !== 44 /* , */ && byteAt(i) !== CLOSE_BRACE && !isJsonSpaceByte(byteAt(i))) i++;
    }
    i = skipJsonSpace(bytes, i, end);
    if (byteAt(i) === 44) i = skipJsonSpace(bytes, i + 1, end);
  }
  if (swapFrom === -1 || skipJsonSpace(bytes, i + 1, end) !== end) return null;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8', at, swapFrom) + ANSWER_SENTINEL_JSON + bytes.toString('utf8', swapTo, end));
  } catch {
    return null;
  }
  // The sentinel must be the one we put in, or it would stand for the wrong string.
  if (!isPlainObject(value) || Object.values(value).filter((field) => field === ANSWER_SENTINEL).length !== 1) return null;
  const object = classifyStreamObject(value);
  if (object?.type !== 'final' || object.final.answer !== ANSWER_SENTINEL) return object;
  return { ...object, final: { ...object.final, answer: log.joined() } };
}

function skipJsonSpace(bytes: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end && isJsonSpaceByte(bytes[i])) i++;
  return i;
}
