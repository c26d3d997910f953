/**
 * The default demo as a new user meets it on Telegram: `chatbridge start` with only
 * a bot token (the embedded service, its demo chatbot, the builtin engine at its
 * default pace). Photos and voice messages are answered, not refused, and an answer
 * is seen being written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { defaultBursts, startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/media');
const REFUSED = /doesn't accept|did not accept|I'm sorry|could not answer/;

describe('the default demo on Telegram, as a process', () => {
  let fake: FakeTelegram;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    gateway = await startChatbridge({
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
      ...defaultBursts(),
    });
  }, 30_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake.close();
  });

  const user = (id: number) => ({ id, first_name: `User ${id}` });

  it('shows an answer being written: several drafts, each longer, then the full answer', async () => {
    const from = user(5101);
    fake.userSends({ chat: from.id, from, text: 'Which homes do you have in Austin and Denver?' });
    await fake.waitFor(() => fake.visibleMessages(from.id).some((m) => m.text.includes('and 1 more')), {
      timeoutMs: 45_000,
      what: 'the final answer',
    });

    const final = fake.visibleMessages(from.id).at(-1)!.text;
    expect(final).toMatch(/^I found 6 listings that match:/);
    for (const mls of ['TX-10452', 'TX-10977', 'TX-20318', 'CO-55102', 'CO-61240'])
      expect(final).toContain(`MLS ${mls}`);
    // More than one visible update before the final message, growing towards it.
    const drafts = fake.drafts(from.id).map((draft) => draft.text);
    const distinct = [...new Set(drafts)];
    expect(distinct.length).toBeGreaterThan(1);
    for (let i = 1; i < distinct.length; i++) expect(distinct[i]!.length).toBeGreaterThan(distinct[i - 1]!.length);
    expect(distinct.at(-1)!.length).toBeLessThanOrEqual(final.length);
    expect(final.startsWith(distinct[0]!.trimEnd())).toBe(true);
  }, 60_000);

  it('answers a photo with its format, not a refusal', async () => {
    const from = user(5102);
    const photo = fake.addFile(readFileSync(join(FIXTURES, 'tiny.jpg')), { mimeType: 'image/jpeg' });
    fake.userSends({ chat: from.id, from, photo: [{ ...photo, width: 16, height: 16 }] });
    await fake.waitFor(
      () => fake.visibleMessages(from.id).some((m) => m.text.startsWith('Thanks, I received your photo')),
      { timeoutMs: 45_000, what: 'the answer to the photo' },
    );
    const answer = fake.visibleMessages(from.id).find((m) => m.text.startsWith('Thanks, I received your photo'))!.text;
    expect(answer).toMatch(/^Thanks, I received your photo \(JPEG, 16×16 pixels, /);
    expect(
      fake
        .visibleMessages(from.id)
        .map((m) => m.text)
        .join('\n'),
    ).not.toMatch(REFUSED);
  }, 60_000);

  it('answers a voice message with its length, and the question in a photo caption', async () => {
    const from = user(5103);
    const voice = fake.addFile(readFileSync(join(FIXTURES, 'voice-440hz-2s.ogg')), { mimeType: 'audio/ogg' });
    fake.userSends({ chat: from.id, from, voice: { ...voice, duration: 2 } });
    await fake.waitFor(
      () => fake.visibleMessages(from.id).some((m) => m.text.startsWith('Thanks, I received your voice message')),
      { timeoutMs: 45_000, what: 'the answer to the voice message' },
    );
    const answer = fake
      .visibleMessages(from.id)
      .find((m) => m.text.startsWith('Thanks, I received your voice message'))!.text;
    expect(answer).toMatch(/^Thanks, I received your voice message \(WAV, 2\.0 seconds, /);

    const photo = fake.addFile(readFileSync(join(FIXTURES, 'tiny.png')), { mimeType: 'image/png' });
    fake.userSends({
      chat: from.id,
      from,
      photo: [{ ...photo, width: 16, height: 16 }],
      caption: 'Anything like this in Portland?',
    });
    await fake.waitFor(() => fake.visibleMessages(from.id).some((m) => m.text.includes('MLS OR-30877')), {
      timeoutMs: 45_000,
      what: 'the answer to the caption',
    });
    expect(
      fake
        .visibleMessages(from.id)
        .map((m) => m.text)
        .join('\n'),
    ).not.toMatch(REFUSED);
  }, 90_000);

  it('says "none in Paris" for a city the listings do not have', async () => {
    const from = user(5104);
    fake.userSends({ chat: from.id, from, text: 'Do you have homes in Paris?' });
    await fake.waitFor(
      () =>
        fake.visibleMessages(from.id).length > 0 &&
        fake.visibleMessages(from.id).at(-1)!.text.includes('Our listings are in'),
      { timeoutMs: 45_000, what: 'the answer' },
    );
    const answer = fake.visibleMessages(from.id).at(-1)!.text;
    expect(answer).toBe('I could not find any listing in Paris. Our listings are in Austin, Denver and Portland.');
  }, 60_000);
});
