import type { Listing } from '../validation/listing.js';

/** What a question asks about, as far as plain pattern matching can tell. */
export interface Criteria {
  cities: string[];
  saleType?: 'for_sale' | 'for_rent';
  minBedrooms?: number;
  minBathrooms?: number;
  maxPrice?: number;
  minPrice?: number;
  mlsNumbers: string[];
  propertyTypes: string[];
  /**
   * Places the question names ("homes in Paris") that no listing is in. They are a
   * criterion like any other: no listing meets it, so the answer is "none in Paris"
   * rather than every listing.
   */
  unknownPlaces: string[];
  /** Kinds of home asked for by a common word ("apartments", "condo"), singular, lower case. */
  homeKinds: string[];
  /** The question talks about homes/listings even when it names no criterion. */
  aboutListings: boolean;
}

interface ListingIndex {
  cities: Map<string, string>;
  mlsNumbers: Map<string, string>;
  propertyTypes: Map<string, string>;
}

// Keyed by the repository's cached array, so a 10,000-listing index is built once per version.
const indexes = new WeakMap<readonly Listing[], ListingIndex>();

function indexOf(listings: readonly Listing[]): ListingIndex {
  let index = indexes.get(listings);
  if (!index) {
    index = { cities: new Map(), mlsNumbers: new Map(), propertyTypes: new Map() };
    for (const listing of listings) {
      if (listing.City?.trim()) index.cities.set(listing.City.trim().toLowerCase(), listing.City.trim());
      index.mlsNumbers.set(listing.MLSNumber.trim().toLowerCase(), listing.MLSNumber.trim());
      index.propertyTypes.set(listing.PropertyType.trim().toLowerCase(), listing.PropertyType.trim());
    }
    indexes.set(listings, index);
  }
  return index;
}

const RENT =
  /\b(rent|rental|renting|lease|leasing|alquiler|alquilar|arriendo|louer|location|miete|mieten|affitto|affittare|aluguel|alugar)\b/;
const SALE =
  /\b(buy|buying|purchase|for sale|on sale|comprar|venta|acheter|vente|kaufen|kauf|comprare|vendita|compra|venda)\b/;
const BEDS =
  /(\d+)\s*-?\s*(?:bed(?:room)?s?|br|bd|habitaciones|dormitorios|recámaras|chambres|schlafzimmer|camere|quartos)\b/;
const BATHS =
  /(\d+(?:\.\d+)?)\s*-?\s*(?:bath(?:room)?s?|ba|baños|salles? de bains?|bäder|badezimmer|bagni|banheiros)\b/;
const AMOUNT = String.raw`[$€£]?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|m|thousand|million|mil)?\b`;
const MAX_PRICE = new RegExp(
  String.raw`\b(?:under|below|less than|max(?:imum)?|up to|at most|cheaper than|menos de|moins de|unter|meno di|até|abaixo de)\s*` +
    AMOUNT,
);
const MIN_PRICE = new RegExp(
  String.raw`\b(?:over|above|more than|más de|plus de|über|più di|mais de|acima de)\s*` + AMOUNT,
);
const MLS_MENTION = /\bmls\s*(?:#|number|no\.?)?\s*:?\s*([a-z0-9-]+)/;
/** Words that make a question one about the listings, English first, then per language. */
const TOPIC_WORDS = [
  'listings?|propert(?:y|ies)|homes?|houses?|apartments?|flats?|condos?|townhou?ses?|villas?|lofts?|studios?',
  'available|offers?|price|prices|cost|costs|bedrooms?|bathrooms?|beds?|baths?|sale|buy|rent|mls',
  'casa|casas|piso|pisos|propiedad(?:es)?',
  'maisons?|appartements?|annonces?',
  'wohnung(?:en)?|haus|häuser|immobilien',
  'immobili',
  'imóve(?:l|is)|apartamentos?',
];
const TOPIC = new RegExp(String.raw`\b(${TOPIC_WORDS.join('|')})\b`);
/**
 * A place after a preposition: "in Paris", "near New York", "en Madrid", "à Lyon".
 * Up to three words; which of them are a place is decided in unknownPlaces().
 */
const PLACE_MENTION =
  /(?:^|[^\p{L}\p{N}])(?:in|near|around|en|à|em|nel|nella|bei)\s+(\p{L}[\p{L}'’.-]*(?:\s+\p{L}[\p{L}'’.-]*){0,2})/gu;
/** Words after "in" that are not places (checked in lower case, on the first word). */
const NOT_A_PLACE = new Set([
  'a',
  'an',
  'the',
  'my',
  'our',
  'your',
  'this',
  'that',
  'these',
  'those',
  'any',
  'some',
  'all',
  'total',
  'general',
  'mind',
  'order',
  'case',
  'cash',
  'person',
  'stock',
  'particular',
  'advance',
  'town',
  'city',
  'it',
  'there',
  'here',
  'good',
  'great',
  'excellent',
  'need',
  'addition',
  'fact',
  'detail',
  'english',
  'spanish',
  'french',
  'german',
  'italian',
  'portuguese',
  'el',
  'la',
  'los',
  'las',
  'le',
  'les',
  'un',
  'une',
  'una',
  'der',
  'die',
  'das',
  'o',
  'os',
  'as',
  'venta',
  'alquiler',
  'vente',
  'location',
]);
/** Words that end a place name ("Paris for rent", "Austin under $500k"). */
const PLACE_END_WORDS = [
  'for|to|with|under|below|over|above|and|or|near|at|from|by|of|on|that|which|who|please',
  'max|min|less|more|up|around|between|than',
  'con|por|para|y|o',
  'avec|pour|et|ou',
  'mit|für|und|oder',
  'con|per|e',
  'com|até',
];
const PLACE_END = new RegExp(`^(?:${PLACE_END_WORDS.join('|')})$`);
/** Common words for a kind of home; each names the PropertyType it means. */
const HOME_KINDS: readonly [RegExp, string][] = [
  [/\b(?:apartments?|flats?|apartamentos?|pisos?|appartements?|wohnung(?:en)?)\b/, 'apartment'],
  [/\bcondo(?:minium)?s?\b/, 'condo'],
  [/\btown ?(?:house|home)s?\b/, 'townhouse'],
  [/\bvillas?\b/, 'villa'],
  [/\blofts?\b/, 'loft'],
  [/\bstudios?\b/, 'studio'],
  [/\bcabins?\b/, 'cabin'],
];
const GREETING_WORDS = [
  'hi|hello|hey|hiya|howdy|yo|greetings|good (?:morning|afternoon|evening)',
  'hola|buenos días|buenas',
  'bonjour|salut',
  'hallo|guten tag|moin',
  'ciao|buongiorno',
  'olá|ola|oi|bom dia',
];
const GREETING = new RegExp(String.raw`^(${GREETING_WORDS.join('|')})\b`);

function amount(value: string, unit: string | undefined): number {
  const n = Number(value.replace(/,/g, ''));
  if (unit === 'k' || unit === 'thousand' || unit === 'mil') return n * 1_000;
  if (unit === 'm' || unit === 'million') return n * 1_000_000;
  return n;
}

/** Finds known names (cities, MLS numbers, types) as whole phrases in the question. */
function mentioned(question: string, names: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [lower, display] of names) {
    const at = question.indexOf(lower);
    if (at === -1) continue;
    const before = question[at - 1];
    const after = question[at + lower.length];
    if (
      (before === undefined || !/[\p{L}\p{N}]/u.test(before)) &&
      (after === undefined || !/[\p{L}\p{N}]/u.test(after))
    )
      found.push(display);
  }
  return found;
}

/** A kind of home matches a listing whose PropertyType names it ("Apartment", "Condo", "Townhouse"). */
function isKind(listing: Listing, kind: string): boolean {
  const type = listing.PropertyType.toLowerCase().replace(/\s+/g, '');
  return type.includes(kind) || (kind === 'townhouse' && type.includes('townhome'));
}

/**
 * Places after "in"/"near"/… that are no listing's city (nor a state, ZIP or
 * address word of one). In a question typed with capitals only capitalised words
 * count ("homes in Paris", not "homes in good condition"); in one typed all in
 * lower case the first words count unless they are a known non-place.
 */
function unknownPlaces(question: string, listings: readonly Listing[], index: ListingIndex): string[] {
  const lowerTyped = question === question.toLowerCase();
  const places: string[] = [];
  for (const match of question.matchAll(PLACE_MENTION)) {
    const words = match[1]!.split(/\s+/);
    const name: string[] = [];
    for (const word of words) {
      const lower = word.toLowerCase().replace(/[.'’]+$/, '');
      if (PLACE_END.test(lower) || (!lowerTyped && !/^\p{Lu}/u.test(word))) break;
      name.push(word.replace(/[.,'’]+$/, ''));
    }
    if (name.length === 0 || NOT_A_PLACE.has(name[0]!.toLowerCase())) continue;
    const place = name.join(' ');
    const lowerPlace = place.toLowerCase();
    if (TOPIC.test(lowerPlace) || RENT.test(lowerPlace) || SALE.test(lowerPlace)) continue;
    const known =
      [...index.cities.keys()].some((city) => lowerPlace.startsWith(city)) ||
      listings.some((listing) =>
        [listing.State, listing.ZIP, listing.Location].some((field) => field?.trim().toLowerCase() === lowerPlace),
      );
    if (!known) places.push(lowerTyped ? place.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase()) : place);
  }
  return places;
}

export function isGreeting(question: string): boolean {
  const text = question.trim().toLowerCase();
  return text.length <= 40 && GREETING.test(text);
}

export function readCriteria(question: string, listings: readonly Listing[]): Criteria {
  const text = question.toLowerCase();
  const index = indexOf(listings);
  const criteria: Criteria = {
    cities: mentioned(text, index.cities),
    mlsNumbers: mentioned(text, index.mlsNumbers),
    propertyTypes: mentioned(text, index.propertyTypes),
    unknownPlaces: unknownPlaces(question, listings, index),
    homeKinds: HOME_KINDS.filter(([pattern]) => pattern.test(text)).map(([, kind]) => kind),
    aboutListings: TOPIC.test(text),
  };
  // A type named exactly ("Single Family Residential") already says the kind.
  if (criteria.propertyTypes.length > 0) criteria.homeKinds = [];
  const mls = MLS_MENTION.exec(text)?.[1];
  if (mls && !criteria.mlsNumbers.some((known) => known.toLowerCase() === mls))
    criteria.mlsNumbers.push(mls.toUpperCase());
  if (RENT.test(text)) criteria.saleType = 'for_rent';
  else if (SALE.test(text)) criteria.saleType = 'for_sale';
  const beds = BEDS.exec(text);
  if (beds) criteria.minBedrooms = Number(beds[1]);
  const baths = BATHS.exec(text);
  if (baths) criteria.minBathrooms = Number(baths[1]);
  const max = MAX_PRICE.exec(text);
  if (max) criteria.maxPrice = amount(max[1]!, max[2]);
  const min = MIN_PRICE.exec(text);
  if (min) criteria.minPrice = amount(min[1]!, min[2]);
  return criteria;
}

export function hasCriteria(criteria: Criteria): boolean {
  return (
    criteria.cities.length > 0 ||
    criteria.mlsNumbers.length > 0 ||
    criteria.propertyTypes.length > 0 ||
    criteria.unknownPlaces.length > 0 ||
    criteria.homeKinds.length > 0 ||
    criteria.saleType !== undefined ||
    criteria.minBedrooms !== undefined ||
    criteria.minBathrooms !== undefined ||
    criteria.maxPrice !== undefined ||
    criteria.minPrice !== undefined
  );
}

/** The price a listing is offered at: sale price for sale, monthly rent for rent. */
export function askingPrice(listing: Listing): number | undefined {
  return listing.SaleType === 'for_sale' ? listing.SalePrice : listing.RentPrice;
}

export function matchListings(listings: readonly Listing[], criteria: Criteria): Listing[] {
  const cities = new Set(criteria.cities.map((city) => city.toLowerCase()));
  const mls = new Set(criteria.mlsNumbers.map((number) => number.toLowerCase()));
  const types = new Set(criteria.propertyTypes.map((type) => type.toLowerCase()));
  return listings.filter((listing) => {
    if (mls.size > 0) return mls.has(listing.MLSNumber.trim().toLowerCase());
    // A place no listing is in: asked alone or with a known city, nothing there matches.
    if (criteria.unknownPlaces.length > 0 && cities.size === 0) return false;
    if (criteria.homeKinds.length > 0 && !criteria.homeKinds.some((kind) => isKind(listing, kind))) return false;
    if (cities.size > 0 && !cities.has((listing.City ?? '').trim().toLowerCase())) return false;
    if (types.size > 0 && !types.has(listing.PropertyType.trim().toLowerCase())) return false;
    if (criteria.saleType && listing.SaleType !== criteria.saleType) return false;
    if (criteria.minBedrooms !== undefined && listing.Bedrooms < criteria.minBedrooms) return false;
    if (criteria.minBathrooms !== undefined && listing.Bathrooms < criteria.minBathrooms) return false;
    const price = askingPrice(listing);
    if (criteria.maxPrice !== undefined && (price === undefined || price > criteria.maxPrice)) return false;
    if (criteria.minPrice !== undefined && (price === undefined || price < criteria.minPrice)) return false;
    return true;
  });
}

/** Distinct cities of the listings, in first-seen order. */
export function citiesOf(listings: readonly Listing[]): string[] {
  return [...indexOf(listings).cities.values()];
}
