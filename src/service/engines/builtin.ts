import type { ChatAskType } from '../../upstream/api.js';
import { formatSize } from '../envelope.js';
import type { Listing } from '../validation/listing.js';
import {
  askingPrice,
  citiesOf,
  hasCriteria,
  isGreeting,
  matchListings,
  readCriteria,
  type Criteria,
} from './builtin-grounding.js';
import { phrasesFor, type Phrases } from './builtin-phrases.js';
import { wordGroups } from './fragments.js';
import { mediaFacts, type MediaFacts } from './media-facts.js';
import { DEFAULT_TOKENS_PER_SECOND, paced, type Sleep } from './pace.js';
import type { AnswerEngine, AnswerRequest, EngineOutcome } from './types.js';

const SHOWN = 5;

function money(listing: Listing, value: number | undefined): string {
  return value === undefined ? '' : `${listing.CurrencySymbol}${value.toLocaleString('en-US')}`;
}

function describeListing(listing: Listing, phrases: Phrases): string {
  const place = [listing.Address, listing.City].filter((part) => part?.trim()).join(', ');
  const price = money(listing, askingPrice(listing));
  const offer =
    listing.SaleType === 'for_sale'
      ? `${phrases.forSale}${price ? ` ${price}` : ''}`
      : `${phrases.forRent}${price ? ` ${price}${phrases.perMonth}` : ''}`;
  const head = `${listing.PropertyType}${place ? `, ${place}` : ''}`;
  return `- ${head}: ${listing.Bedrooms} ${phrases.beds}, ${listing.Bathrooms} ${phrases.baths}, ${offer}, MLS ${listing.MLSNumber} ${listing.Url}`;
}

function describeCriteria(criteria: Criteria, phrases: Phrases, sample: Listing | undefined): string {
  const parts: string[] = [];
  if (criteria.mlsNumbers.length) parts.push(`MLS ${criteria.mlsNumbers.join(', ')}`);
  if (criteria.propertyTypes.length) parts.push(`(${criteria.propertyTypes.join(', ')})`);
  if (criteria.homeKinds.length) parts.push(`(${criteria.homeKinds.join(', ')})`);
  if (criteria.saleType) parts.push(criteria.saleType === 'for_sale' ? phrases.forSale : phrases.forRent);
  const places = [...criteria.cities, ...criteria.unknownPlaces];
  if (places.length) parts.push(phrases.inCity(places.join(' / ')));
  if (criteria.minBedrooms !== undefined) parts.push(phrases.atLeastBeds(criteria.minBedrooms));
  if (criteria.minBathrooms !== undefined) parts.push(phrases.atLeastBaths(criteria.minBathrooms));
  const symbol = sample?.CurrencySymbol ?? '$';
  if (criteria.maxPrice !== undefined)
    parts.push(phrases.under(`${symbol}${criteria.maxPrice.toLocaleString('en-US')}`));
  if (criteria.minPrice !== undefined)
    parts.push(phrases.over(`${symbol}${criteria.minPrice.toLocaleString('en-US')}`));
  return parts.join(' ');
}

/** "2.0 seconds" under ten seconds, whole seconds above; the value is the container's, not measured here. */
function length(seconds: number, phrases: Phrases): string {
  return phrases.media.seconds(seconds < 10 ? seconds.toFixed(1) : String(Math.round(seconds)));
}

function describeFile(file: MediaFacts, phrases: Phrases): string {
  const parts = [file.format];
  if (file.kind === 'photo' && file.width !== undefined && file.height !== undefined)
    parts.push(`${file.width}×${file.height} ${phrases.media.pixels}`);
  if (file.kind !== 'photo')
    parts.push(file.seconds === undefined ? phrases.media.lengthUnknown : length(file.seconds, phrases));
  parts.push(formatSize(file.bytes));
  return parts.join(', ');
}

/** "Thanks, I received your photo (JPEG, 640×480 pixels, 52.1 KB)." */
function describeReceived(files: readonly MediaFacts[], phrases: Phrases): string {
  const kind = files[0]!.kind;
  return phrases.media.received(
    phrases.media.your(kind, files.length),
    files.map((file) => describeFile(file, phrases)).join('; '),
  );
}

/** The answer to the words alone: a greeting, listings, "none …", or what the engine can help with. */
function answerText(
  request: Pick<AnswerRequest, 'chatbot' | 'listings'>,
  question: string,
  phrases: Phrases,
): { text: string; noAnswer: boolean } {
  const settings = request.chatbot.settings;
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
    const none = phrases.noneFound(describeCriteria(criteria, phrases, request.listings[0]));
    // Named a place we have nothing in: say where the listings are, so the next question can succeed.
    const where =
      criteria.unknownPlaces.length > 0 && criteria.cities.length === 0
        ? ` ${phrases.listingsAreIn(citiesOf(request.listings))}`
        : '';
    return { text: `${none}${where}`, noAnswer: false };
  }
  const lines = [
    phrases.found(matches.length),
    ...matches.slice(0, SHOWN).map((listing) => describeListing(listing, phrases)),
  ];
  if (matches.length > SHOWN) lines.push(phrases.more(matches.length - SHOWN));
  return { text: lines.join('\n'), noAnswer: false };
}

export interface BuiltinAnswerInput extends Pick<AnswerRequest, 'chatbot' | 'question' | 'listings'> {
  askType: ChatAskType;
  /** What is known of the files received (see media-facts.ts); none for a text question. */
  media?: readonly MediaFacts[];
}

/** What the builtin engine says, and whether it is grounded. Pure, so it is easy to test. */
export function composeBuiltinAnswer(request: BuiltinAnswerInput): { text: string; noAnswer: boolean } {
  const phrases = phrasesFor(request.chatbot.settings.AIResponseLanguage);
  const question = request.question.trim();
  const media = request.media ?? [];
  if (media.length > 0) {
    const received = describeReceived(media, phrases);
    const kind = media[0]!.kind;
    // Nothing around the file to answer: say what arrived and what the demo can do with words.
    if (question === '') return { text: `${received} ${phrases.media.cannotPerceive(kind)}`, noAnswer: true };
    const words = answerText(request, question, phrases);
    return { text: `${received} ${phrases.media.answeringWords(kind)}\n\n${words.text}`, noAnswer: words.noAnswer };
  }
  if (question === '') return { text: phrases.mediaOnly, noAnswer: true };
  return answerText(request, question, phrases);
}

export interface BuiltinEngineOptions {
  /** Streaming speed; 0 = all at once (benchmarks, tests that need speed). Default DEFAULT_TOKENS_PER_SECOND. */
  tokensPerSecond?: number;
  /** Injected by tests to count the pauses instead of waiting them. */
  sleep?: Sleep;
}

/**
 * Offline and deterministic: answers from the chatbot's listings by pattern
 * matching, in AIResponseLanguage when it knows the language (else English),
 * streamed at a hosted model's pace. A file is answered with what the service
 * knows of it (format, size, dimensions or length) and the words around it.
 * SystemMessage and Temperature do not change what it says (there is no model to
 * steer); they only matter for the openai engine.
 */
export class BuiltinEngine implements AnswerEngine {
  readonly models = ['builtin'] as const;
  private readonly tokensPerSecond: number;

  constructor(private readonly options: BuiltinEngineOptions = {}) {
    this.tokensPerSecond = options.tokensPerSecond ?? DEFAULT_TOKENS_PER_SECOND;
  }

  async *answer(request: AnswerRequest): AsyncGenerator<string, EngineOutcome, void> {
    const media =
      request.askType === 'Text' || request.files.length === 0 ? [] : await mediaFacts(request.askType, request.files);
    const { text, noAnswer } = composeBuiltinAnswer({ ...request, media });
    yield* paced(wordGroups(text), this.tokensPerSecond, request.signal, this.options.sleep);
    return { noAnswer };
  }
}
