/**
 * The leads mail: the people who showed interest on a chatbot's day, how to reach them, what
 * they asked about and why they count, each linked to their conversation in the inbox. A list in
 * the text part, a table in the HTML part (the `html` template escapes all a user wrote), every
 * lead in the CSV attachment. Over the size cap, the CSV still holds them all (it is small) and
 * the body lists those that fit and says how many more the CSV holds.
 */
import { html, type Html } from '../../format/index.js';
import { formatBytes } from '../../gateway/index.js';
import { formatConversationId } from '../conversation-id.js';
import { leadsCsv } from './leads-csv.js';
import type { DayWindow, DigestMail, Lead } from './types.js';
import {
  counted,
  DEFAULT_MAX_MAIL_BYTES,
  encodedBytes,
  listingWords,
  MAIL_FRAME_BYTES,
  personLabel,
  reasonWords,
} from './words.js';

export interface LeadsMailInput {
  /** The chatbot's name, as the mail names it. */
  chatbot: string;
  /** The bot's id (config `bots[].id`). */
  bot: string;
  window: DayWindow;
  leads: readonly Lead[];
  /** The most the mail may weigh, encoded (default 10 MB). */
  maxBytes?: number;
}

/** The mail, or null when nobody was a lead that day. */
export function composeLeadsMail(input: LeadsMailInput): DigestMail | null {
  const { chatbot, bot, window, leads } = input;
  if (leads.length === 0) return null;
  const maxBytes = input.maxBytes ?? DEFAULT_MAX_MAIL_BYTES;
  const csv = leadsCsv(leads);
  const filename = `leads-${window.day}.csv`;

  const texts: string[] = [];
  const rows: Html[] = [];
  let used = MAIL_FRAME_BYTES + encodedBytes(csv);
  for (const lead of leads) {
    const text = leadText(lead, texts.length + 1);
    const row = leadRow(lead);
    const cost = encodedBytes(text) + encodedBytes(row.markup);
    // In order, and none after the first that does not fit: "the first N, the rest in the CSV".
    if (used + cost > maxBytes) break;
    used += cost;
    texts.push(text);
    rows.push(row);
  }
  const omitted = leads.length - texts.length;

  const people = counted(leads.length, 'person', 'people');
  const subject = `Leads of ${chatbot} for ${window.day}: ${people}`;
  const intro =
    `${people} showed interest in ${chatbot} on ${window.day} (midnight to midnight in ${window.zone}): ` +
    'they asked about listings, asked for a person, wrote a phone number or an e-mail address, or shared a contact card.';
  const omittedNote =
    omitted > 0
      ? `${counted(omitted, 'more lead is', 'more leads are')} in the attached ${filename} only, to keep this mail ` +
        `within ${formatBytes(maxBytes)} (or: chatbridge digest preview --bot ${bot} --day ${window.day} --kind leads, ` +
        "and the inbox's Leads page)."
      : undefined;
  const csvNote = `All of them are in the attached ${filename}, for a CRM to import.`;

  const text = [intro, '', texts.join('\n\n'), ...(omittedNote ? ['', omittedNote] : []), '', csvNote].join('\n');
  const page = html`<!doctype html><html><body style="font-family:sans-serif">
<p>${intro}</p>
<table border="1" cellpadding="4" cellspacing="0" style="border-collapse:collapse">
<tr><th>Who</th><th>Platform</th><th>Phones</th><th>E-mails</th><th>Listings</th><th>Cities</th><th>Last message</th><th>Why</th><th>Conversation</th></tr>
${rows}
</table>
${omittedNote ? html`<p><strong>${omittedNote}</strong></p>` : null}
<p>${csvNote}</p>
</body></html>`;
  return {
    subject,
    text,
    html: page.markup,
    attachments: [{ filename, contentType: 'text/csv; charset=utf-8', content: csv }],
    omitted,
  };
}

function leadText(lead: Lead, position: number): string {
  const lines = [`${position}. ${personLabel(lead)} on ${lead.platform}`];
  const facts: [string, string][] = [
    ['Phones', lead.phones.join(', ')],
    ['E-mails', lead.emails.join(', ')],
    ['Listings', lead.listings.map(listingWords).join('; ')],
    ['Cities', lead.cities.join(', ')],
    // One line: a user's line break cannot start a line that passes for one of the mail's.
    ['Last message', lead.lastMessage ? `"${lead.lastMessage.replace(/\s*\n\s*/g, ' / ')}"` : ''],
    ['Why', reasonWords(lead.reasons)],
    ['Conversation', formatConversationId(lead.conversation)],
    ['Open in the inbox', lead.inboxUrl ?? ''],
  ];
  for (const [label, value] of facts) if (value) lines.push(`   ${label}: ${value}`);
  return lines.join('\n');
}

function leadRow(lead: Lead): Html {
  const list = (values: readonly string[]) =>
    values.map((value, index) => html`${index > 0 ? html`<br>` : null}${value}`);
  const id = formatConversationId(lead.conversation);
  const link = lead.inboxUrl ? html`<a href="${lead.inboxUrl}">${id}</a>` : id;
  const cells: (Html | string)[] = [
    personLabel(lead),
    lead.platform,
    html`${list(lead.phones)}`,
    html`${list(lead.emails)}`,
    html`${list(lead.listings.map(listingWords))}`,
    html`${list(lead.cities)}`,
    html`<span style="white-space:pre-wrap">${lead.lastMessage ?? ''}</span>`,
    reasonWords(lead.reasons),
    link,
  ];
  return html`<tr valign="top">${cells.map((cell) => html`<td>${cell}</td>`)}</tr>
`;
}
