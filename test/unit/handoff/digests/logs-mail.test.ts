/**
 * The chat logs mail: each conversation of the day with its user and that day's entries in order,
 * times in the chatbot's zone, files noted, notes marked, the handoff's moments; text, HTML and
 * the same logs attached; within a size cap that it says it kept to.
 */
import { describe, expect, it } from 'vitest';
import { LogsMailBuilder } from '../../../../src/handoff/digests/logs-mail.js';
import type { DayConversation } from '../../../../src/handoff/digests/types.js';
import { at, bot, platformName, telegram, user, window } from './fixtures.js';

const anaDay = telegram([
  user('Homes in Austin? <b>cheap</b> & "quiet"\nwith a garden', '09:00'),
  bot('Here are **3** homes in Austin.', '09:01'),
  user('my photo of the street', '09:02', { attachments: ['image (street.jpg, image/jpeg, 120 KB)'] }),
  { at: at('09:03'), role: 'system', text: 'Handed over to a person: the user sent /human.', event: 'handed-over' },
  { at: at('09:04'), role: 'operator', text: 'She wants a garden.', operator: 'Bob', note: true },
  { at: at('09:05'), role: 'operator', text: 'Hi Ana, I am Bob.', operator: 'Bob', via: 'slack' },
]);

const whatsappDay: DayConversation = {
  conversation: { bot: 'main', platform: 'whatsapp-cloud', id: '4915112345678' },
  user: { id: '4915112345678' },
  entries: [user('Hallo', '23:59')],
};

function build(conversations: DayConversation[], maxBytes?: number) {
  const builder = new LogsMailBuilder({
    chatbot: 'Acme Homes',
    bot: 'main',
    window,
    platformName,
    ...(maxBytes ? { maxBytes } : {}),
    inboxUrl: 'https://gw.example/inbox',
  });
  for (const conversation of conversations) builder.add(conversation);
  return builder.finish();
}

describe('the chat logs mail', () => {
  const mail = build([anaDay, whatsappDay]);

  it('is none on a day without conversations', () => {
    expect(build([])).toBeNull();
    expect(build([telegram([])])).toBeNull();
  });

  it('counts the day’s conversations in its subject', () => {
    expect(mail?.subject).toBe('Chat logs of Acme Homes for 2026-11-26: 2 conversations');
    expect(build([whatsappDay])?.subject).toBe('Chat logs of Acme Homes for 2026-11-26: 1 conversation');
  });

  it('says in its text who each user is and what was said, in order, at Chicago times', () => {
    const text = mail?.text ?? '';
    expect(text).toContain('the times below are in America/Chicago');
    expect(text).toContain(
      [
        '=== Ana Lima (@ana) on Telegram ===',
        'Conversation: main:telegram:42',
        '[09:00:00] Ana Lima: Homes in Austin? <b>cheap</b> & "quiet"',
        '    with a garden',
        '[09:01:00] Acme Homes: Here are **3** homes in Austin.',
        '[09:02:00] Ana Lima: my photo of the street',
        '    [file: image (street.jpg, image/jpeg, 120 KB)]',
        '[09:03:00] Handoff (handed-over): Handed over to a person: the user sent /human.',
        '[09:04:00] Operator Bob [note, not sent to the user]: She wants a garden.',
        '[09:05:00] Operator Bob via slack: Hi Ana, I am Bob.',
      ].join('\n'),
    );
    // A WhatsApp user without a name is their number.
    expect(text).toContain(
      '=== +4915112345678 on WhatsApp ===\nConversation: main:whatsapp-cloud:4915112345678\n[23:59:00] +4915112345678: Hallo',
    );
    expect(text.indexOf('Ana Lima (@ana)')).toBeLessThan(text.indexOf('+4915112345678 on WhatsApp'));
  });

  it('attaches the same logs as a text file', () => {
    expect(mail?.attachments).toHaveLength(1);
    const [file] = mail?.attachments ?? [];
    expect(file).toMatchObject({ filename: 'chat-logs-2026-11-26.txt', contentType: 'text/plain; charset=utf-8' });
    expect(file?.content).toContain('[09:04:00] Operator Bob [note, not sent to the user]: She wants a garden.');
    expect(file?.content).toContain('[23:59:00] +4915112345678: Hallo');
    expect(mail?.omitted).toBe(0);
  });

  it('shows the same in HTML, escaping what users wrote, a note and the handoff set apart', () => {
    const page = mail?.html ?? '';
    expect(page).toContain('<h3>Ana Lima (@ana) on Telegram</h3>');
    expect(page).toContain('Homes in Austin? &lt;b&gt;cheap&lt;/b&gt; &amp; &quot;quiet&quot;\nwith a garden');
    expect(page).not.toContain('<b>cheap</b>');
    expect(page).toContain('<em>[file: image (street.jpg, image/jpeg, 120 KB)]</em>');
    expect(page).toMatch(
      /<p style="background:#fff6d5"><small>09:04:00<\/small> <strong>Operator Bob \[note, not sent to the user\]:<\/strong>/,
    );
    expect(page).toMatch(
      /<p style="color:#555;font-style:italic"><small>09:03:00<\/small> <strong>Handoff \(handed-over\):/,
    );
  });

  it('escapes a user’s name in the HTML too', () => {
    const page = build([telegram([user('hi')], { id: '7', name: '<img src=x onerror=alert(1)>' })])?.html ?? '';
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('the chat logs mail over its size cap', () => {
  const long = (n: number) =>
    telegram([user(`conversation ${n}: ${'words '.repeat(4000)}`)], { id: String(n), name: `User ${n}` }, String(n));
  const mail = build(
    Array.from({ length: 10 }, (_, n) => long(n)),
    200_000,
  );

  it('keeps what fits and counts the rest as left out', () => {
    expect(mail?.omitted).toBeGreaterThan(0);
    expect(mail?.omitted).toBeLessThan(10);
    expect(mail?.subject).toBe('Chat logs of Acme Homes for 2026-11-26: 10 conversations');
    const kept = 10 - (mail?.omitted ?? 0);
    expect(mail?.text.match(/^=== User \d+ on Telegram ===$/gm)).toHaveLength(kept);
  });

  it('stays within the cap, encoded', () => {
    const parts = [mail?.text ?? '', mail?.html ?? '', ...(mail?.attachments ?? []).map((file) => file.content)];
    const base64 = parts.reduce((sum, part) => sum + Math.ceil(Buffer.byteLength(part) / 3) * 4, 0);
    expect(base64).toBeLessThan(200_000);
  });

  it('says how many were left out and where to read them, in text, HTML and the attachment', () => {
    const omitted = mail?.omitted ?? 0;
    const note =
      `${omitted} conversations are left out of this mail to keep it within 195 KB. Read them all with: ` +
      'chatbridge digest preview --bot main --day 2026-11-26 --kind logs, or in the inbox (https://gw.example/inbox).';
    // Right under the first line, where it is read.
    expect(mail?.text.split('\n')[1]).toBe(note);
    expect(mail?.html).toContain(note);
    expect(mail?.attachments[0]?.content).toContain(note);
  });
});
