import { describe, expect, it } from 'vitest';
import { escapeMarkdown, plainMarkup, renderMarkdown } from '../../../src/format/index.js';
import { telegramMarkup } from '../../../adapters/telegram/markdown.js';

const shown = (text: string): string => renderMarkdown(escapeMarkdown(text), plainMarkup);

describe('escapeMarkdown', () => {
  it('shows words as written, markup characters included', () => {
    expect(shown('**not bold** _nor this_ [x](y) # 1. - 2')).toBe('**not bold** _nor this_ [x](y) # 1. - 2');
  });

  it('keeps a web address whole and linked, without backslashes in it', () => {
    const address = 'https://homes.example/austin/1812-elm-st?a_b=*c*';
    expect(shown(`See ${address}.`)).toBe(`See ${address}.`);
    expect(renderMarkdown(escapeMarkdown(`See (${address}), thanks`), telegramMarkup)).toBe(
      `See (<a href="${address.replaceAll('&', '&amp;')}">${address}</a>), thanks`,
    );
  });
});
