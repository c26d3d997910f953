import { describe, expect, it } from 'vitest';
import { createStreamDecoder, type DecodedStreamEvent } from '../../../src/upstream/stream-decoder.js';

const utf8 = new TextEncoder();

function decodeChunks(chunks: (string | Uint8Array)[]): DecodedStreamEvent[] {
  const decoder = createStreamDecoder();
  const events: DecodedStreamEvent[] = [];
  for (const chunk of chunks) events.push(...decoder.push(typeof chunk === 'string' ? utf8.encode(chunk) : chunk));
  events.push(...decoder.end());
  return events;
}

const finalObject = { QuestionID: 11, AnswerID: 12, Answer: 'Hello world', TotalToken: 42 };
const expectedFinal = {
  type: 'final',
  questionId: 11,
  answerId: 12,
  answer: 'Hello world',
  totalToken: 42,
  noAnswer: null,
  incomplete: false,
};
const expectedEvents = [{ type: 'fragment', content: 'Hello' }, { type: 'fragment', content: ' world' }, expectedFinal];

describe('the ClientAsk stream decoder', () => {
  it('reads SSE data lines, ignoring comments, event and id lines, up to [DONE]', () => {
    const body = [
      ': keep-alive',
      'event: message',
      'id: 1',
      'data: {"content":"Hello"}',
      '',
      'data: {"content":" world"}',
      '',
      `data: ${JSON.stringify(finalObject)}`,
      '',
      'data: [DONE]',
      '',
      '',
    ].join('\n');
    expect(decodeChunks([body])).toEqual(expectedEvents);
  });

  it('joins multi-line SSE data with newlines before parsing it', () => {
    const body =
      'data: {"content":\r\ndata: "Hello"}\r\n\r\ndata: {"content":" world"}\r\n\r\n' +
      `data: ${JSON.stringify(finalObject, null, 2).split('\n').join('\ndata: ')}\n\n`;
    expect(decodeChunks([body])).toEqual(expectedEvents);
  });

  it('reads bare JSON lines (NDJSON)', () => {
    const body = `{"content":"Hello"}\n{"content":" world"}\n${JSON.stringify(finalObject)}\n`;
    expect(decodeChunks([body])).toEqual(expectedEvents);
  });

  it('reads JSON objects back to back with no separator, braces and quotes inside strings included', () => {
    const body = `{"content":"a {\\"b\\"} }"}{"content":"}{"}${JSON.stringify({ ...finalObject, Answer: 'a {"b"} }}{' })}`;
    expect(decodeChunks([body])).toEqual([
      { type: 'fragment', content: 'a {"b"} }' },
      { type: 'fragment', content: '}{' },
      { ...expectedFinal, answer: 'a {"b"} }}{' },
    ]);
  });

  it('keeps a multi-byte character whole when a chunk boundary falls inside it', () => {
    const bytes = utf8.encode('data: {"content":"Grüße 🏠"}\n\n');
    const cut = bytes.indexOf(0xf0) + 2; // inside the 4-byte house emoji
    const events = decodeChunks([bytes.slice(0, cut), bytes.slice(cut)]);
    expect(events[0]).toEqual({ type: 'fragment', content: 'Grüße 🏠' });
  });

  it('reads field names in any casing, and messageid as the answer id', () => {
    const body = '{"Content":"Hi"}\n{"questionid":"7","messageid":8,"answer":"Hi","totaltoken":3,"NoAnswer":true}\n';
    expect(decodeChunks([body])).toEqual([
      { type: 'fragment', content: 'Hi' },
      { type: 'final', questionId: 7, answerId: 8, answer: 'Hi', totalToken: 3, noAnswer: true, incomplete: false },
    ]);
  });

  it('treats TaskCompleted without Answer as the final, its content being the whole answer', () => {
    const body = '{"content":"Hi"}\n{"messageid":5,"content":"Hi there","TaskCompleted":true}\n';
    expect(decodeChunks([body]).at(-1)).toMatchObject({
      type: 'final',
      answer: 'Hi there',
      answerId: 5,
      incomplete: false,
    });
  });

  it('ends with an incomplete final holding the fragments joined when the final object never came', () => {
    expect(decodeChunks(['data: {"content":"Hel"}\n\ndata: {"content":"lo"}\n\n'])).toEqual([
      { type: 'fragment', content: 'Hel' },
      { type: 'fragment', content: 'lo' },
      {
        type: 'final',
        questionId: null,
        answerId: null,
        answer: 'Hello',
        totalToken: null,
        noAnswer: null,
        incomplete: true,
      },
    ]);
  });

  it('ignores everything after the final object, so there is exactly one final', () => {
    const body = `${JSON.stringify(finalObject)}\n{"content":"late"}\n${JSON.stringify(finalObject)}`;
    expect(decodeChunks([body])).toEqual([expectedFinal]);
  });

  it('accepts a last SSE event that is not followed by a blank line', () => {
    expect(decodeChunks([`data: ${JSON.stringify(finalObject)}`])).toEqual([expectedFinal]);
  });

  it('unwraps objects sent inside the response envelope', () => {
    const body = '{"Data":{"content":"Hi"},"Success":true,"Code":200}';
    expect(decodeChunks([body])[0]).toEqual({ type: 'fragment', content: 'Hi' });
  });

  it('reports an error object in the stream as an upstream error and stops', () => {
    const body = 'data: {"content":"Hi"}\n\ndata: {"Success":false,"Code":429,"Message":"Too many messages"}\n\n';
    expect(decodeChunks([body])).toEqual([
      { type: 'fragment', content: 'Hi' },
      { type: 'error', source: 'upstream', code: 429, message: 'Too many messages' },
    ]);
  });

  it('reports a body with nothing readable in it as a decoder error rather than an empty answer', () => {
    const events = decodeChunks(['<html><body>Bad gateway</body></html>\n']);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', source: 'decoder' });
  });

  it('refuses a record larger than its limit instead of buffering without bound', () => {
    const decoder = createStreamDecoder({ maxRecordChars: 100 });
    const events = decoder.push(utf8.encode(`{"content":"${'x'.repeat(200)}`));
    expect(events).toEqual([expect.objectContaining({ type: 'error', source: 'decoder' })]);
    expect(decoder.end()).toEqual([]);
  });

  it('treats a missing final after a truncated JSON object as incomplete, keeping the fragments', () => {
    expect(decodeChunks(['{"content":"Hi"}{"Answer":"Hi th']).at(-1)).toMatchObject({ answer: 'Hi', incomplete: true });
  });

  it('reads backslash runs before quotes right in JSON mode, wherever the chunks are cut', () => {
    const answer = 'a\\"b\\\\"c\\\\\\"}{ "\\\\';
    const body = utf8.encode(`{"content":"x"}{"Answer":${JSON.stringify(answer)},"QuestionID":1}`);
    for (let cut = 0; cut <= body.length; cut++) {
      expect(decodeChunks([body.slice(0, cut), body.slice(cut)]).at(-1)).toMatchObject({ answer, incomplete: false });
    }
  });

  it('reads a fragment event in place only when a blank line ends it; another data line joins it', () => {
    const body = 'data: {"Content":"a\\u00e9\\n"}\r\n\r\ndata: {"content":"b"}\ndata: x\n\ndata:{"content":"c"}\n\n';
    expect(decodeChunks([body]).slice(0, -1)).toEqual([
      { type: 'fragment', content: 'aé\n' },
      { type: 'fragment', content: 'c' },
    ]);
  });

  it('applies the record limit to an SSE fragment event that arrives whole in one chunk', () => {
    const decoder = createStreamDecoder({ maxRecordChars: 100 });
    const events = decoder.push(utf8.encode(`data: {"content":"${'x'.repeat(200)}"}\n\n`));
    expect(events).toEqual([expect.objectContaining({ type: 'error', source: 'decoder' })]);
  });
});
