/**
 * The whole path on Telegram: the real grammY adapter polling the fake Bot API,
 * the gateway core on real Redis, the real client and the embedded service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter, type TelegramAdapter } from '../../../adapters/telegram/index.js';
import { createGateway, type Gateway } from '../../../src/gateway/index.js';
import { silentLogger } from '../../../src/logger.js';
import { startService, DEMO_SERIAL_NUMBER, type RunningService } from '../../../src/service/index.js';
import type { ChatbotSettings } from '../../../src/upstream/api.js';
import { ChatbotServiceClient } from '../../../src/upstream/index.js';
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from '../../../fakes/telegram/index.js';
import { isolatedRedisStore } from '../../support/redis.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/media');
const USER = { id: 777, first_name: 'Grace', username: 'grace' };
const SECRET = 'tg-gateway-secret';
const SESSION_KEY = 'tg-gateway-session';
const MB = 1024 * 1024;

interface Stack {
  fake: FakeTelegram;
  gateway: Gateway;
  adapter: TelegramAdapter;
  serviceStore: ReturnType<typeof isolatedRedisStore>;
  close(): Promise<void>;
}

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(options: { fake?: FakeTelegramOptions; settings?: ChatbotSettings } = {}): Promise<Stack> {
  const fake = await startFakeTelegram(options.fake);
  const serviceStore = isolatedRedisStore('tg-svc');
  const gatewayStore = isolatedRedisStore('tg-gw');
  const service: RunningService = await startService({
    state: serviceStore,
    secretKey: SECRET,
    sessionKey: SESSION_KEY,
    seedDemo: true,
  });
  const client = new ChatbotServiceClient({ baseUrl: service.url, secretKey: SECRET, sessionKey: SESSION_KEY });
  const adapter = createTelegramAdapter({
    bot: 'main',
    token: fake.token,
    apiRoot: fake.apiRoot,
    mode: 'polling',
    logger: silentLogger(),
    botInfo: fake.botInfo,
  });
  const gateway = createGateway({
    state: gatewayStore,
    upstream: client,
    bots: [
      {
        id: 'main',
        serialNumber: DEMO_SERIAL_NUMBER,
        settings: { EnableUploadImage: true, EnablePushToTalk: true, ...options.settings },
      },
    ],
    adapters: [adapter],
    logger: silentLogger(),
    policy: { stopGraceMs: 1_000, burstMs: 0 },
  });
  await gateway.start();
  stack = {
    fake,
    gateway,
    adapter,
    serviceStore,
    async close() {
      await gateway.stop();
      await fake.close();
      await service.close();
      await client.close();
      await serviceStore.cleanup();
      await gatewayStore.cleanup();
    },
  };
  return stack;
}

const texts = (fake: FakeTelegram) => fake.visibleMessages(USER.id).map((m) => m.text);

/** The files the service received, with the type it sniffed from their bytes. */
async function uploadedFiles(store: Stack['serviceStore']): Promise<{ mime?: string; size?: number }[]> {
  const keys = await store.client.keys(`${store.prefix}svc:file:*`);
  const values = await Promise.all(keys.map((key) => store.client.get(key)));
  return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as { mime?: string; size?: number });
}

describe('Telegram end to end through the gateway', () => {
  it('answers a duplicate update once', async () => {
    const { fake } = await start({ fake: { rateLimit: false } });
    const update = fake.userSends({ chat: USER.id, from: USER, text: 'Homes for sale in Austin?' });
    await fake.waitFor(() => texts(fake).some((t) => t.includes('MLS TX-10452')), {
      timeoutMs: 10_000,
      what: 'the answer',
    });
    fake.redeliver(update);
    fake.userSends({ chat: USER.id, from: USER, text: 'Rentals in Denver?' });
    await fake.waitFor(() => texts(fake).some((t) => t.includes('CO-61240')), {
      timeoutMs: 10_000,
      what: 'the second answer',
    });
    expect(texts(fake).filter((t) => t.includes('MLS TX-10452'))).toHaveLength(1);
  });

  it('answers two messages sent during one answer, both, in order', async () => {
    const { fake } = await start({ fake: { rateLimit: false } });
    fake.userSends({ chat: USER.id, from: USER, text: 'Homes for sale in Austin?' });
    fake.userSends({ chat: USER.id, from: USER, text: 'Rentals in Denver?' });
    fake.userSends({ chat: USER.id, from: USER, text: 'Tell me about MLS OR-22031' });
    await fake.waitFor(() => texts(fake).some((t) => t.includes('4021 SE Ankeny')), {
      timeoutMs: 15_000,
      what: 'the third answer',
    });
    const shown = texts(fake);
    const austin = shown.findIndex((t) => t.includes('TX-10452'));
    const denver = shown.findIndex((t) => t.includes('CO-61240'));
    const portland = shown.findIndex((t) => t.includes('4021 SE Ankeny'));
    expect(austin).toBeGreaterThanOrEqual(0);
    expect(denver).toBeGreaterThan(austin);
    expect(portland).toBeGreaterThan(denver);
  });

  it('ends on the full answer through a storm of 429s in a group', async () => {
    const { fake } = await start({ fake: { rateLimit: { perChatPerSecond: 1, burst: 1, groupPerMinute: 20 } } });
    const group = { id: -4242, type: 'supergroup' as const, title: 'House hunters' };
    for (let i = 0; i < 8; i++) fake.failNext('editMessageText', { errorCode: 429, retryAfter: 1 }, 1);
    fake.failNext('sendMessage', { errorCode: 429, retryAfter: 1 }, 1);
    fake.userSends({ chat: group, from: USER, text: `@${fake.botInfo.username} homes for sale in Austin?` });
    await fake.waitFor(() => fake.visibleMessages(group.id).some((m) => m.text.includes('MLS TX-10977')), {
      timeoutMs: 20_000,
      what: 'the final answer',
    });
    expect(fake.tooManyRequestsCount()).toBeGreaterThan(0);
    const final = fake.visibleMessages(group.id).at(-1)!.text;
    expect(final).toContain('1812 Elm St');
    expect(final).toContain('300 Bowie St');
  });

  it('refuses an oversized file with a clear reply, without downloading it', async () => {
    const { fake } = await start({ fake: { rateLimit: false } });
    const photo = fake.addFile(readFileSync(join(FIXTURES, 'tiny.jpg')), {
      mimeType: 'image/jpeg',
      declaredSize: 25 * MB,
    });
    fake.userSends({ chat: USER.id, from: USER, photo, caption: 'Is this house for sale?' });
    await fake.waitFor(() => texts(fake).some((t) => /20 MB/.test(t)), { timeoutMs: 10_000, what: 'the refusal' });
    expect(fake.downloads()).toEqual([]);
  });

  it('refuses a document of a type the service does not take, with a clear reply', async () => {
    const { fake } = await start({ fake: { rateLimit: false } });
    const pdf = fake.addFile(new TextEncoder().encode('%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), {
      fileName: 'brochure.pdf',
      mimeType: 'application/pdf',
    });
    fake.userSends({ chat: USER.id, from: USER, document: pdf });
    await fake.waitFor(() => fake.visibleMessages(USER.id).length > 0, { timeoutMs: 10_000, what: 'the refusal' });
    expect(texts(fake).at(-1)).toMatch(/photo|image|video|voice|audio/i);
    expect(await uploadedFiles(stack!.serviceStore)).toEqual([]);
  });

  it('refuses photos when the chatbot has image upload turned off', async () => {
    const { fake } = await start({ fake: { rateLimit: false }, settings: { EnableUploadImage: false } });
    const photo = fake.addFile(readFileSync(join(FIXTURES, 'tiny.jpg')), { mimeType: 'image/jpeg' });
    fake.userSends({ chat: USER.id, from: USER, photo });
    await fake.waitFor(() => fake.visibleMessages(USER.id).length > 0, { timeoutMs: 10_000, what: 'the refusal' });
    expect(texts(fake).at(-1)).toMatch(/image|photo/i);
    expect(await uploadedFiles(stack!.serviceStore)).toEqual([]);
  });

  it('forwards a voice note to the service as a WAV file', async () => {
    const { fake } = await start({ fake: { rateLimit: false } });
    const voice = fake.addFile(readFileSync(join(FIXTURES, 'voice-440hz-2s.ogg')), { mimeType: 'audio/ogg' });
    fake.userSends({ chat: USER.id, from: USER, voice: { ...voice, duration: 2 } });
    await fake.waitFor(() => fake.visibleMessages(USER.id).length > 0, {
      timeoutMs: 15_000,
      what: 'an answer to the voice note',
    });
    const files = await uploadedFiles(stack!.serviceStore);
    expect(files).toHaveLength(1);
    expect(files[0]!.mime).toBe('audio/wav');
    // 2 s of 16 kHz 16-bit mono PCM plus the 44-byte header.
    expect(files[0]!.size).toBeGreaterThan(60_000);
  });

  it('sends an album of photos as one question with several files', async () => {
    const { fake } = await start({ fake: { rateLimit: false } });
    const first = fake.addFile(readFileSync(join(FIXTURES, 'tiny.jpg')), { mimeType: 'image/jpeg' });
    const second = fake.addFile(readFileSync(join(FIXTURES, 'tiny.png')), { mimeType: 'image/png' });
    fake.userSends({
      chat: USER.id,
      from: USER,
      photo: first,
      media_group_id: 'album-1',
      caption: 'Which of these is for sale?',
    });
    fake.userSends({ chat: USER.id, from: USER, photo: second, media_group_id: 'album-1' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).length > 0, { timeoutMs: 15_000, what: 'one answer' });
    expect((await uploadedFiles(stack!.serviceStore)).map((f) => f.mime).sort()).toEqual(['image/jpeg', 'image/png']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.visibleMessages(USER.id)).toHaveLength(1);
  });
});
