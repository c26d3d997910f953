/**
 * Which of a chatbot's listings a text names (by MLS number or street address) and which of
 * their cities: case-blind, whole words, whatever the spaces and punctuation between them. Built
 * once per list of listings and read in one pass over a text's words, so that a day of 10,000
 * conversations against hundreds of listings stays a pass over the day's words.
 */
import type { ListingFact } from './types.js';

/** A text's words, lower-cased: runs of letters and digits ("12 Oak-Street." → 12, oak, street). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

interface Phrase {
  words: string[];
  listing?: ListingFact;
  city?: string;
}

export interface ListingMentions {
  listings: ListingFact[];
  cities: string[];
}

export class ListingMatcher {
  /** Phrases by their first word. */
  private readonly phrases = new Map<string, Phrase[]>();

  constructor(listings: readonly ListingFact[]) {
    const cities = new Set<string>();
    for (const listing of listings) {
      // Too short an MLS number or address would match by chance ("12", "Main").
      if (listing.mls.trim().length >= 4) this.add({ words: words(listing.mls), listing });
      const address = words(listing.address);
      if (listing.address.trim().length >= 6 && address.length >= 2) this.add({ words: address, listing });
      const city = words(listing.city);
      const key = city.join(' ');
      if (key.length >= 2 && !cities.has(key)) {
        cities.add(key);
        this.add({ words: city, city: listing.city.trim() });
      }
    }
  }

  /** The listings (each once, in the order named) and cities a text names. */
  find(text: string): ListingMentions {
    const found: ListingMentions = { listings: [], cities: [] };
    if (this.phrases.size === 0) return found;
    const all = words(text);
    all.forEach((word, index) => {
      for (const phrase of this.phrases.get(word) ?? []) {
        if (!phrase.words.every((expected, offset) => all[index + offset] === expected)) continue;
        if (phrase.listing && !found.listings.includes(phrase.listing)) found.listings.push(phrase.listing);
        if (phrase.city && !found.cities.includes(phrase.city)) found.cities.push(phrase.city);
      }
    });
    return found;
  }

  private add(phrase: Phrase): void {
    const first = phrase.words[0];
    if (first === undefined) return;
    const list = this.phrases.get(first);
    if (list) list.push(phrase);
    else this.phrases.set(first, [phrase]);
  }
}

const matchers = new WeakMap<readonly ListingFact[], ListingMatcher>();

/** The matcher of a list of listings, built once for as long as the list lives (the day's leads share one). */
export function listingMatcher(listings: readonly ListingFact[]): ListingMatcher {
  let matcher = matchers.get(listings);
  if (!matcher) {
    matcher = new ListingMatcher(listings);
    matchers.set(listings, matcher);
  }
  return matcher;
}
