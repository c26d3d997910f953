/**
 * Splits a text into groups of a few words, keeping every character (spaces and
 * newlines stay attached to the word before them), so the fragments joined are
 * exactly the text.
 */
export function wordGroups(text: string, wordsPerGroup = 3): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const groups: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerGroup) groups.push(words.slice(i, i + wordsPerGroup).join(''));
  return groups;
}
