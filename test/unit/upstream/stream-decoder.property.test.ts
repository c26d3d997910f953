import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AskStreamEvent } from '../../../src/upstream/api.js';
import { createStreamDecoder, type DecodedStreamEvent } from '../../../src/upstream/stream-decoder.js';

/** Characters that stress the framing: delimiters, escapes, SSE syntax and multi-byte UTF-8. */
const trickyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('{', '}', '"', '\\', '\n', '\r', ':', 'data: ', '[DONE]', '\u2028', 'é', '🏠', '中'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});

interface StreamShape {
  fragments: string[];
  final: { QuestionID: number; AnswerID: number; Answer: string; TotalToken: number; noAnswer?: boolean } | null;
}

const streamShape: fc.Arbitrary<StreamShape> = fc.record({
  fragments: fc.array(
    trickyText.filter((text) => text !== ''),
    { maxLength: 8 },
  ),
  final: fc.option(
    fc.record(
      {
        QuestionID: fc.nat(),
        AnswerID: fc.nat(),
        Answer: trickyText,
        TotalToken: fc.nat(),
        noAnswer: fc.option(fc.boolean(), { nil: undefined }),
      },
      { requiredKeys: ['QuestionID', 'AnswerID', 'Answer', 'TotalToken'] },
    ),
    { nil: null },
  ),
});

const sseStyle = fc.record({
  eol: fc.constantFrom('\n', '\r\n', '\r'),
  multiLineData: fc.boolean(),
  comments: fc.boolean(),
  done: fc.boolean(),
});

/** A framing of the objects: SSE (with its optional features), NDJSON, or objects back to back. */
const framing = fc.oneof(
  sseStyle.map((style) => ({ kind: 'sse' as const, ...style })),
  fc.constantFrom('\n', '\r\n').map((eol) => ({ kind: 'ndjson' as const, eol })),
  fc.constantFrom('', ' ', '\n\n').map((gap) => ({ kind: 'concat' as const, gap })),
);

type Framing = typeof framing extends fc.Arbitrary<infer F> ? F : never;

function encode(shape: StreamShape, how: Framing): Uint8Array {
  const objects: object[] = [...shape.fragments.map((content) => ({ content })), ...(shape.final ? [shape.final] : [])];
  let body: string;
  if (how.kind === 'sse') {
    body =
      objects
        .map((object, index) => {
          const json = how.multiLineData ? JSON.stringify(object, null, 1) : JSON.stringify(object);
          const data = json
            .split('\n')
            .map((line) => `data: ${line}`)
            .join(how.eol);
          const extras = how.comments ? `: ping ${index}${how.eol}event: message${how.eol}id: ${index}${how.eol}` : '';
          return `${extras}${data}${how.eol}${how.eol}`;
        })
        .join('') + (how.done ? `data: [DONE]${how.eol}${how.eol}` : '');
  } else if (how.kind === 'ndjson') {
    body = objects.map((object) => JSON.stringify(object) + how.eol).join('');
  } else {
    body = objects.map((object) => JSON.stringify(object)).join(how.gap);
  }
  return new TextEncoder().encode(body);
}

function decodeSplit(bytes: Uint8Array, cuts: number[]): DecodedStreamEvent[] {
  const decoder = createStreamDecoder();
  const events: DecodedStreamEvent[] = [];
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of [...points, bytes.length]) {
    events.push(...decoder.push(bytes.subarray(from, point)));
    from = point;
  }
  events.push(...decoder.end());
  return events;
}

function expectedEvents(shape: StreamShape): AskStreamEvent[] {
  const fragments = shape.fragments.map((content) => ({ type: 'fragment' as const, content }));
  const final: AskStreamEvent = shape.final
    ? {
        type: 'final',
        questionId: shape.final.QuestionID,
        answerId: shape.final.AnswerID,
        answer: shape.final.Answer,
        totalToken: shape.final.TotalToken,
        noAnswer: shape.final.noAnswer ?? null,
        incomplete: false,
      }
    : {
        type: 'final',
        questionId: null,
        answerId: null,
        answer: shape.fragments.join(''),
        totalToken: null,
        noAnswer: null,
        incomplete: true,
      };
  return [...fragments, final];
}

describe('the stream decoder, for any stream in any framing split at any bytes', () => {
  it('yields the fragments in order, then exactly one final', () => {
    fc.assert(
      fc.property(streamShape, framing, fc.array(fc.nat(), { maxLength: 40 }), (shape, how, cuts) => {
        expect(decodeSplit(encode(shape, how), cuts)).toEqual(expectedEvents(shape));
      }),
      { numRuns: 500 },
    );
  });

  it('yields the same events whether the bytes come whole or one at a time', () => {
    fc.assert(
      fc.property(streamShape, framing, (shape, how) => {
        const bytes = encode(shape, how);
        const everyByte = Array.from({ length: bytes.length }, (_, index) => index);
        expect(decodeSplit(bytes, everyByte)).toEqual(decodeSplit(bytes, []));
      }),
      { numRuns: 200 },
    );
  });
});
