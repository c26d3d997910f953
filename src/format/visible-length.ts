/**
 * How long a rendered message is as its platform counts it. Telegram limits the
 * text *after* entity parsing (tags are free, `&amp;` is one character), in UTF-16
 * code units; the other platforms count the string as sent.
 */
import type { TextFormat } from './formats.js';

const TAG = /<[^>]*>/g;
const ENTITY = /&(#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi;

export function visibleLength(rendered: string, format: TextFormat): number {
  if (format !== 'telegram-html') return rendered.length;
  return telegramVisibleText(rendered).length;
}

/** The text Telegram shows for an HTML message: tags removed, entities decoded. */
export function telegramVisibleText(html: string): string {
  return html.replace(TAG, '').replace(ENTITY, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const hex = ref[1] === 'x' || ref[1] === 'X';
    const code = parseInt(ref.slice(hex ? 2 : 1), hex ? 16 : 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
