/**
 * WhatsApp as a new user meets it: `chatbridge start` as a process with WHATSAPP_ENABLED
 * (the embedded service and its demo chatbot), whatsapp-web.js swapped for the fake by the
 * module hook (fakes/whatsapp/register.mjs) and talking to the fake WhatsApp. The number is
 * linked by scanning the QR; users then write in private chats and a group.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import type { ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startLinkedWhatsAppGateway } from '../../support/whatsapp-process.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/media');
const WELCOME = "Hi! I'm the Oakridge Homes assistant.";
const REFUSED = /doesn't accept|did not accept|I'm sorry|could not answer|can't read/;

describe('WhatsApp with chatbridge start, as a process', () => {
  let fake: FakeWhatsApp;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    gateway = await startLinkedWhatsAppGateway(fake);
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake?.close();
  });

  const chatOf = (number: string) => `${number}@c.us`;
  const answered = (chat: string, pattern: RegExp | string) =>
    fake.screen(chat).some((text) => (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)));

  it('greets a new chat, then streams the answer by edits and ends on the full text', async () => {
    const number = '4915100000101';
    const chat = chatOf(number);
    fake.userSends({ from: number, text: 'Which homes do you have in Austin and Denver?' });
    await fake.waitFor(() => answered(chat, 'and 1 more'), { timeoutMs: 45_000, what: 'the full answer' });

    const screen = fake.screen(chat);
    // The first contact is greeted with the chatbot's WelcomeMessage before the answer.
    expect(screen[0]).toContain(WELCOME);
    // With the chatbot's suggested questions listed (no reply keyboard on WhatsApp).
    expect(screen[0]).toContain('• 3 bedroom homes for sale in Austin');
    const final = screen.at(-1)!;
    expect(final).toMatch(/^I found 6 listings that match:/);
    // The answer was shown while it was written: its message first held less, then grew to the full text.
    const partial = fake.renders(chat).filter((text) => !text.includes(WELCOME) && text !== final);
    expect(partial.length).toBeGreaterThan(0);
    for (const text of partial) expect(final.startsWith(text.trimEnd().slice(0, 20))).toBe(true);
    // No "typing…" is left on at the end, and the chat is marked seen. (The indicator is shown only
    // when nothing is visible for a moment, TYPING_DEFER_MS; this answer's first words come at once,
    // so whether it showed depends on the machine's speed: test/unit/relay/typing.test.ts covers it.)
    expect(fake.typing(chat)).toBe(false);
    expect(fake.seen(chat)).toBe(true);
  }, 60_000);

  it('answers a photo, saying it was a photo', async () => {
    const number = '4915100000102';
    const chat = chatOf(number);
    fake.userSends({
      from: number,
      text: '',
      media: { bytes: readFileSync(join(FIXTURES, 'tiny.jpg')), mimetype: 'image/jpeg' },
    });
    // Waits for the whole sentence: the answer is shown while it is written.
    await fake.waitFor(() => answered(chat, /^Thanks, I received your photo \(JPEG, 16×16 pixels, [^)]+\)/), {
      timeoutMs: 45_000,
      what: 'the answer to the photo',
    });
    expect(fake.screen(chat).join('\n')).not.toMatch(REFUSED);
  }, 60_000);

  it('answers a voice note (OGG/Opus, converted to WAV for the service)', async () => {
    const number = '4915100000103';
    const chat = chatOf(number);
    fake.userSends({
      from: number,
      type: 'ptt',
      media: {
        bytes: readFileSync(join(FIXTURES, 'voice-440hz-2s.ogg')),
        mimetype: 'audio/ogg; codecs=opus',
        duration: 2,
      },
    });
    await fake.waitFor(() => answered(chat, /^Thanks, I received your voice message \(WAV, 2\.0 seconds, [^)]+\)/), {
      timeoutMs: 45_000,
      what: 'the answer to the voice note',
    });
    expect(fake.screen(chat).join('\n')).not.toMatch(REFUSED);
  }, 60_000);

  it('lists the commands when the user writes "help"', async () => {
    const number = '4915100000104';
    const chat = chatOf(number);
    fake.userSends({ from: number, text: 'help' });
    await fake.waitFor(() => answered(chat, 'Commands'), { timeoutMs: 45_000, what: 'the list of commands' });
    const help = fake.screen(chat).find((text) => text.includes('Commands'))!;
    for (const command of ['/listings', '/reset', '/help']) expect(help).toContain(command);
  }, 60_000);

  it('in a group, answers a message that mentions the bot and not one that does not', async () => {
    const group = '120363000000000777';
    const groupChat = `${group}@g.us`;
    fake.userSends({ from: '4915100000105', group, text: 'Do you have homes in Paris?' });
    fake.userSends({ from: '4915100000106', group, text: 'Do you have homes in Portland?', mentionsBot: true });
    await fake.waitFor(() => answered(groupChat, /Portland/), { timeoutMs: 45_000, what: 'the answer to the mention' });
    const screen = fake.screen(groupChat).join('\n');
    // Messages of one chat are taken in order: by the time the mention is answered, the other was passed over.
    expect(screen).not.toContain('Paris');
    // No greeting in a group: only the answer.
    expect(screen).not.toContain(WELCOME);
  }, 60_000);
});
