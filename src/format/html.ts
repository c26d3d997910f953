/**
 * Building blocks for a markup that is HTML (Telegram's "HTML style"): escaping, and the
 * text a reader sees of a rendered message, which is what a platform that counts after
 * entity parsing measures (tags free, `&amp;` one character, in UTF-16 code units).
 */

/** Only & < > are escaped in text: what HTML needs, and all Telegram accepts. */
export function escapeHtmlText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** In an attribute value (written between double quotes) `"` as well. */
export function escapeHtmlAttribute(text: string): string {
  return escapeHtmlText(text).replace(/"/g, '&quot;');
}

const TAG = /<[^>]*>/g;
const ENTITY = /&(#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi;

/** The text shown for an HTML message: tags removed, entities decoded. */
export function htmlVisibleText(html: string): string {
  return html.replace(TAG, '').replace(ENTITY, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const hex = ref[1] === 'x' || ref[1] === 'X';
    const code = parseInt(ref.slice(hex ? 2 : 1), hex ? 16 : 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
