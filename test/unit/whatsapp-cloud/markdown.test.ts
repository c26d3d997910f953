/**
 * Answers in WhatsApp's formatting, and a long answer split within 4,096 characters at
 * paragraph or sentence ends, never inside a word, a link or a bold pair.
 */
import { describe, expect, it } from 'vitest';
import { CLOUD_MAX_MESSAGE_LENGTH } from '../../../adapters/whatsapp-cloud/capabilities.js';
import { renderChunks, renderMarkdown } from '../../../src/format/index.js';
import { whatsappMarkup } from '../../../src/contract.js';

describe('WhatsApp Cloud markup', () => {
  it("writes WhatsApp's markers, lists as text, links written out", () => {
    expect(renderMarkdown('**Bold**, _it_, ~~gone~~ and `code`', whatsappMarkup)).toBe(
      '*Bold*, _it_, ~gone~ and `code`',
    );
    expect(renderMarkdown('- one\n- two', whatsappMarkup)).toMatch(/one\n.*two/);
    expect(renderMarkdown('See [the listing](https://example.com/l/1).', whatsappMarkup)).toBe(
      'See the listing (https://example.com/l/1).',
    );
    expect(renderMarkdown('> quoted', whatsappMarkup)).toBe('> quoted');
  });

  it("splits a long answer at paragraph ends within 4,096 characters, each message's bold pairs whole", () => {
    const paragraph = (n: number) =>
      `**Home ${n}.** ${'A bright flat with a garden and a view of the river. '.repeat(12).trim()} See https://example.com/homes/${n}.`;
    const answer = Array.from({ length: 20 }, (_, i) => paragraph(i + 1)).join('\n\n');
    const chunks = renderChunks(answer, whatsappMarkup, CLOUD_MAX_MESSAGE_LENGTH);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(CLOUD_MAX_MESSAGE_LENGTH);
      // Whole paragraphs: each message starts with a home's bold title and ends with its link.
      expect(chunk).toMatch(/^\*Home \d+\.\*/);
      expect(chunk).toMatch(/https:\/\/example\.com\/homes\/\d+\.$/);
      expect((chunk.match(/\*/g) ?? []).length % 2).toBe(0);
    }
    expect(chunks.join('\n\n')).toBe(renderMarkdown(answer, whatsappMarkup));
  });
});
