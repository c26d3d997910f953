/**
 * A page of the chatbot's real-estate listings as Markdown, and the values of
 * its paging buttons. Rendering to the platform's format is the reply's job.
 */
import type { ListingItem, ListingPage } from '../../upstream/api.js';
import type { Button } from '../../contract.js';
import type { UserTexts } from '../user-texts.js';

/** Telegram refuses callback data over 64 bytes; every platform gets the same values. */
export const MAX_BUTTON_VALUE_BYTES = 64;
export const LISTINGS_ACTION_PREFIX = 'listings';

export interface ListingsRequest {
  city: string;
  page: number;
}

/** `/listings`, `/listings Austin`, `/listings San Francisco 2` (a trailing number is the page). */
export function parseListingsArgs(args: string): ListingsRequest {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const last = words[words.length - 1];
  const page = last && /^\d{1,4}$/.test(last) ? Math.max(1, Number(words.pop())) : 1;
  return { city: words.join(' '), page };
}

/** The button value for a page: `listings:<page>:<city>`; null when the city makes it too long. */
export function listingsButtonValue(request: ListingsRequest): string | null {
  const value = `${LISTINGS_ACTION_PREFIX}:${request.page}:${request.city}`;
  return Buffer.byteLength(value, 'utf8') <= MAX_BUTTON_VALUE_BYTES ? value : null;
}

/** The inverse of listingsButtonValue, given the part after `listings:`. */
export function parseListingsPayload(payload: string): ListingsRequest {
  const colon = payload.indexOf(':');
  const page = Number(colon < 0 ? payload : payload.slice(0, colon));
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, city: colon < 0 ? '' : payload.slice(colon + 1) };
}

export interface ListingsView {
  markdown: string;
  buttons: Button[];
}

/** `texts`: the listings' sentences in the chatbot's language. */
export function listingsView(
  request: ListingsRequest,
  result: ListingPage,
  pageSize: number,
  withButtons: boolean,
  texts: UserTexts['listings'],
): ListingsView {
  const city = escapeMarkdown(request.city);
  const total = result.VirtualCount;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (result.List.length === 0) {
    const again = `/listings${request.city ? ` ${request.city}` : ''}`;
    const markdown =
      total > 0 && request.page > pages
        ? city
          ? texts.pastTheEndInCity(city, pages, again)
          : texts.pastTheEnd(pages, again)
        : city
          ? texts.noneFoundInCity(city)
          : texts.noneFound;
    return { markdown, buttons: [] };
  }
  const first = (request.page - 1) * pageSize;
  const header = city ? texts.headerInCity(city, request.page, pages, total) : texts.header(request.page, pages, total);
  const items = result.List.map((item, index) => formatListing(item, first + index + 1, texts));
  const previous = request.page > 1 ? { ...request, page: request.page - 1 } : null;
  const next = request.page < pages ? { ...request, page: request.page + 1 } : null;
  const buttons: Button[] = [];
  const hints: string[] = [];
  for (const [label, hint, target] of [
    [texts.previousButton, texts.previousPageHint, previous],
    [texts.nextButton, texts.nextPageHint, next],
  ] as const) {
    if (!target) continue;
    const value = withButtons ? listingsButtonValue(target) : null;
    if (value) buttons.push({ label, value });
    else hints.push(hint(`/listings ${request.city ? `${request.city} ` : ''}${target.page}`));
  }
  const footer = hints.length > 0 ? [texts.hints(hints)] : [];
  return { markdown: [header, ...items, ...footer].join('\n\n'), buttons };
}

function formatListing(item: ListingItem, position: number, texts: UserTexts['listings']): string {
  const facts = [
    item.PropertyType,
    item.Bedrooms && texts.bedrooms(String(item.Bedrooms)),
    item.Bathrooms && texts.bathrooms(String(item.Bathrooms)),
    // Area is the service's "2500 Square Feet"; BuildingArea alone has no unit.
    item.Area || item.BuildingArea,
  ]
    .filter(Boolean)
    .map((fact) => escapeMarkdown(String(fact)));
  const price = priceOf(item, texts.perMonth);
  const status = [item.SaleType, item.Status].filter(Boolean).map(escapeMarkdown).join(', ');
  const heading = `${position}. ${facts.join(' · ') || texts.untitled}`;
  const title = `**${heading}**${price ? ` — ${escapeMarkdown(price)}` : ''}${status ? ` (${status})` : ''}`;
  const address = [item.Address, item.City, [item.State, item.ZIP].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const details = [
    address && escapeMarkdown(address),
    item.MLSNumber && `MLS ${escapeMarkdown(item.MLSNumber)}`,
    /^https?:\/\//i.test(item.Url)
      ? `[${escapeMarkdown(texts.detailsLink)}](${item.Url.replace(/[()\s]/g, encodeURIComponent)})`
      : '',
  ].filter(Boolean);
  return details.length > 0 ? `${title}\n${details.join(' · ')}` : title;
}

/**
 * "$450,000", grouped the English way in every language: where a price is, and so how its digits are
 * grouped there, follows its currency, not the chatbot's language (es-MX groups as en-US does, es-ES not).
 */
function priceOf(item: ListingItem, perMonth: string): string {
  const rent = /rent/i.test(item.SaleType) && item.RentPrice;
  const amount = rent ? item.RentPrice : item.Price || item.SalePrice;
  if (!amount) return '';
  const number = Number(amount);
  const shown = Number.isFinite(number) ? number.toLocaleString('en-US', { maximumFractionDigits: 2 }) : amount;
  return `${item.CurrencySymbol || ''}${shown}${rent ? perMonth : ''}`;
}

/** Listing text is data, not Markdown: a "*" in an address must not start bold text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]~<>|#]/g, (c) => `\\${c}`);
}
