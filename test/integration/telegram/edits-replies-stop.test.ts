/**
 * Messages as people write them on Telegram, through the real grammY adapter and the fake Bot API:
 * an edit revises the message it edits, a reply carries what it replies to, and the draft's stop
 * button (or /stop typed) asks the core to stop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter, type TelegramAdapter } from '../../../adapters/telegram/index.js';
import type { ConversationRef, Inbound, InboundRevision } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { CollectingSink } from './collecting-sink.js';

const ADA = { id: 42, first_name: 'Ada', last_name: 'Lovelace', username: 'ada' };
const GRACE = { id: 43, first_name: 'Grace', last_name: 'Hopper' };
const GROUP = -100500;

let fake: FakeTelegram;
let adapter: TelegramAdapter;
let sink: CollectingSink;

async function start(): Promise<void> {
  fake = await startFakeTelegram({ rateLimit: false });
  adapter = createTelegramAdapter({
    bot: 'main',
    token: fake.token,
    apiRoot: fake.apiRoot,
    mode: 'polling',
    logger: silentLogger(),
    botInfo: fake.botInfo,
  });
  sink = new CollectingSink();
  await adapter.start(sink);
}

afterEach(async () => {
  await adapter?.stop();
  await fake?.close();
});

const conversation = (id: number): ConversationRef => ({ bot: 'main', platform: 'telegram', id: String(id) });
const edited = (revision: InboundRevision): Inbound => {
  if (revision.kind !== 'edited') throw new Error(`expected an edit, got ${revision.kind}`);
  return revision.message;
};

describe('Telegram adapter: edits', () => {
  it('hands an edited message to revise() in its new form, under the original message id, and never as a new message', async () => {
    await start();
    const sent = fake.userSends({ chat: ADA.id, from: ADA, text: 'a 2 bedrom in Austin' });
    await sink.next();
    fake.userEdits({ chat: ADA.id, messageId: sent.message.message_id, text: 'a 3 bedroom in Austin' });
    const revision = edited(await sink.nextRevision());
    expect(revision).toMatchObject({
      conversation: conversation(ADA.id),
      user: { id: '42', name: 'Ada Lovelace' },
      text: 'a 3 bedroom in Austin',
      platformMessageId: String(sent.message.message_id),
      addressed: true,
    });
    expect(sink.received.map((m) => m.text)).toEqual(['a 2 bedrom in Austin']);
  });

  it("revises a file's caption when the caption is edited", async () => {
    await start();
    const photo = fake.addFile(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), { mimeType: 'image/jpeg' });
    const sent = fake.userSends({ chat: ADA.id, from: ADA, photo, caption: 'is this one free?' });
    await sink.next();
    fake.userEdits({ chat: ADA.id, messageId: sent.message.message_id, text: 'is this one free in May?' });
    const revision = edited(await sink.nextRevision());
    expect([revision.text, revision.attachments.map((a) => a.kind)]).toEqual(['is this one free in May?', ['image']]);
  });

  it('passes a group edit on with whether it addresses the bot, as a message is', async () => {
    await start();
    const botName = fake.botInfo.username;
    const mention = fake.userSends({ chat: GROUP, from: ADA, text: `@${botName} any flats?` });
    fake.userEdits({ chat: GROUP, messageId: mention.message.message_id, text: `@${botName} any flats in Austin?` });
    expect(edited(await sink.nextRevision())).toMatchObject({
      text: `@${botName} any flats in Austin?`,
      isGroup: true,
      addressed: true,
    });
  });

  it('takes a live location moving (an edit with neither text nor file) as no revision', async () => {
    await start();
    const sent = fake.userSends({ chat: ADA.id, from: ADA, text: 'where am I?' });
    await sink.next();
    fake.sendUpdate({
      edited_message: {
        ...sent.message,
        text: undefined,
        location: { latitude: 30.27, longitude: -97.74, live_period: 900 },
        edit_date: sent.message.date + 5,
      },
    } as never);
    fake.userEdits({ chat: ADA.id, messageId: sent.message.message_id, text: 'where am I now?' });
    await sink.nextRevision();
    expect(sink.revisions.map((r) => edited(r).text)).toEqual(['where am I now?']);
  });
});

describe('Telegram adapter: replies', () => {
  it("carries the bot's message a reply answers as quoted from the bot", async () => {
    await start();
    const listing = await adapter.outbound.send(conversation(ADA.id), { text: '<b>Loft, Austin</b>: $2,100 a month' });
    fake.userSends({ chat: ADA.id, from: ADA, text: 'how much is this one?', reply_to_message: Number(listing.id) });
    const inbound = await sink.next();
    expect(inbound.quoted).toEqual({ text: 'Loft, Austin: $2,100 a month', from: 'bot' });
  });

  it("carries another person's message as quoted from that user, by name, and only the part picked as a quote", async () => {
    await start();
    const question = fake.userSends({ chat: GROUP, from: GRACE, text: 'Is the loft near the river? And pets?' });
    fake.userSends({
      chat: GROUP,
      from: ADA,
      text: `@${fake.botInfo.username} same question`,
      reply_to_message: question.message.message_id,
    });
    fake.userSends({
      chat: GROUP,
      from: ADA,
      text: `@${fake.botInfo.username} this`,
      reply_to_message: question.message.message_id,
      quote: 'And pets?',
    });
    await sink.next((m) => m.text.endsWith('this'));
    expect(sink.received.filter((m) => m.quoted).map((m) => m.quoted)).toEqual([
      { text: 'Is the loft near the river? And pets?', from: 'user', author: 'Grace Hopper' },
      { text: 'And pets?', from: 'user', author: 'Grace Hopper' },
    ]);
  });

  it('carries no quote on a message that replies to nothing', async () => {
    await start();
    fake.userSends({ chat: ADA.id, from: ADA, text: 'hello' });
    expect((await sink.next()).quoted).toBeUndefined();
  });
});

describe('Telegram adapter: stop', () => {
  it('shows a stop button under its drafts; a press arrives as /stop in that chat, with the update as its dedupe key', async () => {
    await start();
    await adapter.outbound.draft!(conversation(ADA.id), 7, 'Let me look for three-bedroom…');
    expect(fake.drafts(ADA.id).map((d) => [d.can_stop, d.keep_on_stop])).toEqual([[true, true]]);
    const update = fake.userStopsDraft({ chat: ADA.id });
    const stop = await sink.next((m) => m.text === '/stop');
    expect(stop).toMatchObject({
      conversation: conversation(ADA.id),
      user: { id: '42' },
      isGroup: false,
      addressed: true,
      attachments: [],
      platformMessageId: `stopped:${update.update_id}`,
    });
    fake.redeliver(update);
    await sink.next((m) => m !== stop && m.text === '/stop');
    expect(new Set(sink.received.map((m) => m.platformMessageId)).size).toBe(1);
  });

  it('passes /stop typed through as text for the core to handle', async () => {
    await start();
    fake.userSends({ chat: ADA.id, from: ADA, text: '/stop' });
    expect((await sink.next()).text).toBe('/stop');
  });
});
