/**
 * The WhatsApp Business Cloud API adapter through the conformance suite, against the fake
 * Cloud API (fakes/whatsapp-cloud): its Graph API behind a TCP proxy (cut = Meta unreachable),
 * its webhooks posted, signed, to the adapter's routes on an HTTP server as the runtime mounts
 * them. The user writes to the business number; a "button" is a reply button or a list row of
 * the newest interactive message, and pressing it is the button_reply / list_reply Meta posts.
 * The second gateway instance (crash and takeover) serves the same bot without receiving
 * webhooks, like a replica behind the load balancer that Meta posts to, and answers through
 * the same Graph API. The adapter's storage (numbered choices) is on the test Redis.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWhatsAppCloudAdapter } from '../../adapters/whatsapp-cloud/index.js';
import { GRAPH_VERSION, startFakeWhatsAppCloud, type VisibleCloudMessage } from '../../fakes/whatsapp-cloud/index.js';
import { silentLogger } from '../../src/logger.js';
import { platformStorage } from '../../src/runtime/platform-storage.js';
import { isolatedRedisStore } from '../support/redis.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import type { ConformanceDriver } from './driver.js';
import { describeAdapterConformance } from './suite.js';

const USER = '4915112340001';

/** The choices an interactive message offers: reply buttons, or a list's rows. */
function choicesOf(message: VisibleCloudMessage): { id: string; title: string }[] {
  const interactive = message.interactive;
  if (!interactive) return [];
  return interactive.buttons ?? (interactive.sections ?? []).flatMap((section) => section.rows);
}

async function whatsappCloudDriver(): Promise<ConformanceDriver> {
  // Meta's pair rate limit and throughput off: the suite checks what the adapter delivers, not Meta's pace
  // (the storm has its own tests). Statuses on, as Meta posts them: they must never start a turn.
  const fake = await startFakeWhatsAppCloud({ pairRateLimit: false, throughputPerSecond: false });
  const proxy = await startTcpProxy({ port: Number(new URL(fake.apiUrl).port) });
  const store = isolatedRedisStore('cloud-conformance');
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  fake.setWebhook(`http://127.0.0.1:${(server.address() as AddressInfo).port}/whatsapp-cloud/main/webhook`);

  const visible = () => fake.visibleMessages(USER);
  const withChoices = () =>
    visible()
      .filter((message) => choicesOf(message).length > 0)
      .at(-1);
  const send = async (message: Omit<Parameters<typeof fake.userSends>[0], 'from'>): Promise<void> => {
    await fake.userSends({ from: USER, name: 'Conny', ...message });
  };

  return {
    createAdapter(instance) {
      const adapter = createWhatsAppCloudAdapter({
        bot: 'main',
        accessToken: fake.accessToken,
        phoneNumberId: fake.phoneNumberId,
        appSecret: fake.appSecret,
        verifyToken: fake.verifyToken,
        apiUrl: `${proxy.url}/${GRAPH_VERSION}`,
        logger: silentLogger(),
        storage: platformStorage(store, 'whatsapp-cloud', 'main', { conversationIdleTtlMs: 60 * 60_000 }),
        // The suite's welcome scenario is `/start`; the first-contact greeting has its own tests.
        welcomeNewUsers: false,
        // In production a rate-limited message waits in the adapter first (up to 10 minutes, README) and
        // then the core's rule follows; with no patience the core's rule is met at once, which is what the
        // suite's "429 on the final" checks (the adapter reporting 'rate-limited' with a pause). The adapter's
        // own waiting is tested in test/integration/whatsapp-cloud.
        rateLimitBackoff: { firstMs: 50, maxMs: 200, jitter: 0 },
        rateLimitPatienceMs: 0,
      });
      // Only the first instance receives webhooks (mounted as src/http/server.ts mounts adapter routes).
      if (instance === 0) for (const route of adapter.routes) app.use(route.path, route.handler);
      return adapter;
    },
    async userSends(text) {
      await send({ text });
    },
    async userSendsFile(file, caption) {
      const bytes = Buffer.from(file.bytes);
      const withCaption = caption ? { caption } : {};
      if (file.as === 'photo') await send({ image: { bytes, mimeType: file.mimeType, ...withCaption } });
      else await send({ document: { bytes, mimeType: file.mimeType, filename: file.fileName, ...withCaption } });
    },
    async userSendsGoneFile(file, caption) {
      const bytes = Buffer.from(file.bytes);
      // Meta no longer knows the media id when the gateway asks for it.
      await send({ image: { bytes, mimeType: file.mimeType, vanished: 'media-id', ...(caption ? { caption } : {}) } });
    },
    async userSendsTwice(text) {
      // Meta's webhook is at least once: the same message (same wamid) posted twice.
      await fake.userSends({ from: USER, name: 'Conny', text }, { duplicate: true });
    },
    buttons: () => {
      const message = withChoices();
      return message ? choicesOf(message).map((choice) => choice.title) : [];
    },
    async pressButton(label) {
      const message = withChoices();
      const choice = message ? choicesOf(message).find((candidate) => candidate.title === label) : undefined;
      if (!message || !choice) throw new Error(`WhatsApp shows no button or list row "${label}"`);
      const reply = { id: choice.id, title: choice.title, contextId: message.id };
      await send(message.interactive!.type === 'button' ? { buttonReply: reply } : { listReply: reply });
    },
    // What the user reads of each message: its text, an interactive message's body, a caption.
    screen: () => visible().map((message) => message.text ?? ''),
    // A business message cannot be edited: what was ever shown is what is on the screen.
    renders: () => visible().map((message) => message.text ?? ''),
    async rateLimitNextFinal() {
      // The scripted answer arrives at once, so the next message sent to the user is its final.
      fake.failNext({ code: 131056, to: USER });
    },
    goUnreachable: () => proxy.cut(),
    comeBack: () => proxy.restore(),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await proxy.close();
      await fake.close();
      await store.cleanup();
    },
  };
}

describeAdapterConformance({
  platform: 'whatsapp-cloud',
  notApplicable: {
    'streamed answer':
      'the Cloud API cannot edit a sent message, and one business number may write one user only about once per 6 s ' +
      '(the pair rate limit), so an answer is not shown while it is written: "typing…" is, and the answer goes whole ' +
      'at its end (adapters/whatsapp-cloud/README.md, "Long answers")',
  },
  createDriver: whatsappCloudDriver,
});
