import { describe, expect, it } from 'vitest';
import { parseMarkdown, plainMarkup, renderDoc, renderMarkdown } from '../../../src/format/index.js';
import { telegramMarkup } from '../../../adapters/telegram/markdown.js';
import { slackMarkup } from '../../../adapters/slack/markdown.js';
import { whatsappMarkup } from '../../../adapters/whatsapp/markdown.js';
import { BOLD } from '../../../src/format/styled.js';
import { telegramHtmlProblems } from './telegram-html-validator.js';

const telegram = (md: string): string => renderMarkdown(md, telegramMarkup);
const slack = (md: string): string => renderMarkdown(md, slackMarkup);
const whatsapp = (md: string): string => renderMarkdown(md, whatsappMarkup);
const plain = (md: string): string => renderMarkdown(md, plainMarkup);

describe('parseMarkdown', () => {
  it('parses once into a doc that renders to every format', () => {
    const doc = parseMarkdown('Hi **there**');
    expect(doc.blocks).toEqual([
      {
        kind: 'paragraph',
        content: [
          { kind: 'text', text: 'Hi ' },
          { kind: 'strong', children: [{ kind: 'text', text: 'there' }] },
        ],
      },
    ]);
    expect(renderDoc(doc, telegramMarkup)).toBe('Hi <b>there</b>');
    expect(renderDoc(doc, plainMarkup)).toBe('Hi there');
  });

  it('resolves character references in text but not in code', () => {
    expect(plain('Tom &amp; Jerry &#169; `&amp;`')).toBe('Tom & Jerry © &amp;');
  });
});

describe('telegram-html', () => {
  it('renders inline styles with the tags Telegram accepts', () => {
    expect(telegram('**b** *i* _i_ ~~s~~ `c`')).toBe('<b>b</b> <i>i</i> <i>i</i> <s>s</s> <code>c</code>');
    expect(telegram('**bold _both_**')).toBe('<b>bold <i>both</i></b>');
  });

  it('escapes & < > and quotes in text and in code, as entities Telegram decodes', () => {
    expect(telegram('1 < 2 & 3 > 2 "q"')).toBe('1 &lt; 2 &amp; 3 &gt; 2 &quot;q&quot;');
    expect(telegram('`a<b && c>d`')).toBe('<code>a&lt;b &amp;&amp; c&gt;d</code>');
    expect(telegram('```\nif (a < b && c) {}\n```')).toBe('<pre>if (a &lt; b &amp;&amp; c) {}</pre>');
  });

  it('shows raw HTML from the model as text, except <br> which is a line break', () => {
    expect(telegram('<script>x</script>')).toBe('&lt;script&gt;x&lt;/script&gt;');
    expect(telegram('a <u>b</u><br>c')).toBe('a &lt;u&gt;b&lt;/u&gt;\nc');
  });

  it('writes links with the URL escaped for an attribute', () => {
    expect(telegram('[Tom & co](https://x.io/?a=1&b="2")')).toBe(
      '<a href="https://x.io/?a=1&amp;b=&quot;2&quot;">Tom &amp; co</a>',
    );
    expect(telegram('see https://x.io/a_b?c=1&d=2')).toBe(
      'see <a href="https://x.io/a_b?c=1&amp;d=2">https://x.io/a_b?c=1&amp;d=2</a>',
    );
  });

  it('does not link what Telegram would refuse, and keeps code out of links', () => {
    expect(telegram('[run](javascript:alert(1)) [rel](/docs)')).toBe('run rel');
    expect(telegram('[**see** `x`](https://x.io)')).toBe('<a href="https://x.io"><b>see</b> x</a>');
  });

  it('renders fenced code with its language', () => {
    expect(telegram('```ts\nconst a = 1;\n```')).toBe('<pre><code class="language-ts">const a = 1;</code></pre>');
  });

  it('renders headings as bold lines and separates blocks by a blank line', () => {
    expect(telegram('# Title\n\nText\n\n---\n\nEnd')).toBe('<b>Title</b>\n\nText\n\n———\n\nEnd');
  });

  it('renders lists as bullet and number lines, nested ones indented', () => {
    expect(telegram('- a\n- b\n  - c')).toBe('• a\n• b\n  ◦ c');
    expect(telegram('3. x\n4. **y**')).toBe('3. x\n4. <b>y</b>');
    expect(telegram('- [ ] todo\n- [x] done')).toBe('☐ todo\n☑ done');
  });

  it('renders blockquotes as <blockquote>, with code blocks kept outside it', () => {
    expect(telegram('> a **b**\n> c')).toBe('<blockquote>a <b>b</b>\nc</blockquote>');
    expect(telegram('> > nested')).toBe('<blockquote>nested</blockquote>');
    const quotedCode = telegram('> look:\n> ```\n> x\n> ```');
    expect(quotedCode).toBe('<blockquote>look:</blockquote>\n\n<pre>x</pre>');
    expect(telegramHtmlProblems(quotedCode)).toEqual([]);
  });

  it('renders tables as an aligned <pre> block', () => {
    expect(telegram('| City | Price |\n|---|---:|\n| Austin | $5 |\n| LA | $10 |')).toBe(
      '<pre>City   | Price\n-------+------\nAustin |    $5\nLA     |   $10</pre>',
    );
  });

  it('produces messages the strict checker accepts for a full LLM-style answer', () => {
    const answer = [
      '## Listings in *Austin* & nearby',
      '',
      '1. **3 beds**, `MLS#123` — [view](https://x.io/?id=1&s=2)',
      '2. ~~sold~~',
      '',
      '> Prices < $500k',
      '',
      '```py',
      'print(1 < 2)',
      '```',
      '',
      '| a | b |',
      '|---|---|',
      '| <x> | & |',
    ].join('\n');
    expect(telegramHtmlProblems(telegram(answer))).toEqual([]);
  });
});

describe('slack-mrkdwn', () => {
  it('uses Slack markers and escapes & < > everywhere', () => {
    expect(slack('**b** *i* ~~s~~ `a<b` 1 & 2')).toBe('*b* _i_ ~s~ `a&lt;b` 1 &amp; 2');
    expect(slack('```js\nx => x && y\n```')).toBe('```x =&gt; x &amp;&amp; y```');
  });

  it('writes links as <url|text> with the URL made safe', () => {
    expect(slack('[Tom & co](https://x.io/?a=1&b=2|3)')).toBe('<https://x.io/?a=1&amp;b=2%7C3|Tom &amp; co>');
    expect(slack('[**bold** link](https://x.io)')).toBe('<https://x.io|bold link>');
  });

  it('keeps markers next to the words they style', () => {
    const runs = [
      { text: 'a', marks: [] },
      { text: ' bold ', marks: [BOLD] },
      { text: 'b', marks: [] },
    ];
    expect(slackMarkup.serialize(runs)).toBe('a *bold* b');
    expect(
      slackMarkup.serialize([
        { text: ' ', marks: [BOLD] },
        { text: 'x', marks: [] },
      ]),
    ).toBe(' x');
    expect(slack('***both***')).toBe('_*both*_');
  });

  it('quotes with a literal "> " line prefix, headings bold', () => {
    expect(slack('> a\n> b\n\n# H')).toBe('> a\n> b\n\n*H*');
  });
});

describe('whatsapp', () => {
  it('uses WhatsApp markers and never escapes', () => {
    expect(whatsapp('**b** _i_ ~~s~~ `c` 1 < 2 & 3')).toBe('*b* _i_ ~s~ `c` 1 < 2 & 3');
    expect(whatsapp('```\nmono\n```')).toBe('```mono```');
  });

  it('writes links out as "text (url)", or the bare URL when that is the text', () => {
    expect(whatsapp('[docs](https://x.io/a?b=1&c=2) and https://y.io')).toBe(
      'docs (https://x.io/a?b=1&c=2) and https://y.io',
    );
  });
});

describe('plain', () => {
  it('drops all markup and writes links out', () => {
    expect(plain('# T\n\n**b** _i_ `c` [l](https://x.io)\n\n- x')).toBe('T\n\nb i c l (https://x.io)\n\n• x');
  });

  it('keeps code blocks as their text', () => {
    expect(plain('```\n  indented < & >\n```')).toBe('  indented < & >');
  });
});
