import { createParser, type EventSourceParser, type ParseError } from 'eventsource-parser';
import type { AskFinal } from './api.js';
import { isBlank, OPEN_BRACE, plainFragmentContent, plainFragmentEnd } from './json-text.js';
import { JsonObjectSplitter } from './json-objects.js';
import { classifyStreamObject, nothingReadable, recordTooLarge, type DecodedStreamEvent } from './stream-events.js';

export type { DecodedStreamEvent, StreamErrorEvent } from './stream-events.js';

/**
 * Turns the bytes of a streamed ClientAsk answer into events. Pure: no I/O, no
 * timers. It accepts the three framings seen in the wild, split at any byte:
 *  - SSE (read by eventsource-parser): `data:` lines (several joined with "\n"),
 *    `:` comments, `event:`/`id:` lines ignored, a blank line ends an event,
 *    `data: [DONE]` ends the stream;
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

export function createStreamDecoder(options: StreamDecoderOptions = {}): StreamDecoder {
  return new AskStreamDecoder(options.maxRecordChars ?? DEFAULT_MAX_RECORD_CHARS);
}

class AskStreamDecoder implements StreamDecoder {
  /** Keeps a character cut by a chunk for the next one; drops a leading U+FEFF. */
  private readonly utf8 = new TextDecoder();
  private mode: 'detect' | 'json' | 'sse' = 'detect';
  private readonly objects: JsonObjectSplitter;
  private sse: EventSourceParser | undefined;
  /** Set once a final, an error or `[DONE]` arrived: everything after is ignored. */
  private stopped = false;
  private terminal: 'final' | 'error' | null = null;
  private ended = false;
  /** The answer so far, one string per push(): kept per fragment, they outlived the young generation (GC was a third of the time). */
  private readonly answerParts: string[] = [];
  private readonly pushed: string[] = [];
  private fragmentCount = 0;
  private unreadable = 0;
  private out: DecodedStreamEvent[] = [];

  constructor(private readonly maxRecordChars: number) {
    this.objects = new JsonObjectSplitter(maxRecordChars);
  }

  push(chunk: Uint8Array): DecodedStreamEvent[] {
    if (!this.stopped && !this.ended) this.read(this.utf8.decode(chunk, { stream: true }));
    return this.take();
  }

  end(): DecodedStreamEvent[] {
    if (this.ended) return [];
    this.ended = true;
    if (!this.stopped) {
      this.read(this.utf8.decode());
      // A last line without its line break, and a last event without its blank line, still count.
      if (!this.stopped && this.mode === 'sse') this.sse?.feed('\n\n');
      // A cut-off JSON object does not.
      if (!this.stopped && this.mode === 'json' && this.objects.hasUnfinished) this.unreadable++;
    }
    if (this.terminal === null) this.endWithoutFinal();
    return this.take();
  }

  private take(): DecodedStreamEvent[] {
    this.keepPushed();
    const events = this.out;
    this.out = [];
    return events;
  }

  private read(text: string): void {
    let from = 0;
    if (this.mode === 'detect') {
      while (from < text.length && isBlank(text.charCodeAt(from))) from++;
      if (from === text.length) return;
      this.mode = text.charCodeAt(from) === OPEN_BRACE ? 'json' : 'sse';
    }
    if (this.mode === 'json') {
      const rest = this.objects.split(text, from, this.onRecord, () => this.stopped);
      if (rest === 'too-large') return this.fail(recordTooLarge(this.maxRecordChars));
      if (rest === -1 || this.stopped) return;
      this.mode = 'sse';
      from = rest;
    }
    this.sseParser().feed(from === 0 ? text : text.slice(from));
  }

  private sseParser(): EventSourceParser {
    this.sse ??= createParser({
      maxBufferSize: this.maxRecordChars,
      onEvent: ({ data }) => {
        if (this.stopped) return;
        if (data.length >= this.maxRecordChars) this.fail(recordTooLarge(this.maxRecordChars));
        else if (data.trim() === '[DONE]') this.stopped = true;
        else this.record(data, 0, data.length, false);
      },
      onError: (error: ParseError) => {
        if (this.stopped) return;
        if (error.type === 'max-buffer-size-exceeded') return this.fail(recordTooLarge(this.maxRecordChars));
        if (error.type !== 'unknown-field') return;
        // Not SSE: a bare JSON line (NDJSON), `[DONE]` alone, or more likely an HTML or text error page.
        const line = error.line ?? '';
        if (line.charCodeAt(0) === OPEN_BRACE) this.record(line, 0, line.length, false);
        else if (line.trim() === '[DONE]') this.stopped = true;
        else this.unreadable++;
      },
    });
    return this.sse;
  }

  private readonly onRecord = this.record.bind(this);

  /** One JSON record (or what should be one): text[start, end); `plain` if already known to be `{"content":"…"}`. */
  private record(text: string, start: number, end: number, plain: boolean): void {
    if (this.stopped) return;
    // The commonest record, without JSON.parse and the field lookup of classifyStreamObject.
    if (plain || plainFragmentEnd(text, start) === end) {
      const content = plainFragmentContent(text, start, end);
      if (content === null) this.unreadable++;
      else if (content !== '') this.fragment(content);
      return;
    }
    const json = start === 0 && end === text.length ? text : text.slice(start, end);
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      if (json.trim() !== '') this.unreadable++;
      return;
    }
    const object = classifyStreamObject(value);
    if (object === null) return;
    if (object.type === 'fragment') this.fragment(object.content);
    else if (object.type === 'final')
      this.finish({ ...object.final, answer: object.answerFromFragments ? this.answerSoFar() : object.final.answer });
    else this.fail(object);
  }

  private fragment(content: string): void {
    this.pushed.push(content);
    this.fragmentCount++;
    this.out.push({ type: 'fragment', content });
  }

  private keepPushed(): void {
    if (this.pushed.length === 0) return;
    this.answerParts.push(this.pushed.length === 1 ? (this.pushed[0] ?? '') : this.pushed.join(''));
    this.pushed.length = 0;
  }

  private answerSoFar(): string {
    this.keepPushed();
    return this.answerParts.join('');
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

  private endWithoutFinal(): void {
    if (this.fragmentCount === 0 && this.unreadable > 0) return this.fail(nothingReadable(this.unreadable));
    this.finish({
      type: 'final',
      questionId: null,
      answerId: null,
      answer: this.answerSoFar(),
      totalToken: null,
      noAnswer: null,
      incomplete: true,
    });
  }
}
