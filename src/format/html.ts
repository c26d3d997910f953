/**
 * HTML, written once for every place the project writes it: the one escaper, used by the page and
 * e-mail template (html-template.ts) and by Telegram's "HTML style" markup; and the text a reader
 * sees of a rendered message, which is what a platform that counts after entity parsing measures
 * (tags free, `&amp;` one character, in UTF-16 code units).
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe in HTML, between tags and in an attribute value whichever its quotes. The entities
 * are the ones every HTML reader decodes, Telegram's parser included (it knows `&lt; &gt; &amp;
 * &quot;` by name and any by number, hence `&#39;`).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
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
