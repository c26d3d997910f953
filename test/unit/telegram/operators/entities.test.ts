import type { MessageEntity } from 'grammy/types';
import { describe, expect, it } from 'vitest';
import { entitiesToMarkdown } from '../../../../adapters/telegram/operators/entities.js';

const entity = (type: string, offset: number, length: number, extra: object = {}): MessageEntity =>
  ({ type, offset, length, ...extra }) as MessageEntity;

describe("Telegram operator door: an operator's formatting as Markdown", () => {
  it('keeps plain text as typed', () => {
    expect(entitiesToMarkdown('2*3 = 6, see file_name', undefined)).toBe('2*3 = 6, see file_name');
  });

  it('writes bold, italic, strikethrough, code and links in Markdown', () => {
    const text = 'Hi Ada, the rent is due on Monday: see terms';
    expect(
      entitiesToMarkdown(text, [
        entity('bold', 0, 6),
        entity('italic', 8, 8),
        entity('strikethrough', 17, 6),
        entity('code', 27, 6),
        entity('text_link', 39, 5, { url: 'https://example.com/terms' }),
      ]),
    ).toBe('**Hi Ada**, _the rent_ ~~is due~~ on `Monday`: see [terms](https://example.com/terms)');
  });

  it('nests entities, keeps spaces outside the markers, and leaves code as it is', () => {
    expect(entitiesToMarkdown('very important', [entity('bold', 0, 14), entity('italic', 5, 9)])).toBe(
      '**very _important_**',
    );
    expect(entitiesToMarkdown('say hello ', [entity('bold', 3, 7)])).toBe('say **hello** ');
    expect(entitiesToMarkdown('run ls -la', [entity('code', 4, 6), entity('bold', 4, 2)])).toBe('run `ls -la`');
  });

  it('writes a pre block as a fenced code block with its language', () => {
    expect(entitiesToMarkdown('x\nconst a = 1', [entity('pre', 2, 11, { language: 'ts' })])).toBe(
      'x\n```ts\nconst a = 1\n```',
    );
  });

  it('drops what Markdown cannot say (underline, spoiler, mentions) and keeps the text, emoji included', () => {
    expect(entitiesToMarkdown('🏠 ok @ana', [entity('underline', 3, 2), entity('mention', 6, 4)])).toBe('🏠 ok @ana');
    expect(entitiesToMarkdown('🏠 big', [entity('bold', 3, 3)])).toBe('🏠 **big**');
  });
});
