/**
 * The answer every contender gives: 600 characters in 10 chunks of 60, cut
 * mid-word like a model's token stream. Plain sentences (only '.' and ',' to
 * escape), so each contender's formatting leaves the visible text unchanged and
 * "complete" can mean: the final visible text equals ANSWER exactly.
 */
const SENTENCES = [
  'The house on Maple Street has 3 bedrooms and 2 baths.',
  'It was built in 1998 and sits on a quiet corner lot with old oak trees.',
  'The kitchen was redone last year, with a gas range and a large pantry.',
  'A short walk takes you to the park, the library and two good schools.',
  'The garage fits two cars and has a workbench along the back wall.',
  'Upstairs, the main bedroom looks over the garden and has its own bath.',
  'The basement is dry and finished, a good place for a study or a gym.',
  'Taxes are moderate for the area, and the roof is only six years old.',
  'The owners would like to close within sixty days of an accepted offer.',
  'An open house is planned for Sunday afternoon, and visits are welcome.',
];

const CHUNKS_COUNT = 10;
const LENGTH = 600;

function build(): string {
  const text = SENTENCES.join(' ');
  if (text.length < LENGTH) throw new Error('bench/peers/answer.ts: the sentences are shorter than the answer');
  return `${text
    .slice(0, LENGTH - 1)
    .trimEnd()
    .padEnd(LENGTH - 1, 'x')}.`;
}

export const ANSWER = build();
export const CHUNKS: string[] = Array.from({ length: CHUNKS_COUNT }, (_, i) =>
  ANSWER.slice(i * (LENGTH / CHUNKS_COUNT), (i + 1) * (LENGTH / CHUNKS_COUNT)),
);
