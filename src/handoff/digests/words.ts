/**
 * What both digest mails and the leads' CSV say the same way: who a user is, a listing in a
 * line, why someone is a lead, counts in words, and how big a mail part gets once encoded.
 */
import { userLabel } from '../mail/index.js';
import { ownNumber } from './contacts.js';
import type { DayConversation, LeadReason, ListingFact } from './types.js';

type Person = Pick<DayConversation, 'conversation' | 'user'>;

/** "Ana Lima (@ana)", "Ana Lima (+4915112345678)" for a WhatsApp user, their number when it is all there is. */
export function personLabel(person: Person): string {
  const number = ownNumber(person);
  if (!number) return userLabel(person.user);
  return person.user?.name ? `${person.user.name} (${number})` : number;
}

/** "@ana", or a WhatsApp user's number; '' when the platform gives neither. */
export function handleOrNumber(person: Person): string {
  const handle = person.user?.handle?.replace(/^@/, '');
  return handle ? `@${handle}` : (ownNumber(person) ?? '');
}

/** How a user is named before each of their messages: their name, else their handle or number. */
export function shortName(person: Person): string {
  return person.user?.name || handleOrNumber(person) || person.user?.id || 'User';
}

const REASON_WORDS: Record<LeadReason, string> = {
  listings: 'asked about listings',
  person: 'asked for a person',
  phone: 'wrote a phone number',
  email: 'wrote an e-mail address',
  contact: 'shared a contact card',
};

export function reasonWords(reasons: readonly LeadReason[]): string {
  return reasons.map((reason) => REASON_WORDS[reason]).join(', ');
}

/** "12 Oak St, Austin (MLS 1234567, $450,000)". */
export function listingWords(listing: ListingFact): string {
  const place = [listing.address, listing.city].filter(Boolean).join(', ') || 'A listing';
  const facts = [listing.mls && `MLS ${listing.mls}`, listing.price].filter(Boolean);
  return facts.length > 0 ? `${place} (${facts.join(', ')})` : place;
}

/** "1 conversation", "12 conversations", "2,000 people". */
export function counted(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/**
 * What a part weighs in the mail: its UTF-8 bytes in base64 (4/3) with its line breaks (2 bytes
 * per 76): the most an SMTP server counts for text a mailer may encode either way.
 */
export function encodedBytes(text: string): number {
  const base64 = Math.ceil(Buffer.byteLength(text, 'utf8') / 3) * 4;
  return base64 + Math.ceil(base64 / 76) * 2;
}

/** Headers, MIME boundaries, the intro and the notes of what was left out: room kept for them within a cap. */
export const MAIL_FRAME_BYTES = 32 * 1024;

/** The default cap of a digest mail: many SMTP servers refuse more than 10 MB, some less (then set it lower). */
export const DEFAULT_MAX_MAIL_BYTES = 10 * 1024 * 1024;
