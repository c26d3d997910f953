/**
 * Who counts as a lead on a day, and why: the user asked about or was shown listings, asked for a
 * person, wrote a phone number or an e-mail address, or shared a contact card. Read from that
 * day's transcript entries only: a lead holds nothing the transcript does not.
 */
import type { ConversationRef } from '../../contract.js';
import { LANGUAGES, type TranscriptEntry, type UserTexts } from '../../gateway/index.js';
import type { ListingItem } from '../../upstream/api.js';
import { countryOf, ownNumber, readContacts, type CountryCode } from './contacts.js';
import { listingMatcher } from './listing-matcher.js';
import type { DayConversation, Lead, LeadReason, ListingFact } from './types.js';

export interface FindLeadOptions {
  /** The platform in words ("WhatsApp") for its adapter name ("whatsapp-cloud"). */
  platformName(platform: string): string;
  /**
   * The conversation in the inbox (signed), when the inbox is on; a function is asked for a lead's
   * conversation only, so that no link is signed for those who are none.
   */
  inboxUrl?: string | ((conversation: ConversationRef) => string | undefined);
  /**
   * Whose plan a number written in national form follows; by default the country of a WhatsApp
   * user's own number (a German number's user writes "0151…"), else only `+…` numbers are read.
   */
  defaultCountry?: CountryCode;
}

/** The order reasons are listed in, whatever order they were met in. */
const REASON_ORDER: readonly LeadReason[] = ['listings', 'person', 'phone', 'email', 'contact'];

/**
 * A contact card as the WhatsApp adapters keep it: an unreadable "file" named after its message
 * type (whatsapp-web.js `vcard`, `multi_vcard`; the Cloud API's `contacts`). Telegram and Slack
 * adapters do not pass contacts on.
 */
const CONTACT_FILE_NAMES = new Set(['whatsapp-vcard', 'whatsapp-multi_vcard', 'whatsapp-contacts']);

/** `/listings`, `/listings Austin`, `/listings@my_bot San Francisco 2` (a trailing number is the page). */
const LISTINGS_COMMAND = /^\/listings(?:@\w+)?(?:\s+([\s\S]*))?$/i;
/** A listings button whose label the platform did not give back: `(pressed a button: listings:2:Austin)`. */
const LISTINGS_BUTTON_VALUE = /^\(pressed a button: listings:\d*:?([\s\S]*)\)$/;
/**
 * The bot's page of listings in any language it speaks (`listings.header`, `listings.headerInCity`):
 * `**Listings in Austin** · page 1 of 3 (25 in all)`, `**Propiedades en Austin** · página 1 de 3 …`.
 * A bot's own header (an override in its config) is not recognized: its /listings command still is.
 */
const LISTINGS_HEADERS: readonly RegExp[] = LANGUAGES.flatMap(({ texts }) => headerPatterns(texts));
/** The paging buttons' labels, as the platforms give them back, in any language. */
const LISTINGS_BUTTONS = new Set(
  LANGUAGES.flatMap(({ texts }) => [texts.listings.nextButton, texts.listings.previousButton]),
);

export function findLead(
  conversation: DayConversation,
  listings: readonly ListingFact[],
  options: FindLeadOptions,
): Lead | null {
  const own = ownNumber(conversation);
  const country = options.defaultCountry ?? countryOf(own);
  const reasons = new Set<LeadReason>();
  const matched = new Set<ListingFact>();
  const cities = new Map<string, string>();
  const phones = new Set<string>();
  const emails = new Map<string, string>();
  let lastMessage: string | undefined;
  const addCity = (city: string) => {
    const name = city.trim();
    if (name && !cities.has(name.toLowerCase())) cities.set(name.toLowerCase(), name);
  };
  const matcher = listingMatcher(listings);
  const matchListings = (text: string, withCities: boolean) => {
    const mentioned = matcher.find(text);
    for (const listing of mentioned.listings) {
      reasons.add('listings');
      matched.add(listing);
    }
    if (!withCities) return;
    for (const city of mentioned.cities) {
      reasons.add('listings');
      addCity(city);
    }
  };

  for (const entry of conversation.entries) {
    if (entry.role === 'system') {
      if (entry.event === 'handed-over') reasons.add('person');
      continue;
    }
    if (entry.role === 'bot') {
      const header = listingsHeader(entry.text);
      if (header) {
        reasons.add('listings');
        if (header[1]) addCity(unescapeMarkdown(header[1]));
      }
      matchListings(entry.text, false);
      continue;
    }
    if (entry.role !== 'user') continue;
    const contacts = readContacts(entry.text, country);
    // First: a city is named as the listings spell it ("Austin" for "/listings austin").
    matchListings(contacts.rest, true);
    const request = listingsRequest(entry.text);
    if (request) {
      reasons.add('listings');
      if (request.city) addCity(request.city);
    }
    for (const phone of contacts.phones) {
      reasons.add('phone');
      phones.add(phone);
    }
    for (const email of contacts.emails) {
      reasons.add('email');
      if (!emails.has(email.toLowerCase())) emails.set(email.toLowerCase(), email);
    }
    if (sharedContact(entry)) reasons.add('contact');
    const said = entry.text.trim() || (entry.attachments ?? []).join(', ');
    if (said) lastMessage = said;
  }

  if (reasons.size === 0) return null;
  const inboxUrl =
    typeof options.inboxUrl === 'function' ? options.inboxUrl(conversation.conversation) : options.inboxUrl;
  // Their own number is how to reach them, listed first; it alone does not make them a lead.
  const allPhones = own ? [own, ...[...phones].filter((phone) => phone !== own)] : [...phones];
  return {
    conversation: conversation.conversation,
    ...(conversation.user ? { user: conversation.user } : {}),
    platform: options.platformName(conversation.conversation.platform),
    phones: allPhones,
    emails: [...emails.values()],
    listings: [...matched.values()],
    cities: [...cities.values()],
    ...(lastMessage !== undefined ? { lastMessage } : {}),
    reasons: REASON_ORDER.filter((reason) => reasons.has(reason)),
    ...(inboxUrl ? { inboxUrl } : {}),
  };
}

/** A user's request for listings (the command, or a press of its paging buttons), with the city when it names one. */
function listingsRequest(text: string): { city: string } | null {
  const trimmed = text.trim();
  const command = LISTINGS_COMMAND.exec(trimmed);
  if (command) {
    const words = (command[1] ?? '').split(/\s+/).filter(Boolean);
    if (words.length > 0 && /^\d{1,4}$/.test(words[words.length - 1] ?? '')) words.pop();
    return { city: words.join(' ') };
  }
  if (LISTINGS_BUTTONS.has(trimmed)) return { city: '' };
  const pressed = LISTINGS_BUTTON_VALUE.exec(trimmed);
  return pressed ? { city: pressed[1] ?? '' } : null;
}

function sharedContact(entry: TranscriptEntry): boolean {
  if ((entry.files ?? []).some((file) => file.fileName !== undefined && CONTACT_FILE_NAMES.has(file.fileName))) {
    return true;
  }
  return (entry.attachments ?? []).some((description) =>
    [...CONTACT_FILE_NAMES].some((name) => description.includes(`(${name}`)),
  );
}

const unescapeMarkdown = (text: string) => text.replace(/\\(.)/g, '$1');

/** A listings page's header: its match, with the city (as the page wrote it, escaped) when it names one. */
function listingsHeader(text: string): RegExpExecArray | null {
  for (const pattern of LISTINGS_HEADERS) {
    const match = pattern.exec(text);
    if (match) return match;
  }
  return null;
}

/** The catalogue's two headers as patterns: the city a group, the numbers any grouped digits. */
function headerPatterns(texts: UserTexts): RegExp[] {
  const CITY = '\u0000';
  const pattern = (header: string) =>
    new RegExp(
      `^${header
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(CITY, '([\\s\\S]+?)')
        .replace(/[789]/g, '\\d[\\d.,\\s]*')}`,
    );
  return [pattern(texts.listings.headerInCity(CITY, 7, 8, 9)), pattern(texts.listings.header(7, 8, 9))];
}

/** The service's listings as a lead's facts: MLS number, street address, city, price with its currency symbol. */
export function listingFacts(items: readonly ListingItem[]): ListingFact[] {
  return items.map((item) => ({
    mls: field(item.MLSNumber),
    address: field(item.Address),
    city: field(item.City),
    price: priceOf(item),
  }));
}

/** A field of the service's JSON, which may hold null or a number where a string is declared. */
const field = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';

/** "$450,000", or "$2,100/month" for a rental: as the /listings page shows it. */
function priceOf(item: ListingItem): string {
  const rent = /rent/i.test(field(item.SaleType)) && field(item.RentPrice);
  const amount = rent ? field(item.RentPrice) : field(item.Price) || field(item.SalePrice);
  if (!amount) return '';
  const number = Number(amount);
  const shown = Number.isFinite(number) ? number.toLocaleString('en-US', { maximumFractionDigits: 2 }) : amount;
  return `${field(item.CurrencySymbol)}${shown}${rent ? '/month' : ''}`;
}
