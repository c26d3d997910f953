/**
 * The day's leads as a CSV a CRM imports: one row per lead, a header row, UTF-8 with a byte-order
 * mark (without it, Excel reads UTF-8 as the local code page and garbles "José"). Written by
 * csv-stringify, which quotes what holds a comma, a quote or a line break.
 */
import { stringify } from 'csv-stringify/sync';
import { formatConversationId } from '../conversation-id.js';
import type { Lead } from './types.js';
import { handleOrNumber, listingWords, reasonWords } from './words.js';

export const LEADS_CSV_COLUMNS = [
  'name',
  'handle',
  'platform',
  'phone',
  'all_phones',
  'email',
  'all_emails',
  'listings',
  'cities',
  'last_message',
  'reasons',
  'conversation',
  'inbox_url',
] as const;

/** Between the values of a column that holds several (all_phones, listings…). */
const LIST_SEPARATOR = '; ';

/**
 * What a user wrote, made inert for a spreadsheet: a cell that begins with = + - @ (or a tab or
 * carriage return) is read as a formula, which a user could aim at whoever opens the file. Only
 * the columns a user shapes; the phones (E.164, "+…") and the gateway's own values stay as they are.
 */
function inert(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** "@ana" and "+4915…" as they are (a handle's characters, a number's digits); anything else made inert. */
function safeHandle(handle: string): string {
  return /^(?:@[\w.-]+|\+\d+)$/.test(handle) ? handle : inert(handle);
}

export function leadsCsv(leads: readonly Lead[]): string {
  const rows = leads.map((lead) => [
    inert(lead.user?.name ?? ''),
    safeHandle(handleOrNumber(lead)),
    lead.platform,
    lead.phones[0] ?? '',
    lead.phones.join(LIST_SEPARATOR),
    lead.emails[0] ?? '',
    lead.emails.join(LIST_SEPARATOR),
    inert(lead.listings.map(listingWords).join(LIST_SEPARATOR)),
    inert(lead.cities.join(LIST_SEPARATOR)),
    inert(lead.lastMessage ?? ''),
    reasonWords(lead.reasons),
    formatConversationId(lead.conversation),
    lead.inboxUrl ?? '',
  ]);
  return stringify([[...LEADS_CSV_COLUMNS], ...rows], { bom: true, record_delimiter: 'windows' });
}
