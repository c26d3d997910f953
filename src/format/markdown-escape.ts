/**
 * Text shown as it was written inside Markdown the gateway composes (a user's words in an
 * operators' thread): every ASCII punctuation character CommonMark could read as markup gets
 * its backslash escape, which CommonMark (and marked) turn back into the character itself.
 */
const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()#+\-.!|<>~]/g;

export function escapeMarkdown(text: string): string {
  return text.replace(MARKDOWN_PUNCTUATION, '\\$&');
}
