import { describe, expect, it } from 'vitest';
import { createStreamDecoder, type DecodedStreamEvent } from '../../../src/upstream/stream-decoder.js';

/** The byte-level fast paths: fragments read from bytes, and a final whose Answer is the fragments joined. */

const utf8 = new TextEncoder();

function decodeAt(body: Uint8Array, cuts: number[]): DecodedStreamEvent[] {
  const decoder = createStreamDecoder();
  const events: DecodedStreamEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, body.length]) {
    events.push(...decoder.push(body.subarray(from, cut)));
    from = cut;
  }
  return [...events, ...decoder.end()];
}

/** Every split of `body` in two gives `expected`. */
function expectAnySplit(body: Uint8Array, expected: unknown[]): void {
  for (let cut = 0; cut <= body.length; cut++) expect(decodeAt(body, [cut])).toEqual(expected);
}

const final = (answer: string, incomplete = false) => ({
  type: 'final',
  questionId: incomplete ? null : 1,
  answerId: incomplete ? null : 2,
  answer,
  totalToken: incomplete ? null : 3,
  noAnswer: null,
  incomplete,
});

const tricky = ['a\\"b\\\\', '\\ud83c', '\\udfe0 ok', 'Grüße 🏠 中文', '\\u00e9\\n\\t\\/', '\uFEFFbom inside'];
const contents = ['a"b\\', '\ud83c', '\udfe0 ok', 'Grüße 🏠 中文', 'é\n\t/', '\uFEFFbom inside'];

describe('the byte-level stream decoder', () => {
  it('reads escapes, split surrogate escapes and multi-byte UTF-8 in fragments, wherever the chunks are cut', () => {
    const sse =
      tricky.map((raw) => `data: {"content":"${raw}"}\n\n`).join('') +
      'data: {"QuestionID":1,"AnswerID":2,"Answer":"x","TotalToken":3}\n\n';
    expectAnySplit(utf8.encode(sse), [...contents.map((content) => ({ type: 'fragment', content })), final('x')]);
  });

  it('takes the final Answer from the fragments when it is their bytes joined, in any key order and casing', () => {
    const joined = tricky.join('');
    for (const object of [
      `{"QuestionID":1,"AnswerID":2,"Answer":"${joined}","TotalToken":3}`,
      `{ "answer" : "${joined}" , "totaltoken":"3","questionid":1,"AnswerId":2 }`,
      `{"TotalToken":3,"AnswerID":2,"ANSWER":"${joined}","QuestionID":1}`,
    ]) {
      for (const frame of ['sse', 'ndjson', 'concat']) {
        const records = [...tricky.map((raw) => `{"content":"${raw}"}`), object];
        const body =
          frame === 'sse'
            ? records.map((r) => `data: ${r}\r\n\r\n`).join('')
            : records.join(frame === 'ndjson' ? '\n' : '');
        const events = decodeAt(utf8.encode(body), []);
        expect(events.at(-1)).toEqual(final(contents.join('')));
        expect(events).toHaveLength(contents.length + 1);
      }
    }
  });

  it('prefers the exact lower-case answer key and keeps a different Answer as sent', () => {
    const body = '{"content":"Hi"}{"Answer":"Hi","answer":"Bye","QuestionID":1,"AnswerID":2,"TotalToken":3}';
    expect(decodeAt(utf8.encode(body), []).at(-1)).toEqual(final('Bye'));
    const other = '{"content":"Hi"}{"Answer":"Hi!","QuestionID":1,"AnswerID":2,"TotalToken":3}';
    expect(decodeAt(utf8.encode(other), []).at(-1)).toEqual(final('Hi!'));
  });

  it('reads a final wrapped in the envelope, or with content not the first key, the slow way', () => {
    const body =
      '{"content":"Hi"}\n{"Data":{"Answer":"Hi","QuestionID":1,"AnswerID":2,"TotalToken":3},"Success":true}\n' +
      '{"Answer":"late"}';
    expect(decodeAt(utf8.encode(body), []).at(-1)).toEqual(final('Hi'));
    const notFirst = '{"x":1,"content":"Hi"}{"QuestionID":1,"AnswerID":2,"Answer":"Hi","TotalToken":3}';
    expect(decodeAt(utf8.encode(notFirst), [])).toEqual([{ type: 'fragment', content: 'Hi' }, final('Hi')]);
  });

  it('skips a byte order mark at the start, also when a chunk cuts it', () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8.encode('{"content":"Hi"}\n')]);
    expectAnySplit(body, [{ type: 'fragment', content: 'Hi' }, final('Hi', true)]);
  });

  it('decodes invalid UTF-8 in a fragment on its own, as the text decoder would', () => {
    const body = new Uint8Array([
      ...utf8.encode('data: {"content":"a'),
      0xe4,
      0xb8,
      ...utf8.encode('"}\n\ndata: {"content":"'),
      0xad,
      ...utf8.encode('b"}\n\n'),
    ]);
    expectAnySplit(body, [
      { type: 'fragment', content: 'a\uFFFD' },
      { type: 'fragment', content: '\uFFFDb' },
      final('a\uFFFD\uFFFDb', true),
    ]);
  });

  it('keeps a carried-over line intact although the carry buffer is longer than what it holds', () => {
    const body = utf8.encode('data: {"content":"Half an"}\n\ndata: {"content":" answer"}\n\n');
    const cuts = Array.from({ length: Math.floor(body.length / 7) }, (_, k) => (k + 1) * 7);
    expect(decodeAt(body, cuts).at(-1)).toEqual(final('Half an answer', true));
  });
});
