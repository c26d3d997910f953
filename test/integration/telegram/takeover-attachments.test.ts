/**
 * A photo accepted by one gateway process and answered by another, on the real
 * stack: two gateways with their own Telegram adapters on one Redis prefix and one
 * fake Bot API, the real client and the embedded service. Process A queues the
 * photo and stops before answering; process B takes the queue over and must fetch
 * the photo again from its Telegram file_id (the attachment's `ref`), not ask the
 * user to send it again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../../adapters/telegram/index.js';
import { AttachmentTooLargeError, AttachmentUnavailableError } from '../../../src/gateway/media/errors.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../../src/gateway/index.js';
import { silentLogger } from '../../../src/logger.js';
import { startService, DEMO_SERIAL_NUMBER } from '../../../src/service/index.js';
import { ChatbotServiceClient } from '../../../src/upstream/index.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { isolatedRedisStore, testRedisUrl } from '../../support/redis.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { CollectingSink } from './collecting-sink.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/media');
const USER = { id: 778, first_name: 'Ada', username: 'ada' };
const SECRET = 'tg-takeover-secret';
const SESSION_KEY = 'tg-takeover-session';
const MB = 1024 * 1024;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type ServiceStore = ReturnType<typeof isolatedRedisStore>;

/** The files the service received, with the type it sniffed from their bytes. */
async function uploadedFiles(store: ServiceStore): Promise<{ mime?: string; size?: number }[]> {
  const keys = await store.client.keys(`${store.prefix}svc:file:*`);
  const values = await Promise.all(keys.map((key) => store.client.get(key)));
  return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as { mime?: string; size?: number });
}

async function startStack(): Promise<{ fake: FakeTelegram; a: Gateway; b: Gateway; serviceStore: ServiceStore }> {
  const fake = await startFakeTelegram({ rateLimit: false });
  cleanups.push(() => fake.close());
  const serviceStore = isolatedRedisStore('tg-takeover-svc');
  cleanups.push(() => serviceStore.cleanup());
  const service = await startService({
    state: serviceStore,
    secretKey: SECRET,
    sessionKey: SESSION_KEY,
    seedDemo: true,
  });
  cleanups.push(() => service.close());
  const client = new ChatbotServiceClient({ baseUrl: service.url, secretKey: SECRET, sessionKey: SESSION_KEY });
  cleanups.push(() => client.close());

  // One Redis prefix, one connection per process, as two gateway processes would have.
  const storeA = isolatedRedisStore('tg-takeover-gw');
  cleanups.push(() => storeA.cleanup());
  const storeB = new RedisStateStore({ url: testRedisUrl(), prefix: storeA.prefix });
  cleanups.push(() => storeB.close());

  const common = (adapter: GatewayOptions['adapters'][number], state: RedisStateStore): GatewayOptions => ({
    state,
    upstream: client,
    bots: [{ id: 'main', serialNumber: DEMO_SERIAL_NUMBER, settings: { EnableUploadImage: true } }],
    adapters: [adapter],
    logger: silentLogger(),
    // A's stop cuts its held turn off quickly; the message stays queued for B.
    policy: { stopGraceMs: 100 },
  });
  const telegram = {
    bot: 'main',
    token: fake.token,
    apiRoot: fake.apiRoot,
    logger: silentLogger(),
    botInfo: fake.botInfo,
  };

  // A polls the fake. B cannot poll too: the fake (like Telegram) answers 409 "terminated by
  // other getUpdates request" to one of two pollers. B runs in webhook mode without a public
  // URL, so it registers no webhook (which would make A's getUpdates 409 as well) and never
  // receives an update, like the process behind a load balancer that did not get this one. It
  // still has the Bot API for sending and for restoreAttachment (getFile + download).
  const a = createGateway(common(createTelegramAdapter({ ...telegram, mode: 'polling' }), storeA));
  const b = createGateway(common(createTelegramAdapter({ ...telegram, mode: 'webhook' }), storeB));
  await a.start();
  cleanups.push(() => a.stop());
  await b.start();
  cleanups.push(() => b.stop());
  return { fake, a, b, serviceStore };
}

describe('a Telegram photo answered by another gateway process', () => {
  it('is downloaded again from its file_id by the process that takes over, and answered', async () => {
    const { fake, a, b, serviceStore } = await startStack();
    // A holds its turn before anything is sent or fetched, until its stop cuts it off.
    let reached!: () => void;
    const held = new Promise<void>((resolve) => {
      reached = resolve;
    });
    a.pipeline.use(
      'beforeCommands',
      (ctx) =>
        new Promise<void>((_resolve, reject) => {
          reached();
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
        }),
    );

    const photo = fake.addFile(readFileSync(join(FIXTURES, 'tiny.jpg')), { mimeType: 'image/jpeg' });
    fake.userSends({ chat: USER.id, from: USER, photo, caption: 'Is this house for sale?' });
    await held;
    await a.stop();
    expect(fake.downloads()).toEqual([]);

    expect(await b.sweep()).toBe(1);
    await fake.waitFor(() => fake.visibleMessages(USER.id).length > 0, {
      timeoutMs: 15_000,
      what: 'the answer from process B',
    });
    expect((await uploadedFiles(serviceStore)).map((file) => file.mime)).toEqual(['image/jpeg']);
    expect(fake.downloads()).toHaveLength(1);
    const texts = fake.visibleMessages(USER.id).map((message) => message.text);
    expect(texts.join('\n')).not.toMatch(/send it again|couldn't download/i);
  });
});

describe('Telegram restoreAttachment', () => {
  async function received(send: (fake: FakeTelegram) => void) {
    const fake = await startFakeTelegram({ rateLimit: false });
    cleanups.push(() => fake.close());
    const options = {
      bot: 'main',
      token: fake.token,
      apiRoot: fake.apiRoot,
      logger: silentLogger(),
      botInfo: fake.botInfo,
    };
    const accepting = createTelegramAdapter({ ...options, mode: 'polling' });
    const sink = new CollectingSink();
    await accepting.start(sink);
    cleanups.push(() => accepting.stop());
    send(fake);
    const [attachment] = (await sink.next()).attachments;
    // Another process's adapter, never started: restoring needs only the Bot API.
    const other = createTelegramAdapter({ ...options, mode: 'webhook' });
    return { fake, attachment: attachment!, other };
  }

  it('rebuilds a fetchable attachment from the ref alone, with the same metadata', async () => {
    const bytes = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 1, 2, 3]);
    const { attachment, other } = await received((fake) => {
      fake.userSends({
        chat: USER.id,
        from: USER,
        voice: { ...fake.addFile(bytes, { mimeType: 'audio/ogg' }), duration: 4 },
      });
    });
    expect(attachment.ref).toEqual(expect.any(String));
    // Through JSON, as the queue keeps it.
    const { fetch: _fetch, ref, ...info } = JSON.parse(JSON.stringify(attachment)) as typeof attachment;
    const restored = other.restoreAttachment!(ref!, info);
    expect(restored).toMatchObject({ kind: 'voice', mimeType: 'audio/ogg', size: bytes.length, durationSeconds: 4 });
    expect(await restored.fetch({ maxBytes: MB })).toEqual(bytes);
  });

  it('keeps the caps: too large for the caller, over 20 MB for Telegram, and an unreadable ref', async () => {
    const { fake, attachment, other } = await received((fake) => {
      fake.userSends({
        chat: USER.id,
        from: USER,
        document: fake.addFile(new Uint8Array(1), { fileName: 'tour.mp4', declaredSize: 25 * MB }),
      });
    });
    const restored = other.restoreAttachment!(attachment.ref!, { kind: 'document', fileName: 'tour.mp4' });
    await expect(restored.fetch({ maxBytes: 10 * MB })).rejects.toBeInstanceOf(AttachmentTooLargeError);
    await expect(restored.fetch({ maxBytes: 100 * MB })).rejects.toBeInstanceOf(AttachmentUnavailableError);
    expect(fake.downloads()).toEqual([]);
    const garbled = other.restoreAttachment!('not json', { kind: 'image' });
    await expect(garbled.fetch({ maxBytes: MB })).rejects.toBeInstanceOf(AttachmentUnavailableError);
  });
});
