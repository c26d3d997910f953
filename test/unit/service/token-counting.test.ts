import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { countTokens, MAX_RUN_CHARS, SLICE_CHARS } from '../../../src/service/engines/tokens.js';

const exact = new Tiktoken(cl100kBase);
const exactCount = (text: string) => exact.encode(text, [], []).length;

describe('token counting (issue #7 item 10: no input may hold up the event loop)', () => {
  it('gives the exact cl100k_base count for ordinary text', async () => {
    const text = 'Three bedroom homes for sale in Austin under $500,000, near a park?\n\nAnd in Denver too.';
    expect(await countTokens(text)).toBe(exactCount(text));
  });

  it('counts a text that names a special token as text, instead of throwing', async () => {
    expect(await countTokens('what is <|endoftext|>?')).toBe(exactCount('what is <|endoftext|>?'));
  });

  it('counts a run longer than MAX_RUN_CHARS in parts, within a quarter of the exact count', async () => {
    for (const word of ['abcdefghij'.repeat(40), 'https://example.com/' + 'path/'.repeat(80), '漢字'.repeat(200)]) {
      expect(word.length).toBeGreaterThan(MAX_RUN_CHARS);
      const counted = await countTokens(word);
      expect(Math.abs(counted - exactCount(word))).toBeLessThanOrEqual(exactCount(word) / 4);
    }
  });

  it('hands the event loop back while counting a long text, so timers queued meanwhile run before it finishes', async () => {
    const events: string[] = [];
    const counting = countTokens('x'.repeat(SLICE_CHARS * 20)).then(() => events.push('counted'));
    setImmediate(() => events.push('other work'));
    await counting;
    expect(events).toEqual(['other work', 'counted']);
  });

  it('keeps emoji whole when it cuts a run', async () => {
    const emoji = '😀'.repeat(MAX_RUN_CHARS * 3);
    expect(await countTokens(emoji)).toBe(exactCount('😀'.repeat(MAX_RUN_CHARS / 2)) * 6);
  });
});
