import { describe, expect, it } from 'vitest';
import {
  htmlVisibleText,
  parseMarkdown,
  plainMarkup,
  renderChunks,
  renderDocChunksFrom,
  renderMarkdown,
  visibleTextOf,
} from '../../../src/format/index.js';
import { telegramMarkup } from '../../../adapters/telegram/markdown.js';
import { slackMarkup } from '../../../adapters/slack/markdown.js';
import { whatsappMarkup } from '../../../adapters/whatsapp/markdown.js';
import { telegramHtmlProblems } from './telegram-html-validator.js';

const words = (count: number, word = 'word'): string => Array.from({ length: count }, () => word).join(' ');

describe("measure: a message's length as its platform counts it", () => {
  it('counts Telegram HTML after entity parsing: tags free, an entity one character, UTF-16 units', () => {
    expect(telegramMarkup.measure('<b>a &amp; b</b> <a href="https://x.io/?a=1&amp;b=2">x</a>')).toBe(7);
    expect(telegramMarkup.measure('&lt;&#60;&#x3c;&quot;')).toBe(4);
    expect(telegramMarkup.measure('😀')).toBe(2);
    expect(htmlVisibleText('<pre><code class="language-js">a &lt; b</code></pre>')).toBe('a < b');
  });

  it('counts the string as sent for the other formats', () => {
    expect(slackMarkup.measure('*a* &amp; b')).toBe(11);
    expect(whatsappMarkup.measure('*a* & b')).toBe(7);
    expect(plainMarkup.measure('abc')).toBe(3);
  });
});

describe('renderChunks', () => {
  it('returns the whole render as one chunk when it fits', () => {
    expect(renderChunks('**hi** there', telegramMarkup, 4096)).toEqual(['<b>hi</b> there']);
  });

  it('returns nothing for an answer with nothing visible', () => {
    expect(renderChunks('  \n\n ', telegramMarkup, 100)).toEqual([]);
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => renderChunks('x', plainMarkup, 0)).toThrow(RangeError);
  });

  it('prefers a paragraph break, then a line break, then a sentence end, then a space', () => {
    const paragraphs = `${words(5)}\n\n${words(5)}`;
    expect(renderChunks(paragraphs, plainMarkup, 40)).toEqual([words(5), words(5)]);
    const lines = `${words(5)}  \n${words(5)}`; // hard line break
    expect(renderChunks(lines, plainMarkup, 40)).toEqual([words(5), words(5)]);
    const sentences = 'One two three four. Five six seven eight nine';
    expect(renderChunks(sentences, plainMarkup, 30)).toEqual(['One two three four.', 'Five six seven eight nine']);
    expect(renderChunks(words(10), plainMarkup, 22)).toEqual([words(4), words(4), words(2)]);
  });

  it('hard-cuts a long word, never inside a surrogate pair', () => {
    expect(renderChunks('x'.repeat(25), plainMarkup, 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    const emoji = '😀'.repeat(6); // 12 UTF-16 units
    const chunks = renderChunks(emoji, telegramMarkup, 5);
    expect(chunks).toEqual(['😀😀', '😀😀', '😀😀']);
  });

  it('closes tags open at a cut and reopens them in the next chunk', () => {
    const chunks = renderChunks(`**${words(8)}** _end_`, telegramMarkup, 25);
    expect(chunks).toEqual(['<b>word word word word word</b>', '<b>word word word</b> <i>end</i>']);
  });

  it('splits a link into two links to the same URL, without cutting an entity', () => {
    const chunks = renderChunks('[a & b & c & d & e & f](https://x.io/?a=1&b=2)', telegramMarkup, 10);
    expect(chunks).toEqual([
      '<a href="https://x.io/?a=1&amp;b=2">a &amp; b &amp; c</a>',
      '<a href="https://x.io/?a=1&amp;b=2">&amp; d &amp; e &amp;</a>',
      '<a href="https://x.io/?a=1&amp;b=2">f</a>',
    ]);
  });

  it('closes a code block at a cut and reopens it with its language, keeping indentation', () => {
    const code = ['def f(a, b):', '    if a < b:', '        return a & b', '    return b'].join('\n');
    const chunks = renderChunks(`\`\`\`python\n${code}\n\`\`\``, telegramMarkup, 30);
    expect(chunks).toEqual([
      '<pre><code class="language-python">def f(a, b):\n    if a &lt; b:</code></pre>',
      '<pre><code class="language-python">        return a &amp; b</code></pre>',
      '<pre><code class="language-python">    return b</code></pre>',
    ]);
  });

  it('reopens Slack and WhatsApp code blocks and styles too, counting markers and escapes', () => {
    const slack = renderChunks(`\`\`\`\n${words(6, 'a&b')}\n\`\`\``, slackMarkup, 40);
    expect(slack).toEqual(['```a&amp;b a&amp;b a&amp;b a&amp;b```', '```a&amp;b a&amp;b```']);
    const whatsapp = renderChunks(`**${words(6)}**`, whatsappMarkup, 20);
    expect(whatsapp).toEqual(['*word word word*', '*word word word*']);
    for (const chunk of [...slack, ...whatsapp]) expect(chunk.length).toBeLessThanOrEqual(40);
  });

  it('drops a Slack link target rather than exceed the limit when the URL alone is too long', () => {
    const url = `https://example.com/${'x'.repeat(40)}`;
    const chunks = renderChunks(`[home](${url}) and more`, slackMarkup, 30);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(30);
    expect(chunks.join(' ')).toContain('home');
  });

  it('keeps every chunk of a long LLM answer valid and within 4096 visible characters', () => {
    const section =
      '## Section\n\nSome **bold** text & a [link](https://x.io/?q=1&r=2) and `a<b`.\n\n```ts\nconst x = a < b && c;\n```\n\n- item one\n- item _two_\n\n';
    const answer = section.repeat(80);
    const chunks = renderChunks(answer, telegramMarkup, 4096);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(telegramMarkup.measure(chunk)).toBeLessThanOrEqual(4096);
      expect(telegramHtmlProblems(chunk)).toEqual([]);
    }
    const whole = htmlVisibleText(renderMarkdown(answer, telegramMarkup)).replace(/\s+/g, '');
    expect(
      chunks
        .map((c) => htmlVisibleText(c))
        .join('')
        .replace(/\s+/g, ''),
    ).toBe(whole);
  });
});

describe('renderDocChunksFrom: the rest of an answer whose beginning is already shown', () => {
  const doc = parseMarkdown(
    'Before you visit: **Bring an ID. Viewings start at nine.** Then:\n\n```js\nconst homes = await list();\nshow(homes);\n```',
  );

  it("counts in the visible text from the answer's start, and gives each chunk the range it shows", () => {
    const visible = visibleTextOf(doc, whatsappMarkup);
    expect(visible).toBe(
      'Before you visit: Bring an ID. Viewings start at nine. Then:\n\nconst homes = await list();\nshow(homes);',
    );
    const chunks = renderDocChunksFrom(doc, whatsappMarkup, 40, 0);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks[0]!.from).toBe(0);
    expect(chunks.at(-1)!.to).toBe(visible.length);
    // Read one after another, the ranges cover the text once: a cut only drops the whitespace at it.
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0) expect(visible.slice(chunks[index - 1]!.to, chunk.from).trim()).toBe('');
    }
  });

  it('starting inside bold text or a code block, opens them again so the chunk is valid on its own', () => {
    const fromViewings = visibleTextOf(doc, whatsappMarkup).indexOf('Viewings');
    expect(renderDocChunksFrom(doc, whatsappMarkup, 4096, fromViewings).map((chunk) => chunk.text)).toEqual([
      '*Viewings start at nine.* Then:\n\n```const homes = await list();\nshow(homes);```',
    ]);
    const fromShow = visibleTextOf(doc, telegramMarkup).indexOf('show(');
    expect(renderDocChunksFrom(doc, telegramMarkup, 4096, fromShow).map((chunk) => chunk.text)).toEqual([
      '<pre><code class="language-js">show(homes);</code></pre>',
    ]);
  });
});
