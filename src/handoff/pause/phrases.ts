/**
 * Handoff phrases in what a user writes: case- and accent-insensitive, whole
 * words only. "Agent" matches "I want an AGENT!" and "ágent", but not "agents'
 * fees" or "reagent": a phrase must stand as its own words, so that a question
 * that merely contains the letters is still answered by the bot.
 */

/** Lowercase, accents stripped (NFD + combining marks removed), every run of non-letters/digits one space. */
export function normalizeForMatching(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The first configured phrase found in `text` (as written in the configuration), or null. */
export function findHandoffPhrase(text: string, phrases: readonly string[]): string | null {
  // Padding with spaces makes " phrase " a whole-word match at the ends too.
  const haystack = ` ${normalizeForMatching(text)} `;
  for (const phrase of phrases) {
    const needle = normalizeForMatching(phrase);
    if (needle !== '' && haystack.includes(` ${needle} `)) return phrase;
  }
  return null;
}
