import { describe, expect, it } from 'vitest';
import { piecesOf } from '../../../../src/gateway/relay/text-cuts.js';

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
