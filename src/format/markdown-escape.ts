/**
 * Text shown as it was written inside Markdown the gateway composes (a user's words in an
 * operators' thread): every ASCII punctuation character CommonMark could read as markup gets
 * its backslash escape, which CommonMark (and marked) turn back into the character itself.
 * A web address is the exception: GFM links a bare address with its backslashes in it
 * (https://homes\.example), so it goes whole as an autolink `<…>`, inside which nothing is read
 * as markup; the punctuation ending a sentence after it stays outside.
 */
const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()#+\-.!|<>~]/g;
const WEB_ADDRESS = /https?:\/\/[^\s<>]*[^\s<>.,;:!?'")\]]/g;

function escapePunctuation(text: string): string {
  return text.replace(MARKDOWN_PUNCTUATION, '\\$&');
}

export function escapeMarkdown(text: string): string {
  let escaped = '';
  let from = 0;
  for (const address of text.matchAll(WEB_ADDRESS)) {
    escaped += `${escapePunctuation(text.slice(from, address.index))}<${address[0]}>`;
    from = address.index + address[0].length;
  }
  return escaped + escapePunctuation(text.slice(from));
}
