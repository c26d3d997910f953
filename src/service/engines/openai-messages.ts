import type { HistoryEntry } from '../repos/sessions.js';
import type { Listing } from '../validation/listing.js';
import { askingPrice, hasCriteria, matchListings, readCriteria } from './builtin-grounding.js';
import type { AnswerRequest } from './types.js';

/** Listings sent as context; more would crowd the model's window for little gain. */
const CONTEXT_LISTINGS = 30;

type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

function listingLine(listing: Listing): string {
  const price = askingPrice(listing);
  return [
    `ID ${listing.ID}`,
    listing.PropertyType,
    listing.SaleType === 'for_sale' ? 'for sale' : 'for rent',
    [listing.Address, listing.City, listing.State, listing.ZIP].filter(Boolean).join(', '),
    `${listing.Bedrooms} bedrooms`,
    `${listing.Bathrooms} bathrooms`,
    `${listing.BuildingArea} ${listing.AreaUnit}`,
    price === undefined
      ? 'price on request'
      : `${listing.CurrencySymbol}${price}${listing.SaleType === 'for_rent' ? '/month' : ''}`,
    `status ${listing.Status}`,
    `MLS ${listing.MLSNumber}`,
    listing.Url,
  ]
    .filter(Boolean)
    .join(' | ');
}

/** The listings most relevant to the question (those matching its criteria first), capped. */
export function contextListings(question: string, listings: readonly Listing[]): Listing[] {
  const criteria = readCriteria(question, listings);
  const relevant = hasCriteria(criteria) ? matchListings(listings, criteria) : [];
  const chosen = new Set(relevant.slice(0, CONTEXT_LISTINGS));
  for (const listing of listings) {
    if (chosen.size >= CONTEXT_LISTINGS) break;
    chosen.add(listing);
  }
  return [...chosen];
}

export function systemPrompt(request: AnswerRequest): string {
  const settings = request.chatbot.settings;
  const parts = [settings.SystemMessage.trim() || `You are ${settings.Name}, a helpful real-estate assistant.`];
  if (settings.AIResponseLanguage.trim()) parts.push(`Always answer in ${settings.AIResponseLanguage.trim()}.`);
  const listings = contextListings(request.question, request.listings);
  if (listings.length > 0) {
    parts.push(
      `Answer questions about properties only from these listings (${request.listings.length} in total, ${listings.length} shown):`,
    );
    parts.push(listings.map(listingLine).join('\n'));
  }
  return parts.join('\n\n');
}

/** The user's turn: text, images as data URLs, WAV audio as input_audio; video is only named. */
export async function userMessage(request: AnswerRequest): Promise<ChatMessage> {
  if (request.files.length === 0) return { role: 'user', content: request.question };
  const parts: ContentPart[] = [];
  if (request.question.trim()) parts.push({ type: 'text', text: request.question });
  for (const file of request.files) {
    if (request.askType === 'Image') {
      const data = (await file.bytes()).toString('base64');
      parts.push({ type: 'image_url', image_url: { url: `data:${file.meta.mime};base64,${data}` } });
    } else if (request.askType === 'Audio') {
      parts.push({
        type: 'input_audio',
        input_audio: { data: (await file.bytes()).toString('base64'), format: 'wav' },
      });
    } else {
      parts.push({
        type: 'text',
        text: `[The user attached a video: ${file.meta.fileName}, ${file.meta.size} bytes. You cannot watch it.]`,
      });
    }
  }
  return { role: 'user', content: parts };
}

export async function buildMessages(request: AnswerRequest, history: HistoryEntry[]): Promise<ChatMessage[]> {
  return [
    { role: 'system', content: systemPrompt(request) },
    ...history.map((entry): ChatMessage => ({ role: entry.role, content: entry.content })),
    await userMessage(request),
  ];
}
