import type { AskFinal, AskStreamEvent } from './api.js';
import { isPlainObject } from './case-insensitive.js';

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
    type: 'error',
    source: 'decoder',
    code: null,
    message: `a record of the answer stream exceeded ${maxRecordChars} characters; the stream is not a ClientAsk answer`,
  };
}

export function nothingReadable(unreadable: number): StreamErrorEvent {
  return {
    type: 'error',
    source: 'decoder',
    code: null,
    message: `the answer stream held ${unreadable} unreadable record(s) and no answer; is the base URL a Chatbot Service?`,
  };
}

/** What one JSON object of a ClientAsk stream means; null for objects we ignore (keep-alives, metadata). */
export function classifyStreamObject(value: unknown): StreamObject | null {
  if (!isPlainObject(value)) return null;
  const fields = lowerCaseFields(value);
  if (fields.get('success') === false) {
    const code = toIntOrNull(fields.get('code'));
    const message =
      typeof fields.get('message') === 'string' && fields.get('message') !== ''
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
