import { describe, expect, it } from 'vitest';
import { continuationPoint, piecesOf } from '../../../src/gateway/relay/text-cuts.js';

describe('piecesOf: Markdown cut for a platform that takes a limited amount per call', () => {
  it('keeps every piece within the limit and gives the text back whole when joined, preferring line breaks', () => {
    const text = 'First line of the answer.\nSecond line, a little longer than the first.\nThird.';
    const pieces = piecesOf(text, 30);

    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(30);
    expect(pieces.join('')).toBe(text);
    expect(pieces[0]).toBe('First line of the answer.\n');
  });

  it('never splits a character written as two UTF-16 units', () => {
    const text = '🏠'.repeat(20);
    const pieces = piecesOf(text, 7);

    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) expect(piece).toBe([...piece].join(''));
    for (const piece of pieces) expect(piece.length % 2).toBe(0);
  });
});

describe('continuationPoint: where an answer can go on after a message that can no longer change', () => {
  it('is after the last finished sentence, or the whole text when it ends one', () => {
    expect(continuationPoint('The condo is downtown. The house has a gar')).toBe('The condo is downtown.'.length);
    expect(continuationPoint('The condo is downtown.')).toBe('The condo is downtown.'.length);
  });

  it('is never inside a code block', () => {
    const shown = 'Call it like this:\n```js\nconst homes = await list();\n';
    expect(continuationPoint(shown)).toBe('Call it like this:\n'.length);
  });

  it('is the start when nothing is finished yet (the text is shown again, never lost)', () => {
    expect(continuationPoint('The condo is')).toBe(0);
  });
});
