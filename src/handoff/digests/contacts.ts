/**
 * The ways to reach a person that a text holds: phone numbers (read by libphonenumber-js, with
 * its full metadata, which validates a number against its country's plan rather than its length
 * only) and e-mail addresses; and a WhatsApp user's own number, which their id is.
 */
import { findPhoneNumbersInText, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { DayConversation } from './types.js';

export type { CountryCode };

/**
 * Candidates that read as a date, not a number: "2026-11-26", "26.11.2026", "11/26/2026". With a
 * default country, a date's digits can make a valid national number (+4920261126).
 */
const DATE_LIKE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;

export interface Contacts {
  /** In E.164, each once, in the order written. */
  phones: string[];
  /** Each once (the domain lower-cased: it is case-blind), in the order written. */
  emails: string[];
  /** The text with those blanked out: what else it says ("030 1234567" must not pass for an MLS number). */
  rest: string;
}

/**
 * The phone numbers and e-mail addresses in `text`. Numbers in international form
 * (`+1 512 555 0100`, `+49 151…`) always; numbers in national form (`0151 12345678`,
 * `(512) 555-0100`) only when `defaultCountry` says whose plan they follow. The addresses are read
 * first: the digits of `ana.4915112345678@example.com` are no number.
 */
export function readContacts(text: string, defaultCountry?: CountryCode): Contacts {
  const emails = new Map<string, string>();
  let rest = text.replace(EMAIL, (address) => {
    const at = address.lastIndexOf('@');
    const domain = address.slice(at + 1).toLowerCase();
    if (WHATSAPP_ID_DOMAINS.has(domain)) return address;
    const normal = `${address.slice(0, at)}@${domain}`;
    if (!emails.has(normal.toLowerCase())) emails.set(normal.toLowerCase(), normal);
    return ' '.repeat(address.length);
  });
  const phones = new Set<string>();
  // No number has fewer than six digits: most messages are passed over without the library's scan.
  if (SIX_DIGITS.test(rest)) {
    const found = findPhoneNumbersInText(rest, defaultCountry ? { defaultCountry } : undefined);
    // Blanked with as many spaces: the positions of the numbers after it stay.
    for (const { startsAt, endsAt, number } of found) {
      if (DATE_LIKE.test(rest.slice(startsAt, endsAt).trim())) continue;
      phones.add(number.number);
      rest = rest.slice(0, startsAt) + ' '.repeat(endsAt - startsAt) + rest.slice(endsAt);
    }
  }
  return { phones: [...phones], emails: [...emails.values()], rest };
}

/** The phone numbers in `text` (readContacts). */
export function findPhones(text: string, defaultCountry?: CountryCode): string[] {
  return readContacts(text, defaultCountry).phones;
}

/** The e-mail addresses in `text` (readContacts). */
export function findEmails(text: string): string[] {
  return readContacts(text).emails;
}

const SIX_DIGITS = /(?:\d\D{0,3}){5}\d/;

/**
 * An address: a local part of the usual characters, no dot first, last or twice in a row; a
 * domain of letters, digits and inner hyphens, with a top-level label of two letters or more.
 * Not preceded by a character of a local part, so that "x..y@a.io" does not yield "y@a.io".
 */
const EMAIL =
  /(?<![\w.%+-])[\w%+-]+(?:\.[\w%+-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?![a-z0-9-]*@)(?![\w-])/giu;

/** WhatsApp's ids look like addresses (`4915112345678@c.us`) and are none. */
const WHATSAPP_ID_DOMAINS = new Set(['c.us', 'g.us', 's.whatsapp.net']);

/** `4915112345678` → `+4915112345678`, when those digits can be a number of some country's plan. */
function fromDigits(digits: string): string | undefined {
  if (!/^\d{6,15}$/.test(digits)) return undefined;
  const number = parsePhoneNumberFromString(`+${digits}`);
  return number?.isPossible() ? number.number : undefined;
}

/**
 * A WhatsApp user's own number, in E.164, which their id is: `4915112345678@c.us` on 'whatsapp'
 * (not an `@lid` id, which hides it), the digits of the conversation on 'whatsapp-cloud' (not a
 * business-scoped id such as `US.1349…`, which has none). Undefined on other platforms.
 */
export function ownNumber(conversation: Pick<DayConversation, 'conversation' | 'user'>): string | undefined {
  const { platform, id } = conversation.conversation;
  const userId = conversation.user?.id;
  if (platform === 'whatsapp') {
    // In a group the conversation is the group; the user's own id is then the one that names them.
    for (const candidate of [userId, id]) {
      const digits = candidate?.match(/^(\d+)@c\.us$/)?.[1];
      const number = digits && fromDigits(digits);
      if (number) return number;
    }
    return undefined;
  }
  if (platform === 'whatsapp-cloud') return fromDigits(id) ?? (userId ? fromDigits(userId) : undefined);
  return undefined;
}

/** The country of an E.164 number (`+4915…` → `DE`): the plan a user's national-form numbers likely follow. */
export function countryOf(phone: string | undefined): CountryCode | undefined {
  return phone ? parsePhoneNumberFromString(phone)?.country : undefined;
}
