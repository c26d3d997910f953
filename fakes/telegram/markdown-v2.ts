/**
 * Telegram's `parse_mode: "MarkdownV2"`, only as far as plain text goes: a
 * backslash escapes the next character, and a reserved character left
 * unescaped is refused with Telegram's wording. Entities (*bold*, _italic_,
 * links…) are not emulated: chatbridge only sends HTML, and the peers in
 * bench/peers send plain answers that their SDKs escape for MarkdownV2.
 */
import { parsePlainText, type ParsedText } from './html.js';

const RESERVED = new Set('_*[]()~`>#+-=|{}.!');

export class MarkdownV2ParseError extends Error {}

export function parseMarkdownV2(source: string): ParsedText {
  let text = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      text += source[i + 1] ?? '';
      i++;
    } else if (RESERVED.has(char)) {
      throw new MarkdownV2ParseError(
        `Character '${char}' is reserved and must be escaped with the preceding '\\' (the fake emulates no MarkdownV2 entities)`,
      );
    } else {
      text += char;
    }
  }
  return parsePlainText(text);
}
