/**
 * An operator's file to a WhatsApp user (Outbound.sendFile) through the adapter on the fake
 * whatsapp-web.js and the fake WhatsApp: what the user's chat shows (a photo, a document with
 * its name and caption, the very bytes), and a file over WhatsApp's limit refused before it is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWhatsAppAdapter } from '../../../adapters/whatsapp/index.js';
import { PlatformError, type Adapter, type ConversationRef } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import { isolatedRedisStore } from '../../support/redis.js';
import { CollectingSink } from '../telegram/collecting-sink.js';

const CHAT = '4915112345678@c.us';
const conversation: ConversationRef = { bot: 'main', platform: 'whatsapp', id: CHAT };
const MB = 1024 * 1024;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  cleanups = [];
});

/** The adapter with a linked, ready client on the fake WhatsApp. */
async function linked(): Promise<{ fake: FakeWhatsApp; adapter: Adapter }> {
  const fake = await startFakeWhatsApp();
  const store = isolatedRedisStore('whatsapp-files');
  const scan = (): void => {
    if (fake.clients().some((client) => client.state === 'waiting-for-qr')) fake.scanQr();
  };
  fake.world.on('change', scan);
  const adapter = createWhatsAppAdapter({
    bot: 'main',
    logger: silentLogger(),
    storage: platformStorage(store, 'whatsapp', 'main'),
    // The fake only checks that an executable is there.
    chromiumPath: process.execPath,
    library: () => Promise.resolve(fake.library),
    timings: { ttlMs: 5_000, renewEveryMs: 1_000, retryEveryMs: 200, restartMinMs: 100, restartMaxMs: 400 },
    terminalQr: false,
  });
  cleanups.push(async () => {
    fake.world.off('change', scan);
    await adapter.stop();
    await fake.close();
    await store.cleanup();
  });
  await adapter.start(new CollectingSink());
  await fake.waitFor(() => adapter.status?.().connected === true, {
    timeoutMs: 15_000,
    what: 'a linked, ready client',
  });
  return { fake, adapter };
}

async function refusal(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

describe('WhatsApp sendFile', () => {
  it('declares what it sends: files up to 100 MB, captions up to 1,024 characters', async () => {
    const { adapter } = await linked();
    expect(adapter.capabilities.maxUploadBytes).toBe(100 * MB);
    expect(adapter.capabilities.maxCaptionLength).toBe(1024);
  });

  it('sends a photo as a photo with its caption: the user gets the very bytes', async () => {
    const { fake, adapter } = await linked();
    const sent = await adapter.outbound.sendFile!(conversation, {
      bytes: PNG,
      fileName: 'kitchen.png',
      mimeType: 'image/png',
      caption: '*The kitchen*',
    });
    const [photo] = fake.sentMedia(CHAT);
    expect([photo!.type, photo!.mimetype, photo!.caption]).toEqual(['image', 'image/png', '*The kitchen*']);
    expect(Buffer.from(photo!.data, 'base64').equals(PNG)).toBe(true);
    expect(fake.world.botMessages(CHAT).map((m) => m.data.id._serialized)).toEqual([sent.id]);
  });

  it('sends a PDF as a document with its file name and caption', async () => {
    const { fake, adapter } = await linked();
    await adapter.outbound.sendFile!(conversation, {
      bytes: PDF,
      fileName: 'Floor plan 12 Oak St.pdf',
      mimeType: 'application/pdf',
      caption: 'Here it is',
    });
    const [document] = fake.sentMedia(CHAT);
    expect([document!.type, document!.mimetype, document!.filename, document!.caption]).toEqual([
      'document',
      'application/pdf',
      'Floor plan 12 Oak St.pdf',
      'Here it is',
    ]);
    expect(Buffer.from(document!.data, 'base64').equals(PDF)).toBe(true);
  });

  it('sends a photo larger than WhatsApp media (16 MB) as a document, whole', async () => {
    const { fake, adapter } = await linked();
    const large = Buffer.alloc(17 * MB, 7);
    await adapter.outbound.sendFile!(conversation, { bytes: large, fileName: 'aerial.jpg', mimeType: 'image/jpeg' });
    const [file] = fake.sentMedia(CHAT);
    expect([file!.type, file!.mimetype, file!.filename]).toEqual(['document', 'image/jpeg', 'aerial.jpg']);
    expect(Buffer.from(file!.data, 'base64').byteLength).toBe(large.byteLength);
  });

  it('refuses a file over 100 MB as too long, naming the limit, without sending anything', async () => {
    const { fake, adapter } = await linked();
    const refused = await refusal(
      adapter.outbound.sendFile!(conversation, {
        bytes: new Uint8Array(100 * MB + 1),
        fileName: 'tour.mp4',
        mimeType: 'video/mp4',
      }),
    );
    expect(refused.kind).toBe('too-long');
    expect(refused.message).toMatch(/at most 100 MB/);
    expect(fake.calls().filter((call) => call.method === 'sendMessage')).toEqual([]);
  });

  it("is unreachable while WhatsApp Web's page is gone, so the core tries again", async () => {
    const { fake, adapter } = await linked();
    fake.goUnreachable();
    const down = await refusal(
      adapter.outbound.sendFile!(conversation, { bytes: PDF, fileName: 'plan.pdf', mimeType: 'application/pdf' }),
    );
    expect(down.kind).toBe('unreachable');
  });
});
