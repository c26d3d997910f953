import type { AskFinal } from './api.js';
import {
  CLOSE_BRACE, COLON, CR, LF, OPEN_BRACE, QUOTE, SPACE, backslashBytesBefore, blankBytes, charCount, dataPayload,
  ByteCarry, indexBefore, plainFragmentContent, plainFragmentEnd, unescapedQuoteByte,
} from './json-text.js';
import {
  FragmentLog, NEED_MORE, classifyFinalAgainstFragments, classifyStreamObject, nothingReadable, recordTooLarge,
  type DecodedStreamEvent, type StreamObject,
} from './stream-events.js';

export type { DecodedStreamEvent, StreamErrorEvent } from './stream-events.js';

/**
 * Turns the bytes of a streamed ClientAsk answer into events. Pure: no I/O, no
 * timers. It accepts the three framings seen in the wild, split at any byte:
 *  - SSE: `data:` lines (several joined with "\n"), `:` comments, `event:`/`id:`
 *    lines ignored, a blank line ends an event, `data: [DONE]` ends the stream;
 *  - bare JSON lines (NDJSON), which SSE mode also accepts line by line;
 *  - JSON objects back to back (`{...}{...}`), with or without whitespace between.
 * The first significant character picks the framing: `{` starts JSON mode, anything
 * else SSE mode; JSON mode falls back to SSE mode when it meets a non-object (e.g. a
 * trailing `[DONE]`).
 *
 * Events: fragments in order, then exactly one final (or one error). A stream that
 * ends without a final yields `{ incomplete: true, answer: <fragments joined> }`.
 */
export interface StreamDecoder {
  push(chunk: Uint8Array): DecodedStreamEvent[];
  /** Flushes what is left and returns the last events (the final when the stream had none). */
  end(): DecodedStreamEvent[];
}

export interface StreamDecoderOptions {
  /** Largest single record (JSON object or SSE event) kept in memory, in UTF-16 chars. */
  maxRecordChars?: number;
}

const DEFAULT_MAX_RECORD_CHARS = 16 * 1024 * 1024;
/** Up to this many carried bytes, a record cut by a chunk is read again from its start by the fast path. */
const FAST_RETRY_BYTES = 64 * 1024;
const EMPTY = new Uint8Array(0);
const KNOWN_SSE_FIELDS = new Set(['event', 'id', 'retry']);

export function createStreamDecoder(options: StreamDecoderOptions = {}): StreamDecoder {
  return new AskStreamDecoder(options.maxRecordChars ?? DEFAULT_MAX_RECORD_CHARS);
}

/**
 * Works on the UTF-8 bytes and decodes only what it keeps: delimiters are ASCII,
 * which never occurs inside a multi-byte sequence, so a line or record cut out of
 * the bytes decodes exactly as it did out of the decoded stream.
 */
class AskStreamDecoder implements StreamDecoder {
  private mode: 'detect' | 'json' | 'sse' = 'detect';
  /** Set once a final, an error or `[DONE]` arrived: everything after is ignored. */
  private stopped = false;
  private terminal: 'final' | 'error' | null = null;
  private ended = false;
  private readonly fragments = new FragmentLog();
  private unreadable = 0;
  private out: DecodedStreamEvent[] = [];

  /** Bytes of the unfinished record, line or U+FEFF, carried over to the next chunk. */
  private readonly carry = new ByteCarry();
  /** How many carried bytes were already scanned (JSON mode's state below, SSE: no line end). */
  private carryScanned = 0;
  /** Set by a scanner that needs more bytes: where the unfinished part starts. */
  private stall = -1;
  /** In the buffer being scanned: the scans of the carried bytes resume here. */
  private resumeAt = 0;
  // JSON mode: where the scan of the unfinished record stopped.
  private depth = 0;
  private inString = false;
  private escaped = false;
  // SSE mode: the data lines of the event being read (most events have exactly one).
  private firstData: string | null = null;
  private moreData: string[] = [];
  private dataChars = 0;
  private skipLeadingLF = false;

  constructor(private readonly maxRecordChars: number) {}

  push(chunk: Uint8Array): DecodedStreamEvent[] {
    if (!this.stopped && !this.ended) this.scan(chunk, false);
    return this.take();
  }

  end(): DecodedStreamEvent[] {
    if (this.ended) return [];
    this.ended = true;
    if (!this.stopped) {
      this.scan(EMPTY, true);
      if (!this.stopped) this.flushUnfinished();
    }
    if (this.terminal === null) this.emitWithoutFinal();
    return this.take();
  }

  private take(): DecodedStreamEvent[] {
    this.fragments.flush(this.out);
    const events = this.out;
    this.out = [];
    return events;
  }

  /** Scans the carried bytes and `chunk`; `ending`: no more bytes will come. */
  private scan(chunk: Uint8Array, ending: boolean): void {
    let bytes: Buffer, n: number;
    if (this.carry.length === 0) {
      bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      n = chunk.length;
      this.resumeAt = 0;
    } else {
      this.carry.append(chunk);
      bytes = this.carry.bytes;
      n = this.carry.length;
      this.resumeAt = this.carryScanned;
    }
    this.stall = -1;
    let i = 0;
    while (i < n && !this.stopped && this.stall === -1) {
      if (this.mode === 'json') i = this.scanJson(bytes, i, n, ending);
      else if (this.mode === 'sse') i = this.scanSse(bytes, i, n);
      else i = this.detect(bytes, i, n, ending);
    }
    const keepFrom = this.stopped || this.stall === -1 ? n : this.stall;
    this.carry.keep(bytes, keepFrom, n);
    const { bytes: kept, length } = this.carry;
    if (length > this.maxRecordChars && charCount(kept, length) > this.maxRecordChars) this.fail(recordTooLarge(this.maxRecordChars));
  }

  private stallAt(at: number, scanned: number): number {
    [this.stall, this.carryScanned] = [at, scanned];
    return at;
  }

  /** Skips blanks from `start`; the index of the first other byte, or -1 after stalling on a cut U+FEFF. */
  private skipBlanks(bytes: Buffer, start: number, n: number, ending: boolean): number {
    let i = start;
    while (i < n) {
      const size = blankBytes(bytes, i, n);
      if (size === 0 || (size === -1 && ending)) break;
      if (size === -1) {
        this.stallAt(i, 0);
        return -1;
      }
      i += size;
    }
    return i;
  }

  private detect(bytes: Buffer, start: number, n: number, ending: boolean): number {
    const i = this.skipBlanks(bytes, start, n, ending);
    if (i === -1) return n;
    if (i < n) this.mode = bytes[i] === OPEN_BRACE ? 'json' : 'sse';
    return i;
  }

  private scanJson(bytes: Buffer, start: number, n: number, ending: boolean): number {
    let i = start;
    let from = this.resumeAt > i ? this.resumeAt : i;
    if (this.depth === 0) {
      i = this.skipBlanks(bytes, i, n, ending);
      if (i === -1 || i === n) return n;
      if (bytes[i] !== OPEN_BRACE) {
        this.mode = 'sse';
        return i;
      }
      const fragmentEnd = this.fragments.readPlain(bytes, i, n);
      if (fragmentEnd >= 0) {
        this.fragments.commit();
        return fragmentEnd;
      }
      if (fragmentEnd === NEED_MORE && n - i <= FAST_RETRY_BYTES) return this.stallAt(i, 0);
      from = i;
    }
    const recordStart = i;
    let { depth, inString, escaped } = this;
    for (i = from; i < n; i++) {
      if (inString) {
        // Jump from quote to quote: the final object is mostly one long string.
        if (escaped) i++;
        const close = unescapedQuoteByte(bytes, i, n);
        escaped = close === -1 && backslashBytesBefore(bytes, n, i) % 2 === 1;
        if (close === -1) {
          i = n;
          break;
        }
        inString = false;
        i = close;
        continue;
      }
      const c = bytes[i];
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE) depth++;
      else if (c === CLOSE_BRACE && --depth === 0) {
        i++;
        break;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    if (depth === 0) {
      this.handleRecord(bytes, recordStart, i);
      return i;
    }
    return this.stallAt(recordStart, n - recordStart);
  }

  private scanSse(bytes: Buffer, start: number, n: number): number {
    let i = start;
    if (this.skipLeadingLF) {
      this.skipLeadingLF = false;
      if (bytes[i] === LF) i++;
    }
    let crAt = -2;
    while (i < n && !this.stopped) {
      // Not again and again over a long line carried from chunk to chunk.
      if (this.firstData === null && (this.resumeAt <= i || this.resumeAt - i <= FAST_RETRY_BYTES)) {
        const next = this.plainFragmentEvent(bytes, i, n);
        if (next !== -1) {
          i = next;
          continue;
        }
      }
      const searchFrom = this.resumeAt > i ? this.resumeAt : i;
      if (crAt === -2 || (crAt !== -1 && crAt < searchFrom)) crAt = indexBefore(bytes, CR, searchFrom, n);
      const lfAt = indexBefore(bytes, LF, searchFrom, n);
      const lineEnd = crAt === -1 ? lfAt : lfAt === -1 ? crAt : Math.min(lfAt, crAt);
      if (lineEnd === -1) return this.stallAt(i, n - i);
      let next = lineEnd + 1;
      if (lineEnd === crAt) {
        if (next === n) this.skipLeadingLF = true;
        else if (bytes[next] === LF) next++;
      }
      i = this.sseLine(bytes, i, lineEnd, next, n);
    }
    return n;
  }

  /**
   * The commonest SSE event, `data: {"content":"…"}` and a blank line, read in
   * place. Returns the index past the event, or -1 (nothing consumed) for
   * anything else, which the line-by-line path then reads.
   */
  private plainFragmentEvent(bytes: Buffer, start: number, n: number): number {
    const payload = dataPayload(bytes, start, n);
    if (payload === -1) return -1;
    const end = this.fragments.readPlain(bytes, payload, n);
    if (end < 0) return -1;
    let next: number;
    if (end + 2 <= n && bytes[end] === LF && bytes[end + 1] === LF) next = end + 2;
    else if (end + 4 <= n && bytes[end] === CR && bytes[end + 1] === LF && bytes[end + 2] === CR && bytes[end + 3] === LF) {
      next = end + 4;
    } else return -1;
    // The same limit addData applies to a data line.
    if (end - payload + 1 > this.maxRecordChars && charCount(bytes.subarray(payload, end), end - payload) + 1 > this.maxRecordChars) {
      return -1;
    }
    this.fragments.commit();
    return next;
  }

  /**
   * One line, bytes[start, lineEnd); `next` starts the following one. A `data:`
   * line holding a JSON object and followed by a blank line (the final) is read
   * from its bytes; any other line is decoded and read as text.
   */
  private sseLine(bytes: Buffer, start: number, lineEnd: number, next: number, n: number): number {
    if (this.firstData === null) {
      const payload = dataPayload(bytes, start, lineEnd);
      if (payload !== -1 && bytes[payload] === OPEN_BRACE) {
        const blankEnd = bytes[next] === LF ? next + 1 : bytes[next] === CR ? (bytes[next + 1] === LF ? next + 2 : next + 1) : -1;
        const tooLarge = lineEnd - payload + 1 > this.maxRecordChars
          && charCount(bytes.subarray(payload, lineEnd), lineEnd - payload) + 1 > this.maxRecordChars;
        // A lone CR at the end of the bytes might still be followed by the LF of a CRLF.
        if (blankEnd !== -1 && blankEnd <= n && !(blankEnd === n && bytes[next] === CR) && !tooLarge) {
          this.handleRecord(bytes, payload, lineEnd);
          return blankEnd;
        }
      } else if (bytes[start] === OPEN_BRACE) {
        this.handleRecord(bytes, start, lineEnd);
        return next;
      }
    }
    this.processLine(bytes.toString('utf8', start, lineEnd));
    return next;
  }

  private processLine(line: string): void {
    if (line.startsWith('data:')) return this.addData(line.slice(line.charCodeAt(5) === SPACE ? 6 : 5));
    if (line.length === 0) return this.dispatch();
    const first = line.charCodeAt(0);
    if (first === COLON) return;
    if (first === OPEN_BRACE && this.firstData === null) return this.handleJson(line);
    const colon = line.indexOf(':');
    if (colon === -1 && line === 'data') return this.addData('');
    if (colon === -1 && line.trim() === '[DONE]') {
      this.stopped = true;
    } else if (!KNOWN_SSE_FIELDS.has(colon === -1 ? line : line.slice(0, colon))) {
      // Legal SSE, but a line like this is more likely an HTML or text error page.
      this.unreadable++;
    }
    // event:, id: and retry: carry nothing we use.
  }

  private addData(value: string): void {
    if (this.firstData === null) this.firstData = value;
    else this.moreData.push(value);
    this.dataChars += value.length + 1;
    if (this.dataChars > this.maxRecordChars) this.fail(recordTooLarge(this.maxRecordChars));
  }

  private dispatch(): void {
    if (this.firstData === null) return;
    const payload = this.moreData.length === 0 ? this.firstData : [this.firstData, ...this.moreData].join('\n');
    this.firstData = null;
    this.moreData = [];
    this.dataChars = 0;
    if (payload.trim() === '[DONE]') this.stopped = true;
    else this.handleJson(payload);
  }

  /** A whole JSON record (or what should be one) in bytes[start, end). */
  private handleRecord(bytes: Buffer, start: number, end: number): void {
    if (this.fragments.readPlain(bytes, start, end) === end) return this.fragments.commit();
    this.fragments.flush(this.out);
    const object = classifyFinalAgainstFragments(bytes, start, end, this.fragments);
    if (object !== null) return this.handleObject(object);
    this.handleJson(bytes.toString('utf8', start, end));
  }

  private handleJson(text: string): void {
    const end = plainFragmentEnd(text, 0);
    if (end === text.length) {
      const content = plainFragmentContent(text, 0, end);
      if (content === null) this.unreadable++;
      else if (content !== '') this.fragments.addDecoded(content, this.out);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() !== '') this.unreadable++;
      return;
    }
    this.handleObject(classifyStreamObject(value));
  }

  private handleObject(object: StreamObject | null): void {
    if (object === null) return;
    if (object.type === 'fragment') {
      this.fragments.addDecoded(object.content, this.out);
    } else if (object.type === 'final') {
      const answer = object.answerFromFragments ? this.fragments.joined() : object.final.answer;
      this.finish({ ...object.final, answer });
    } else {
      this.fail(object);
    }
  }

  private finish(final: AskFinal): void {
    this.fragments.flush(this.out);
    this.out.push(final);
    this.terminal = 'final';
    this.stopped = true;
  }

  private fail(error: DecodedStreamEvent): void {
    this.fragments.flush(this.out);
    this.out.push(error);
    this.terminal = 'error';
    this.stopped = true;
  }

  /** At the end of the body: a last line without newline still counts; a cut-off JSON object does not. */
  private flushUnfinished(): void {
    if (this.mode === 'sse') {
      if (this.carry.length > 0) this.processLine(this.carry.bytes.toString('utf8', 0, this.carry.length));
      if (!this.stopped) this.dispatch();
    } else if (this.mode === 'json' && this.carry.length > 0) {
      this.unreadable++;
    }
    this.carry.clear();
  }

  private emitWithoutFinal(): void {
    this.fragments.flush(this.out);
    if (this.fragments.count === 0 && this.unreadable > 0) {
      return this.fail(nothingReadable(this.unreadable));
    }
    this.finish({
      type: 'final', questionId: null, answerId: null, answer: this.fragments.joined(),
      totalToken: null, noAnswer: null, incomplete: true,
    });
  }
}
