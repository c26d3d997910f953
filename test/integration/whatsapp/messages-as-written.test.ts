/**
 * Messages as people write them on WhatsApp Web, through the adapter on the fake whatsapp-web.js:
 * an edit and a "delete for everyone" reach the core as revisions of the message they change (in
 * the chat's order, after it), a reply carries the message it quotes, and "stop" is the /stop
 * command. The core's side is a RevisingSink; the platform storage is real Redis.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWhatsAppAdapter } from '../../../adapters/whatsapp/index.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import type { Adapter, ConversationRef, Inbound, InboundRevision } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { isolatedRedisStore } from '../../support/redis.js';
import { RevisingSink } from '../../support/revising-sink.js';

const USER = '4915112345678';
const CHAT = `${USER}@c.us`;
const OTHER = '4917600000002';
const GROUP = '120363000000000001@g.us';
const conversation: ConversationRef = { bot: 'main', platform: 'whatsapp', id: CHAT };
const COMMANDS = ['start', 'help', 'reset', 'human', 'stop'].map((name) => ({ name, description: '' }));
const TIMINGS = {
  ttlMs: 3_000,
  renewEveryMs: 1_000,
  retryEveryMs: 200,
  restartMinMs: 200,
  restartMaxMs: 1_000,
  destroyTimeoutMs: 2_000,
};

interface Harness {
  fake: FakeWhatsApp;
  adapter: Adapter;
  sink: RevisingSink;
  /** The first Inbound the core got for this message id. */
  accepted(messageId: string): Promise<Inbound>;
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  cleanups = [];
});

async function harness(): Promise<Harness> {
  const fake = await startFakeWhatsApp();
  const store = isolatedRedisStore('whatsapp-as-written');
  const scan = (): void => {
    if (fake.clients().some((client) => client.state === 'waiting-for-qr')) fake.scanQr();
  };
  fake.world.on('change', scan);
  const adapter = createWhatsAppAdapter({
    bot: 'main',
    logger: silentLogger(),
    storage: platformStorage(store, 'whatsapp', 'main'),
    chromiumPath: process.execPath,
    library: () => Promise.resolve(fake.library),
    timings: TIMINGS,
    terminalQr: false,
    // The greeting is another test's matter: here every accept() is the user's message.
    welcomeNewChats: false,
  });
  const sink = new RevisingSink();
  await adapter.start(sink, { commands: COMMANDS });
  cleanups.push(async () => {
    fake.world.off('change', scan);
    await adapter.stop();
    await fake.close();
    await store.cleanup();
  });
  await fake.waitFor(() => adapter.status?.().connected === true, { timeoutMs: 15_000, what: 'a linked client' });
  return {
    fake,
    adapter,
    sink,
    accepted: (id) => sink.next((message) => message.platformMessageId === id),
  };
}

describe('edits', () => {
  it('hands an edited message to the core as a revision with its new text, under the id of the message it edits', async () => {
    const { fake, sink, accepted } = await harness();
    const sent = fake.userSends({ from: USER, text: 'a 3 bedroom in Austni', name: 'Ada' });
    await accepted(sent.id._serialized);
    fake.userEdits(sent.id._serialized, 'a 3 bedroom in Austin');
    const revision = await sink.nextRevision();
    expect(revision).toMatchObject({
      kind: 'edited',
      message: {
        conversation,
        user: { id: CHAT, name: 'Ada' },
        text: 'a 3 bedroom in Austin',
        platformMessageId: sent.id._serialized,
        isGroup: false,
        addressed: true,
      },
    });
    // In the chat's order: the revision after the message it changes.
    expect(sink.calls.map((call) => ('accepted' in call ? 'accepted' : call.revised.kind))).toEqual([
      'accepted',
      'edited',
    ]);
  });

  it('reads an edited text as any text: a command word becomes the command', async () => {
    const { fake, sink, accepted } = await harness();
    const sent = fake.userSends({ from: USER, text: 'hlep' });
    await accepted(sent.id._serialized);
    fake.userEdits(sent.id._serialized, 'Help');
    const revision = await sink.nextRevision();
    expect(revision.kind === 'edited' && revision.message.text).toBe('/help');
  });

  it("takes a photo's edited caption as the message's text, its file still attached", async () => {
    const { fake, sink, accepted } = await harness();
    const sent = fake.userSends({
      from: USER,
      text: 'this kitchen?',
      media: { bytes: new Uint8Array([0xff, 0xd8, 0xff]), mimetype: 'image/jpeg' },
    });
    await accepted(sent.id._serialized);
    fake.userEdits(sent.id._serialized, 'is this kitchen new?');
    const revision = await sink.nextRevision();
    expect(revision).toMatchObject({
      kind: 'edited',
      message: { text: 'is this kitchen new?', attachments: [{ kind: 'image' }] },
    });
  });

  it("never takes the bot's own edits (an answer as it grows) for a user's", async () => {
    const { fake, adapter, sink } = await harness();
    const answer = await adapter.outbound.send(conversation, { text: 'Looking…' });
    await adapter.outbound.edit?.(conversation, answer, 'Looking for 3 bedroom homes in Austin');
    const last = fake.userSends({ from: USER, text: 'thanks' });
    // The chat's order: once the message after the edit is in, the edit was dealt with.
    await sink.next((message) => message.platformMessageId === last.id._serialized);
    expect(fake.screen(CHAT)).toEqual(['Looking for 3 bedroom homes in Austin']);
    expect(sink.revisions).toEqual([]);
  });
});

describe('deletions', () => {
  it('hands a message deleted for everyone to the core as a deletion of its original id', async () => {
    const { fake, sink, accepted } = await harness();
    const sent = fake.userSends({ from: USER, text: 'never mind this', name: 'Ada' });
    await accepted(sent.id._serialized);
    const revoked = fake.userRevokes(sent.id._serialized);
    expect(revoked.id._serialized).not.toBe(sent.id._serialized);
    expect(await sink.nextRevision()).toEqual<InboundRevision>({
      kind: 'deleted',
      conversation,
      user: { id: CHAT, name: 'Ada' },
      platformMessageId: sent.id._serialized,
    });
  });

  it('finds the original id when the library missed the message as it was', async () => {
    const { fake, sink, accepted } = await harness();
    const sent = fake.userSends({ from: USER, text: 'oops' });
    await accepted(sent.id._serialized);
    fake.userRevokes(sent.id._serialized, { withoutBefore: true });
    const revision = await sink.nextRevision();
    expect(revision.kind === 'deleted' && revision.platformMessageId).toBe(sent.id._serialized);
  });

  it('names the author of a message deleted in a group', async () => {
    const { fake, sink, accepted } = await harness();
    const sent = fake.userSends({ group: GROUP, from: OTHER, text: 'which one?', mentionsBot: true, name: 'Bo' });
    await accepted(sent.id._serialized);
    fake.userRevokes(sent.id._serialized);
    expect(await sink.nextRevision()).toMatchObject({
      kind: 'deleted',
      conversation: { id: GROUP },
      user: { id: `${OTHER}@c.us`, name: 'Bo' },
      platformMessageId: sent.id._serialized,
    });
  });
});

describe('replies', () => {
  it("carries the bot's message a reply quotes, as the bot's", async () => {
    const { fake, adapter, accepted } = await harness();
    const listing = await adapter.outbound.send(conversation, { text: '*Oak Street 12*, 3 bedrooms, $420,000' });
    const reply = fake.userSends({ from: USER, text: 'how much is this one?', quoting: listing.id });
    const inbound = await accepted(reply.id._serialized);
    expect(inbound.text).toBe('how much is this one?');
    expect(inbound.quoted).toEqual({ text: '*Oak Street 12*, 3 bedrooms, $420,000', from: 'bot' });
  });

  it("carries a user's message a reply quotes, as a user's, with their name", async () => {
    const { fake, accepted } = await harness();
    const earlier = fake.userSends({ group: GROUP, from: OTHER, text: 'I saw one on Elm Street', name: 'Bo' });
    await accepted(earlier.id._serialized);
    const reply = fake.userSends({
      group: GROUP,
      from: USER,
      text: 'is it still free?',
      mentionsBot: true,
      quoting: earlier.id._serialized,
    });
    const inbound = await accepted(reply.id._serialized);
    expect(inbound.text).toBe('is it still free?');
    expect(inbound.quoted).toEqual({ text: 'I saw one on Elm Street', from: 'user', author: 'Bo' });
  });

  it('carries no quote on a message that replies to nothing', async () => {
    const { fake, accepted } = await harness();
    const sent = fake.userSends({ from: USER, text: 'hello' });
    expect((await accepted(sent.id._serialized)).quoted).toBeUndefined();
  });
});

describe('stop', () => {
  it('takes "stop" as the /stop command when the core answers it', async () => {
    const { fake, accepted } = await harness();
    const sent = fake.userSends({ from: USER, text: 'Stop' });
    expect((await accepted(sent.id._serialized)).text).toBe('/stop');
    const question = fake.userSends({ from: USER, text: 'stop sending me flats in Austin' });
    expect((await accepted(question.id._serialized)).text).toBe('stop sending me flats in Austin');
  });
});
