/**
 * The gateway counts a ClientAsk `content` the way the service's own check does
 * (src/service/routes/ask.ts: zod's `max()` on a string), so that no message passes
 * the gateway and is then refused by the service, and none is refused that it would
 * take: for any text, including emoji and lone surrogates, zod takes it at the
 * gateway's count and refuses it at one less.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CLIENT_ASK_CONTENT_MAX_CHARS,
  clientAskContentLength,
  isClientAskContentTooLong,
} from '../../../src/upstream/limits.js';

/** Text where code points and UTF-16 units part: emoji (pairs), lone halves of a pair, plain letters. */
const mixedText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', ' ', 'é', '中', '🏡', '👍🏽', '\uD83C', '\uDFE1'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  minLength: 1,
  maxLength: 40,
});

const withinByZod = (text: string, max: number) => z.string().max(max).safeParse(text).success;

describe('the length of a ClientAsk content', () => {
  it("is the length zod's max() measures, whatever the text holds", () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        const length = clientAskContentLength(text);
        expect(withinByZod(text, length)).toBe(true);
        expect(withinByZod(text, length - 1)).toBe(false);
      }),
    );
  });

  it(`is too long exactly when the service refuses it at ${CLIENT_ASK_CONTENT_MAX_CHARS} characters`, () => {
    const texts = [
      'x'.repeat(CLIENT_ASK_CONTENT_MAX_CHARS),
      'x'.repeat(CLIENT_ASK_CONTENT_MAX_CHARS + 1),
      '🏡'.repeat(CLIENT_ASK_CONTENT_MAX_CHARS),
      '🏡'.repeat(CLIENT_ASK_CONTENT_MAX_CHARS + 1),
      // A lone half of a pair is a character of its own.
      '\uD83C'.repeat(CLIENT_ASK_CONTENT_MAX_CHARS + 1),
    ];
    expect(texts.map(isClientAskContentTooLong)).toEqual([false, true, false, true, true]);
    expect(texts.map((text) => !withinByZod(text, CLIENT_ASK_CONTENT_MAX_CHARS))).toEqual([
      false,
      true,
      false,
      true,
      true,
    ]);
  });
});
