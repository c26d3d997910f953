import { describe, expect, it } from 'vitest';
import {
  closeUnfinishedMarkdown,
  plainMarkup,
  renderMarkdown,
  type MarkupRenderer,
} from '../../../src/format/index.js';
import { telegramMarkup } from '../../../adapters/telegram/markdown.js';
import { slackMarkup } from '../../../adapters/slack/markdown.js';
import { whatsappMarkup } from '../../../adapters/whatsapp/markdown.js';
import { telegramHtmlProblems } from './telegram-html-validator.js';

const partial = (md: string, markup: MarkupRenderer = telegramMarkup): string =>
  renderMarkdown(md, markup, { partial: true });

describe('partial rendering of an answer still being streamed', () => {
  it.each([
    [
      'an open code fence',
      'Try:\n```py\nprint(1 < 2)',
      'Try:\n\n<pre><code class="language-py">print(1 &lt; 2)</code></pre>',
    ],
    ['a half-typed closing fence', '```\ncode\n``', '<pre>code</pre>'],
    [
      'an open code fence in a list item',
      '1. Run:\n   ```sh\n   ls *.md',
      '1. Run:\n   <pre><code class="language-sh">ls *.md</code></pre>',
    ],
    ['an open code fence in a quote', '> ```\n> a `b', '<pre>a `b</pre>'],
    ['a fence whose language is being typed', 'Run:\n```ba', 'Run:'],
    ['unclosed bold', 'This is **very imp', 'This is <b>very imp</b>'],
    ['unclosed bold ending in a space', 'This is **very ', 'This is <b>very</b>'],
    ['a bold closer half written', 'This is **very*', 'This is <b>very</b>'],
    ['unclosed italic', 'An _idea', 'An <i>idea</i>'],
    ['unclosed strike', 'Was ~~cheap', 'Was <s>cheap</s>'],
    ['nested unclosed styles', '**bold _and it', '<b>bold <i>and it</i></b>'],
    ['an unclosed code span', 'Use `npm i', 'Use <code>npm i</code>'],
    ['an unclosed code span holding markers', 'Use `a ** b', 'Use <code>a ** b</code>'],
    ['a half-written link', 'See [the docs](https://exa', 'See the docs'],
    ['a link whose text is being typed', 'See [the do', 'See the do'],
    ['a link waiting for its URL', 'See [the docs]', 'See the docs'],
    ['a half-written link with bold text', 'See [**docs**](ht', 'See <b>docs</b>'],
    ['a half-written image', 'Photo: ![house](http://x', 'Photo: house'],
    ['a dangling bold opener', 'Hello **', 'Hello'],
    ['a dangling backtick', 'Hello `', 'Hello'],
    ['a dangling list marker', 'Items:\n\n-', 'Items:'],
    ['a dangling heading marker', 'Intro\n\n##', 'Intro'],
    ['an unfinished table row', '| a | b |\n|---|---|\n| 1 | **2', '<pre>a | b\n--+--\n1 | 2</pre>'],
  ])('closes %s', (_name, markdown, expected) => {
    const html = partial(markdown);
    expect(html).toBe(expected);
  });

  it('leaves complete Markdown as it is', () => {
    const complete = 'A **b** _c_ `d` [e](https://x.io)\n\n```\nf\n```\n';
    expect(closeUnfinishedMarkdown(complete)).toBe(complete);
  });

  it('does not mistake arithmetic, snake_case or list bullets for emphasis', () => {
    expect(partial('2*3 = 6 and snake_case_name')).toBe('2*3 = 6 and snake_case_name');
    expect(partial('* one\n* two')).toBe('• one\n• two');
  });

  it('only looks at the last block: earlier blocks are final', () => {
    expect(partial('a *literal\n\nnow **bold')).toBe('a *literal\n\nnow <b>bold</b>');
  });

  it('shows no stray markers in the marker formats either', () => {
    expect(partial('Hello **wor', slackMarkup)).toBe('Hello *wor*');
    expect(partial('Hello **', whatsappMarkup)).toBe('Hello');
    expect(partial('Use `x', plainMarkup)).toBe('Use x');
  });

  it('renders every prefix of a streamed answer as valid Telegram HTML', () => {
    const answer =
      '# Homes\n\n**3 beds** in _Austin_ ~~$600k~~ `MLS<1>` [map](https://x.io/?a=1&b=2)\n\n> Note & more\n\n```js\nif (a < b) {}\n```\n\n- one\n- **two**\n';
    for (let end = 1; end <= answer.length; end++) {
      const html = partial(answer.slice(0, end));
      if (html.trim() === '') continue;
      expect(telegramHtmlProblems(html), `prefix ${JSON.stringify(answer.slice(0, end))} → ${html}`).toEqual([]);
      expect(html, `prefix ${JSON.stringify(answer.slice(0, end))}`).not.toMatch(/\*\*|~~|`|\]\(/);
    }
  });
});
