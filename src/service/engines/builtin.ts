import type { Listing } from '../validation/listing.js';
import { askingPrice, citiesOf, hasCriteria, isGreeting, matchListings, readCriteria, type Criteria } from './builtin-grounding.js';
import { phrasesFor, type Phrases } from './builtin-phrases.js';
import { wordGroups } from './fragments.js';
import type { AnswerEngine, AnswerRequest, EngineOutcome } from './types.js';

const SHOWN = 5;

function money(listing: Listing, value: number | undefined): string {
  return value === undefined ? '' : `${listing.CurrencySymbol}${value.toLocaleString('en-US')}`;
}

function describeListing(listing: Listing, phrases: Phrases): string {
  const place = [listing.Address, listing.City].filter((part) => part?.trim()).join(', ');
  const price = money(listing, askingPrice(listing));
  const offer = listing.SaleType === 'for_sale'
    ? `${phrases.forSale}${price ? ` ${price}` : ''}`
    : `${phrases.forRent}${price ? ` ${price}${phrases.perMonth}` : ''}`;
  const head = `${listing.PropertyType}${place ? `, ${place}` : ''}`;
  return `- ${head}: ${listing.Bedrooms} ${phrases.beds}, ${listing.Bathrooms} ${phrases.baths}, ${offer}, MLS ${listing.MLSNumber} ${listing.Url}`;
}

function describeCriteria(criteria: Criteria, phrases: Phrases, sample: Listing | undefined): string {
  const parts: string[] = [];
  if (criteria.mlsNumbers.length) parts.push(`MLS ${criteria.mlsNumbers.join(', ')}`);
  if (criteria.propertyTypes.length) parts.push(`(${criteria.propertyTypes.join(', ')})`);
  if (criteria.saleType) parts.push(criteria.saleType === 'for_sale' ? phrases.forSale : phrases.forRent);
  if (criteria.cities.length) parts.push(phrases.inCity(criteria.cities.join(' / ')));
  if (criteria.minBedrooms !== undefined) parts.push(phrases.atLeastBeds(criteria.minBedrooms));
  if (criteria.minBathrooms !== undefined) parts.push(phrases.atLeastBaths(criteria.minBathrooms));
  const symbol = sample?.CurrencySymbol ?? '$';
  if (criteria.maxPrice !== undefined) parts.push(phrases.under(`${symbol}${criteria.maxPrice.toLocaleString('en-US')}`));
  if (criteria.minPrice !== undefined) parts.push(phrases.over(`${symbol}${criteria.minPrice.toLocaleString('en-US')}`));
  return parts.join(' ');
}

/** What the builtin engine says, and whether it is grounded. Pure, so it is easy to test. */
export function composeBuiltinAnswer(request: Pick<AnswerRequest, 'chatbot' | 'question' | 'askType' | 'listings'>): { text: string; noAnswer: boolean } {
  const settings = request.chatbot.settings;
  const phrases = phrasesFor(settings.AIResponseLanguage);
  const question = request.question.trim();
  if (question === '') return { text: phrases.mediaOnly, noAnswer: true };

  const criteria = readCriteria(question, request.listings);
  if (isGreeting(question) && !hasCriteria(criteria)) {
    return { text: settings.WelcomeMessage.trim() || phrases.greeting, noAnswer: false };
  }
  if (!hasCriteria(criteria) && !criteria.aboutListings) {
    return { text: phrases.notUnderstood(citiesOf(request.listings)), noAnswer: true };
  }
  if (request.listings.length === 0) return { text: phrases.noListings, noAnswer: true };

  const matches = matchListings(request.listings, criteria);
  if (matches.length === 0) {
    return { text: phrases.noneFound(describeCriteria(criteria, phrases, request.listings[0])), noAnswer: false };
  }
  const lines = [phrases.found(matches.length), ...matches.slice(0, SHOWN).map((listing) => describeListing(listing, phrases))];
  if (matches.length > SHOWN) lines.push(phrases.more(matches.length - SHOWN));
  return { text: lines.join('\n'), noAnswer: false };
}

/**
 * Offline and deterministic: answers from the chatbot's listings by pattern
 * matching, in AIResponseLanguage when it knows the language (else English).
 * SystemMessage and Temperature do not change what it says (there is no model to
 * steer); they only matter for the openai engine.
 */
export class BuiltinEngine implements AnswerEngine {
  readonly models = ['builtin'] as const;

  async *answer(request: AnswerRequest): AsyncGenerator<string, EngineOutcome, void> {
    const { text, noAnswer } = composeBuiltinAnswer(request);
    for (const fragment of wordGroups(text)) {
      if (request.signal.aborted) break;
      yield fragment;
    }
    return { noAnswer };
  }
}
