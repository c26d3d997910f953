import type { AskFinal } from './api.js';
import {
  BACKSLASH, CLOSE_BRACE, COLON, CR, LF, OPEN_BRACE, QUOTE, SPACE, isBlank, plainFragmentContent, plainFragmentEnd,
} from './json-text.js';
import { classifyStreamObject, type DecodedStreamEvent } from './stream-events.js';

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
const FRAGMENT_BATCH = 256;

const DATA_D = 100; // 'd'

const KNOWN_SSE_FIELDS = new Set(['event', 'id', 'retry']);

export function createStreamDecoder(options: StreamDecoderOptions = {}): StreamDecoder {
  return new AskStreamDecoder(options.maxRecordChars ?? DEFAULT_MAX_RECORD_CHARS);
}

class AskStreamDecoder implements StreamDecoder {
  // A streaming TextDecoder keeps a multi-byte character split across chunks whole,
  // so every delimiter scan below runs once, on text.
  private readonly utf8 = new TextDecoder('utf-8');
  private mode: 'detect' | 'json' | 'sse' = 'detect';
  /** Set once a final, an error or `[DONE]` arrived: everything after is ignored. */
  private stopped = false;
  private terminal: 'final' | 'error' | null = null;
  private ended = false;
  /**
   * The fragments so far, for a stream that ends without its final. Joined in
   * batches: keeping 100k tiny strings alive made the garbage collector the
   * decoder's main cost.
   */
  private readonly answerParts: string[] = [];
  private recentFragments: string[] = [];
  private fragmentCount = 0;
  private unreadable = 0;
  private out: DecodedStreamEvent[] = [];

  /** Already-scanned text of the unfinished JSON record (JSON mode) or line (SSE mode). */
  private pending: string[] = [];
  private pendingChars = 0;
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
    if (!this.stopped && !this.ended) this.scan(this.utf8.decode(chunk, { stream: true }));
    return this.take();
  }

  end(): DecodedStreamEvent[] {
    if (this.ended) return [];
    this.ended = true;
    if (!this.stopped) {
      this.scan(this.utf8.decode());
      if (!this.stopped) this.flushUnfinished();
    }
    if (this.terminal === null) this.emitWithoutFinal();
    return this.take();
  }

  private take(): DecodedStreamEvent[] {
    const events = this.out;
    this.out = [];
    return events;
  }

  private scan(text: string): void {
    let i = 0;
    while (i < text.length && !this.stopped) {
      if (this.mode === 'json') i = this.scanJson(text, i);
      else if (this.mode === 'sse') i = this.scanSse(text, i);
      else i = this.detect(text, i);
    }
  }

  private detect(text: string, start: number): number {
    let i = start;
    while (i < text.length && isBlank(text.charCodeAt(i))) i++;
    if (i < text.length) this.mode = text.charCodeAt(i) === OPEN_BRACE ? 'json' : 'sse';
    return i;
  }

  private scanJson(text: string, start: number): number {
    const n = text.length;
    let i = start;
    if (this.depth === 0) {
      while (i < n && isBlank(text.charCodeAt(i))) i++;
      if (i === n) return n;
      if (text.charCodeAt(i) !== OPEN_BRACE) {
        this.mode = 'sse';
        return i;
      }
      const fragmentEnd = plainFragmentEnd(text, i);
      if (fragmentEnd !== -1) {
        this.handlePlainFragment(plainFragmentContent(text, i, fragmentEnd));
        return fragmentEnd;
      }
    }
    const recordStart = i;
    let { depth, inString, escaped } = this;
    for (; i < n; i++) {
      if (inString) {
        // Jump from quote to quote: the final object is mostly one long string, and
        // a loop over its every character was the JSON mode's largest cost.
        if (escaped) i++;
        const close = unescapedQuote(text, i);
        escaped = close === -1 && backslashesBefore(text, n, i) % 2 === 1;
        if (close === -1) {
          i = n;
          break;
        }
        inString = false;
        i = close;
        continue;
      }
      const c = text.charCodeAt(i);
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
      this.handleJson(this.withPending(text.slice(recordStart, i)));
      return i;
    }
    this.keep(text.slice(recordStart));
    return n;
  }

  private scanSse(text: string, start: number): number {
    const n = text.length;
    let i = start;
    if (this.skipLeadingLF) {
      this.skipLeadingLF = false;
      if (text.charCodeAt(i) === LF) i++;
    }
    let crAt = text.indexOf('\r', i);
    while (i < n && !this.stopped) {
      if (this.firstData === null && this.pending.length === 0) {
        const next = this.plainFragmentEvent(text, i);
        if (next !== -1) {
          i = next;
          continue;
        }
      }
      if (crAt !== -1 && crAt < i) crAt = text.indexOf('\r', i);
      const lfAt = text.indexOf('\n', i);
      const lineEnd = crAt === -1 ? lfAt : lfAt === -1 ? crAt : Math.min(lfAt, crAt);
      if (lineEnd === -1) {
        this.keep(text.slice(i));
        return n;
      }
      const line = this.withPending(text.slice(i, lineEnd));
      i = lineEnd + 1;
      if (lineEnd === crAt) {
        if (i === n) this.skipLeadingLF = true;
        else if (text.charCodeAt(i) === LF) i++;
      }
      this.processLine(line);
    }
    return n;
  }

  /**
   * The commonest SSE event, `data: {"content":"…"}` and a blank line, read in
   * place: going through processLine, addData and dispatch cut and scanned the
   * same text three times. Returns the index past the event, or -1 (nothing
   * consumed) for anything else, which the line-by-line path then reads.
   */
  private plainFragmentEvent(text: string, start: number): number {
    if (text.charCodeAt(start) !== DATA_D || !text.startsWith('data:', start)) return -1;
    const payload = text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5;
    const end = plainFragmentEnd(text, payload);
    if (end === -1) return -1;
    let next: number;
    if (text.charCodeAt(end) === LF && text.charCodeAt(end + 1) === LF) next = end + 2;
    else if (text.charCodeAt(end) === CR && text.startsWith('\n\r\n', end + 1)) next = end + 4;
    else return -1;
    // The same limit addData applies to a data line.
    if (end - payload + 1 > this.maxRecordChars) return -1;
    this.handlePlainFragment(plainFragmentContent(text, payload, end));
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
    if (this.dataChars > this.maxRecordChars) this.fail(this.tooLarge());
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

  private handlePlainFragment(content: string | null): void {
    if (content === null) this.unreadable++;
    else if (content !== '') this.emitFragment(content);
  }

  private handleJson(text: string): void {
    if (plainFragmentEnd(text, 0) === text.length) return this.handlePlainFragment(plainFragmentContent(text, 0, text.length));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() !== '') this.unreadable++;
      return;
    }
    const object = classifyStreamObject(value);
    if (object === null) return;
    if (object.type === 'fragment') {
      this.emitFragment(object.content);
    } else if (object.type === 'final') {
      const answer = object.answerFromFragments ? this.fragmentsJoined() : object.final.answer;
      this.finish({ ...object.final, answer });
    } else {
      this.fail(object);
    }
  }

  private emitFragment(content: string): void {
    this.fragmentCount++;
    this.recentFragments.push(content);
    if (this.recentFragments.length === FRAGMENT_BATCH) {
      this.answerParts.push(this.recentFragments.join(''));
      this.recentFragments = [];
    }
    this.out.push({ type: 'fragment', content });
  }

  private fragmentsJoined(): string {
    return this.answerParts.join('') + this.recentFragments.join('');
  }

  private finish(final: AskFinal): void {
    this.out.push(final);
    this.terminal = 'final';
    this.stopped = true;
  }

  private fail(error: DecodedStreamEvent): void {
    this.out.push(error);
    this.terminal = 'error';
    this.stopped = true;
  }

  private tooLarge(): DecodedStreamEvent {
    return {
      type: 'error', source: 'decoder', code: null,
      message: `a record of the answer stream exceeded ${this.maxRecordChars} characters; the stream is not a ClientAsk answer`,
    };
  }

  private keep(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars > this.maxRecordChars) this.fail(this.tooLarge());
  }

  private withPending(tail: string): string {
    if (this.pending.length === 0) return tail;
    this.pending.push(tail);
    const whole = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    return whole;
  }

  /** At the end of the body: a last line without newline still counts; a cut-off JSON object does not. */
  private flushUnfinished(): void {
    if (this.mode === 'sse') {
      if (this.pending.length > 0) this.processLine(this.withPending(''));
      if (!this.stopped) this.dispatch();
    } else if (this.mode === 'json' && this.depth > 0) {
      this.unreadable++;
    }
  }

  private emitWithoutFinal(): void {
    if (this.fragmentCount === 0 && this.unreadable > 0) {
      this.fail({
        type: 'error', source: 'decoder', code: null,
        message: `the answer stream held ${this.unreadable} unreadable record(s) and no answer; is the base URL a Chatbot Service?`,
      });
      return;
    }
    this.finish({
      type: 'final', questionId: null, answerId: null, answer: this.fragmentsJoined(),
      totalToken: null, noAnswer: null, incomplete: true,
    });
  }
}

/** Index of the first quote at or after `from` that no backslash escapes, or -1. */
function unescapedQuote(text: string, from: number): number {
  let quote = text.indexOf('"', from);
  while (quote !== -1 && backslashesBefore(text, quote, from) % 2 === 1) quote = text.indexOf('"', quote + 1);
  return quote;
}

/** How many backslashes run right before `at`, counting none before `floor`. */
function backslashesBefore(text: string, at: number, floor: number): number {
  let i = at;
  while (i > floor && text.charCodeAt(i - 1) === BACKSLASH) i--;
  return at - i;
}
