/**
 * The leads mail and its CSV: who, how to reach them, what they asked about, why they count and
 * where their conversation is; every lead in the CSV a CRM imports, the body within a size cap.
 */
import { describe, expect, it } from 'vitest';
import { leadsCsv, LEADS_CSV_COLUMNS } from '../../../../src/handoff/digests/leads-csv.js';
import { composeLeadsMail } from '../../../../src/handoff/digests/leads-mail.js';
import type { Lead } from '../../../../src/handoff/digests/types.js';
import { listings, window } from './fixtures.js';

const [oak, lake] = listings;

const ana: Lead = {
  conversation: { bot: 'main', platform: 'telegram', id: '42' },
  user: { id: '42', name: 'Ana Lima', handle: 'ana' },
  platform: 'Telegram',
  phones: ['+15125550100'],
  emails: ['ana@example.com'],
  listings: [oak!, lake!],
  cities: ['Austin'],
  lastMessage: 'Call me, "after 5", ok?\nThanks, Ana',
  reasons: ['listings', 'phone', 'email'],
  inboxUrl: 'https://gw.example/inbox/c/main%3Atelegram%3A42?sig=a&b=1',
};

const jorg: Lead = {
  conversation: { bot: 'main', platform: 'whatsapp-cloud', id: '4915112345678' },
  user: { id: '4915112345678', name: '=HYPERLINK("http://evil.example","Jörg")' },
  platform: 'WhatsApp',
  phones: ['+4915112345678', '+49301234567'],
  emails: [],
  listings: [],
  cities: [],
  lastMessage: '<script>alert(1)</script>',
  reasons: ['person'],
};

const CRLF = '\r\n';

describe('leadsCsv', () => {
  it('is a header and one row per lead, UTF-8 with a byte-order mark, quoting commas, quotes and line breaks', () => {
    const csv = leadsCsv([ana, jorg]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const header = LEADS_CSV_COLUMNS.join(',');
    expect(header).toBe(
      'name,handle,platform,phone,all_phones,email,all_emails,listings,cities,last_message,reasons,conversation,inbox_url',
    );
    const anaRow = [
      'Ana Lima',
      '@ana',
      'Telegram',
      '+15125550100',
      '+15125550100',
      'ana@example.com',
      'ana@example.com',
      '"12 Oak Street, Austin (MLS 1234567, $450,000); 5 Lake View Drive, Round Rock (MLS 7654321, $2,100/month)"',
      'Austin',
      '"Call me, ""after 5"", ok?\nThanks, Ana"',
      '"asked about listings, wrote a phone number, wrote an e-mail address"',
      'main:telegram:42',
      'https://gw.example/inbox/c/main%3Atelegram%3A42?sig=a&b=1',
    ].join(',');
    // A name a spreadsheet would run as a formula is made inert; the numbers stay numbers.
    const jorgRow = [
      '"\'=HYPERLINK(""http://evil.example"",""Jörg"")"',
      '+4915112345678',
      'WhatsApp',
      '+4915112345678',
      '+4915112345678; +49301234567',
      '',
      '',
      '',
      '',
      '<script>alert(1)</script>',
      'asked for a person',
      'main:whatsapp-cloud:4915112345678',
      '',
    ].join(',');
    expect(csv).toBe(`\uFEFF${header}${CRLF}${anaRow}${CRLF}${jorgRow}${CRLF}`);
  });

  it('is the header alone without leads', () => {
    expect(leadsCsv([])).toBe(`\uFEFF${LEADS_CSV_COLUMNS.join(',')}${CRLF}`);
  });
});

describe('the leads mail', () => {
  const mail = composeLeadsMail({ chatbot: 'Acme Homes', bot: 'main', window, leads: [ana, jorg] });

  it('is none on a day without leads', () => {
    expect(composeLeadsMail({ chatbot: 'Acme Homes', bot: 'main', window, leads: [] })).toBeNull();
  });

  it('counts the people in its subject', () => {
    expect(mail?.subject).toBe('Leads of Acme Homes for 2026-11-26: 2 people');
    expect(composeLeadsMail({ chatbot: 'Acme Homes', bot: 'main', window, leads: [jorg] })?.subject).toBe(
      'Leads of Acme Homes for 2026-11-26: 1 person',
    );
  });

  it('lists each lead in its text: how to reach them, what they asked about, why, where', () => {
    expect(mail?.text).toContain(
      [
        '1. Ana Lima (@ana) on Telegram',
        '   Phones: +15125550100',
        '   E-mails: ana@example.com',
        '   Listings: 12 Oak Street, Austin (MLS 1234567, $450,000); 5 Lake View Drive, Round Rock (MLS 7654321, $2,100/month)',
        '   Cities: Austin',
        '   Last message: "Call me, "after 5", ok? / Thanks, Ana"',
        '   Why: asked about listings, wrote a phone number, wrote an e-mail address',
        '   Conversation: main:telegram:42',
        '   Open in the inbox: https://gw.example/inbox/c/main%3Atelegram%3A42?sig=a&b=1',
      ].join('\n'),
    );
    expect(mail?.text).toContain(
      [
        '2. =HYPERLINK("http://evil.example","Jörg") (+4915112345678) on WhatsApp',
        '   Phones: +4915112345678, +49301234567',
        '   Last message: "<script>alert(1)</script>"',
        '   Why: asked for a person',
        '   Conversation: main:whatsapp-cloud:4915112345678',
      ].join('\n'),
    );
    expect(mail?.omitted).toBe(0);
  });

  it('shows them as a table in HTML, escaping what users wrote, linking to the inbox', () => {
    const page = mail?.html ?? '';
    expect(page).toContain('<th>Who</th><th>Platform</th><th>Phones</th>');
    expect(page).toContain('<td>Ana Lima (@ana)</td><td>Telegram</td><td>+15125550100</td><td>ana@example.com</td>');
    expect(page).toContain('<td>+4915112345678<br>+49301234567</td>');
    expect(page).toContain(
      '<a href="https://gw.example/inbox/c/main%3Atelegram%3A42?sig=a&amp;b=1">main:telegram:42</a>',
    );
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('Call me, &quot;after 5&quot;, ok?\nThanks, Ana');
  });

  it('attaches the CSV', () => {
    expect(mail?.attachments).toEqual([
      { filename: 'leads-2026-11-26.csv', contentType: 'text/csv; charset=utf-8', content: leadsCsv([ana, jorg]) },
    ]);
  });
});

describe('the leads mail over its size cap', () => {
  const many = Array.from({ length: 200 }, (_, n): Lead => ({
    ...ana,
    conversation: { bot: 'main', platform: 'telegram', id: String(n) },
    user: { id: String(n), name: `Person ${n}` },
    lastMessage: `message ${n} ${'x'.repeat(400)}`,
  }));
  const mail = composeLeadsMail({ chatbot: 'Acme Homes', bot: 'main', window, leads: many, maxBytes: 300_000 });

  it('lists the first that fit and says how many more the CSV holds', () => {
    const omitted = mail?.omitted ?? 0;
    expect(omitted).toBeGreaterThan(0);
    expect(omitted).toBeLessThan(200);
    expect(mail?.text.match(/^\d+\. Person \d+ on Telegram$/gm)).toHaveLength(200 - omitted);
    expect(mail?.text).toContain(`${200 - omitted}. Person ${199 - omitted} on Telegram`);
    const note =
      `${omitted} more leads are in the attached leads-2026-11-26.csv only, to keep this mail within 293 KB ` +
      "(or: chatbridge digest preview --bot main --day 2026-11-26 --kind leads, and the inbox's Leads page).";
    expect(mail?.text).toContain(note);
    expect(mail?.html).toContain(note.replace("'", '&#39;'));
  });

  it('keeps every lead in the CSV', () => {
    const csv = mail?.attachments[0]?.content ?? '';
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(201);
    expect(csv).toContain('Person 199,');
  });
});
