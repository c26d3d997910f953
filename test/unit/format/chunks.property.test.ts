import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  htmlVisibleText,
  plainMarkup,
  renderChunks,
  renderMarkdown,
  type MarkupRenderer,
} from '../../../src/format/index.js';
import { telegramMarkup } from '../../../adapters/telegram/markdown.js';
import { slackMarkup } from '../../../adapters/slack/markdown.js';
import { whatsappMarkup } from '../../../adapters/whatsapp/markdown.js';
import { telegramHtmlProblems } from './telegram-html-validator.js';

/** Markdown-ish answers from a grammar of words, markers, fences, newlines and characters that need escaping. */
const piece = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      'word',
      'Austin',
      'naïve',
      'price',
      '3',
      'x_y',
      'a.b',
      '😀',
      '日本',
      'end.',
      'ok!',
      'why?',
    ),
  },
  { weight: 8, arbitrary: fc.constantFrom(' ', ' ', ' ', '  ') },
  { weight: 3, arbitrary: fc.constantFrom('\n', '\n\n', '  \n') },
  { weight: 4, arbitrary: fc.constantFrom('**', '*', '_', '__', '~~', '`', '``') },
  { weight: 1, arbitrary: fc.constantFrom('\n```\n', '\n```py\n', '\n~~~\n', '\n    ') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\n# ',
      '\n## ',
      '\n- ',
      '\n* ',
      '\n1. ',
      '\n> ',
      '\n---\n',
      '\n| a | b |\n|---|---|\n| ',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '[',
      '](',
      ')',
      '](https://x.io/?a=1&b=2)',
      'https://y.io/p_q',
      '<https://z.io>',
      '![i](http://i.io/x.png)',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom('<', '>', '&', '&amp;', '&lt;', '"', "'", '<b>', '</i>', '\\', '|', '&#128512;'),
  },
);
const markdown = fc.array(piece, { maxLength: 400, size: 'max' }).map((pieces) => pieces.join(''));
const maxLength = fc.oneof(fc.integer({ min: 20, max: 80 }), fc.integer({ min: 20, max: 4096 }));
const format = fc.constantFrom<MarkupRenderer>(telegramMarkup, slackMarkup, whatsappMarkup, plainMarkup);
const partial = fc.boolean();

/** What the reader sees, compared without whitespace (split points drop it) and without markers. */
function shownText(rendered: string, target: MarkupRenderer): string {
  switch (target.name) {
    case 'telegram-html':
      return htmlVisibleText(rendered).replace(/\s+/g, '');
    case 'slack-mrkdwn':
      return rendered
        .replace(/<[^|>]*\|/g, '')
        .replace(/[>*_~`\s]/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    case 'whatsapp':
      return rendered.replace(/[*_~`\s]/g, '');
    case 'plain':
      return rendered.replace(/\s+/g, '');
    default:
      throw new Error(`no reading of ${target.name} here`);
  }
}

const RUNS = { numRuns: Number(process.env.FORMAT_PROPERTY_RUNS ?? 300) };

describe('renderChunks properties', () => {
  it('every chunk fits the limit as the platform counts it, and none is empty', () => {
    fc.assert(
      fc.property(markdown, format, maxLength, partial, (md, target, max, isPartial) => {
        for (const chunk of renderChunks(md, target, max, { partial: isPartial })) {
          expect(target.measure(chunk)).toBeLessThanOrEqual(max);
          expect(chunk.trim()).not.toBe('');
        }
      }),
      RUNS,
    );
  });

  it('every Telegram chunk is well-formed HTML that Telegram accepts', () => {
    fc.assert(
      fc.property(markdown, maxLength, partial, (md, max, isPartial) => {
        for (const chunk of renderChunks(md, telegramMarkup, max, { partial: isPartial })) {
          expect(telegramHtmlProblems(chunk), chunk).toEqual([]);
        }
      }),
      RUNS,
    );
  });

  it('the chunks together show the same text as the unsplit render', () => {
    fc.assert(
      fc.property(markdown, format, maxLength, partial, (md, target, max, isPartial) => {
        const chunks = renderChunks(md, target, max, { partial: isPartial });
        const whole = renderMarkdown(md, target, { partial: isPartial });
        expect(chunks.map((chunk) => shownText(chunk, target)).join('')).toBe(shownText(whole, target));
      }),
      RUNS,
    );
  });

  it('an answer that fits is sent as one message, identical to the plain render', () => {
    fc.assert(
      fc.property(
        markdown.filter((md) => md.trim().length > 0),
        format,
        (md, target) => {
          const whole = renderMarkdown(md, target);
          fc.pre(whole.trim() !== '' && target.measure(whole) <= 4096);
          const chunks = renderChunks(md, target, 4096);
          expect(chunks).toEqual([whole]);
        },
      ),
      RUNS,
    );
  });
});
