/**
 * The WhatsApp adapter on the fake whatsapp-web.js and the fake WhatsApp, behind the real
 * gateway core on Redis with a scripted Chatbot Service: what a WhatsApp user gets beyond
 * the conformance suite (the greeting of a first contact, an edit WhatsApp refuses, files
 * WhatsApp no longer has, stickers and locations, a file too large to download).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWhatsAppAdapter } from '../../../adapters/whatsapp/index.js';
import type { Adapter } from '../../../src/contract.js';
import { createGateway, type Gateway } from '../../../src/gateway/index.js';
import { silentLogger } from '../../../src/logger.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import type { ScriptedChatbotService } from '../../../fakes/chatbot-service/index.js';
import { fullAnswer, startConformanceService } from '../../conformance/scripted-service.js';
import { startFakeWhatsApp, type FakeWhatsApp, type UserMessageInput } from '../../../fakes/whatsapp/index.js';
import { isolatedRedisStore } from '../../support/redis.js';
import { upstreamClient } from '../../support/scripted-service.js';

const WELCOME = 'Welcome to Oakridge Homes! Ask me about homes.';
const USER = '4915112345678';
const CHAT = `${USER}@c.us`;
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
  service: ScriptedChatbotService;
  /** The user writes (once the number is linked). */
  send(input: UserMessageInput): Promise<void>;
  /** Stops the gateway and starts another on the same Redis and the same WhatsApp (a restart). */
  restart(): Promise<void>;
}

let cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  cleanups = [];
});

/** `idleTtlMs`: gateway.sessionIdleTtlMs, which the platform storage hands the adapter too (default: the gateway's). */
async function harness(options: { idleTtlMs?: number } = {}): Promise<Harness> {
  const fake = await startFakeWhatsApp();
  const store = isolatedRedisStore('whatsapp-adapter');
  const service = await startConformanceService();
  const upstream = upstreamClient(service);
  const scan = (): void => {
    if (fake.clients().some((client) => client.state === 'waiting-for-qr')) fake.scanQr();
  };
  fake.world.on('change', scan);
  let adapter: Adapter;
  let gateway: Gateway;
  const start = async () => {
    adapter = createWhatsAppAdapter({
      bot: 'main',
      logger: silentLogger(),
      storage: platformStorage(store, 'whatsapp', 'main', { conversationIdleTtlMs: options.idleTtlMs }),
      chromiumPath: process.execPath,
      library: () => Promise.resolve(fake.library),
      timings: TIMINGS,
      terminalQr: false,
    });
    gateway = createGateway({
      state: store,
      upstream,
      bots: [
        {
          id: 'main',
          serialNumber: 'WA-SERIAL',
          settings: { WelcomeMessage: WELCOME, EnableUploadImage: true, EnablePushToTalk: true },
        },
      ],
      adapters: [adapter],
      logger: silentLogger(),
      policy: {
        lockTtlMs: 1_500,
        heartbeatMs: 500,
        sweepIntervalMs: 250,
        stopGraceMs: 200,
        ...(options.idleTtlMs ? { sessionIdleTtlMs: options.idleTtlMs } : {}),
      },
    });
    await gateway.start();
  };
  await start();
  cleanups.push(async () => {
    fake.world.off('change', scan);
    await gateway.stop();
    await fake.close();
    await store.cleanup();
  });
  return {
    fake,
    service,
    async send(input) {
      await fake.waitFor(() => adapter.status?.().connected === true, {
        timeoutMs: 15_000,
        what: 'a linked, ready client',
      });
      fake.userSends({ from: USER, ...input });
    },
    async restart() {
      await gateway.stop();
      await start();
    },
  };
}

const until = (fake: FakeWhatsApp, check: () => boolean, what: string) =>
  fake.waitFor(check, { timeoutMs: 15_000, what });

describe('the first contact', () => {
  it('greets a new private chat with the WelcomeMessage, then answers its first message, and never greets it again', async () => {
    const { fake, send, restart } = await harness();
    await send({ text: 'first question' });
    await until(
      fake,
      () => fake.screen(CHAT).includes(fullAnswer('first question')),
      'the answer to the first message',
    );
    expect(fake.screen(CHAT)).toEqual([WELCOME, fullAnswer('first question')]);

    await restart();
    await send({ text: 'second question' });
    await until(fake, () => fake.screen(CHAT).includes(fullAnswer('second question')), 'the answer after a restart');
    expect(fake.screen(CHAT).filter((text) => text === WELCOME)).toHaveLength(1);
  });

  it('greets a chat again, with its new session, once it was quiet longer than the idle time', async () => {
    const idleTtlMs = 1_000;
    const { fake, send } = await harness({ idleTtlMs });
    await send({ text: 'first question' });
    await until(
      fake,
      () => fake.screen(CHAT).includes(fullAnswer('first question')),
      'the answer to the first message',
    );
    // Quiet for longer than the idle time: the greeting mark went with the session.
    await new Promise((resolve) => setTimeout(resolve, idleTtlMs * 2));
    await send({ text: 'back again' });
    await until(fake, () => fake.screen(CHAT).includes(fullAnswer('back again')), 'the answer after the quiet time');
    expect(fake.screen(CHAT)).toEqual([WELCOME, fullAnswer('first question'), WELCOME, fullAnswer('back again')]);
  });

  it('greets once when the first message is "start" itself', async () => {
    const { fake, send } = await harness();
    await send({ text: 'start' });
    await send({ text: 'a question' });
    await until(fake, () => fake.screen(CHAT).includes(fullAnswer('a question')), 'the answer');
    expect(fake.screen(CHAT)).toEqual([WELCOME, fullAnswer('a question')]);
  });
});

describe('answers', () => {
  it('goes on in a new message when WhatsApp refuses an edit, exactly where the refused one ends', async () => {
    const { fake, service, send } = await harness();
    await send({ text: 'warm up' });
    await until(fake, () => fake.screen(CHAT).includes(fullAnswer('warm up')), 'the first answer');
    const held = service.holdNextAnswer();
    await send({ text: 'long question' });
    await held.reached;
    await until(
      fake,
      () => fake.screen(CHAT).some((text) => text.startsWith('About long question')),
      'the first part shown',
    );
    fake.refuseNextEdit(5);
    held.release();
    const whole = fullAnswer('long question');
    await until(fake, () => fake.screen(CHAT).at(-1)?.endsWith(whole.slice(-20)) === true, 'the end of the answer');
    // The refused message keeps what it showed; the answer goes on in new messages from there:
    // read one after another they are the answer, each part once (only the space at a cut differs).
    const answer = fake.screen(CHAT).slice(2);
    expect(answer.length).toBeGreaterThan(1);
    expect(answer[0]).not.toBe(whole);
    const literal = (text: string) => text.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(whole).toMatch(new RegExp(`^${answer.map(literal).join('\\s*')}$`));
  });
});

describe('files', () => {
  it('tells the user when WhatsApp no longer has the file, instead of failing', async () => {
    const { fake, service, send } = await harness();
    await send({ text: 'start' });
    await send({
      text: 'old photo',
      media: { bytes: new Uint8Array([0xff, 0xd8, 0xff]), mimetype: 'image/jpeg', expired: true },
    });
    await until(fake, () => fake.screen(CHAT).length > 2, 'a note on the expired photo and the answer to its caption');
    expect(fake.screen(CHAT).at(-2)).toBe(
      "I couldn't read this photo: the chat no longer has its file (it expired or was deleted). Please send it again. " +
        "I'm answering your message without it.",
    );
    expect(service.uploads).toEqual([]);
    expect(service.questions).toEqual(['old photo']);
  });

  it('refuses a file too large by the size WhatsApp announces, without downloading it', async () => {
    const { fake, service, send } = await harness();
    await send({ text: 'start' });
    await send({
      text: 'big video',
      media: { bytes: new Uint8Array(16), mimetype: 'video/mp4', declaredSize: 500 * 1024 * 1024 },
    });
    await until(fake, () => fake.screen(CHAT).length > 1, 'a reply to the video');
    expect(fake.screen(CHAT).at(-1)).toMatch(/MB/);
    expect(fake.calls().filter((call) => call.method === 'downloadMedia')).toEqual([]);
    expect(service.uploads).toEqual([]);
  });

  it('answers a sticker and a location with what the chatbot can take', async () => {
    const { fake, service, send } = await harness();
    await send({ text: 'start' });
    await send({ type: 'sticker', media: { bytes: new Uint8Array([0x52, 0x49, 0x46, 0x46]), mimetype: 'image/webp' } });
    await until(fake, () => fake.screen(CHAT).length > 1, 'a reply to the sticker');
    expect(fake.screen(CHAT).at(-1)).toMatch(/stickers/);
    await send({ type: 'location', text: '' });
    await until(fake, () => fake.screen(CHAT).length > 2, 'a reply to the location');
    expect(fake.screen(CHAT).at(-1)).toMatch(/can't read this kind of file.*photos/i);
    expect(service.questions).toEqual([]);
  });
});
