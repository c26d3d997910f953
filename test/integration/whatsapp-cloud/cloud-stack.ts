/**
 * The WhatsApp Cloud adapter on its own, against the fake Cloud API: its routes mounted on an
 * HTTP server as the runtime mounts them (the fake posts its webhooks there), its platform
 * storage on real Redis, and the core's side of the seam a RevisingSink (accept and revise).
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWhatsAppCloudAdapter, type CloudAdapterOptions } from '../../../adapters/whatsapp-cloud/index.js';
import {
  startFakeWhatsAppCloud,
  type FakeWhatsAppCloud,
  type FakeWhatsAppCloudOptions,
} from '../../../fakes/whatsapp-cloud/index.js';
import type { Adapter, HttpRoute, PlatformMetrics } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import type { StateStore } from '../../../src/state/index.js';
import { isolatedRedisStore } from '../../support/redis.js';
import { RevisingSink } from '../../support/revising-sink.js';

/** Tests wait on Meta's rate limits for milliseconds, not seconds. */
export const QUICK_BACKOFF = { firstMs: 5, maxMs: 20, jitter: 0 };

export interface CloudStack {
  fake: FakeWhatsAppCloud;
  adapter: Adapter & { readonly routes: readonly HttpRoute[] };
  sink: RevisingSink;
  /** What the adapter counted through PlatformContext.metrics. */
  failedStatuses: string[];
  /** The gateway's base URL (the adapter's routes). */
  base: string;
  /** Another adapter of the same bot on the same Redis: a second replica. */
  replica(): Adapter;
  close(): Promise<void>;
}

/** The real adapter pointed at the fake with the fake's credentials, its conversations' state in `state` (Redis). */
export function adapterOnFake(
  fake: FakeWhatsAppCloud,
  state: StateStore,
  extra: Partial<CloudAdapterOptions> = {},
): ReturnType<typeof createWhatsAppCloudAdapter> {
  return createWhatsAppCloudAdapter({
    bot: 'main',
    accessToken: fake.accessToken,
    phoneNumberId: fake.phoneNumberId,
    appSecret: fake.appSecret,
    verifyToken: fake.verifyToken,
    apiUrl: fake.apiUrl,
    logger: silentLogger(),
    storage: platformStorage(state, 'whatsapp-cloud', 'main', { conversationIdleTtlMs: 60 * 60_000 }),
    rateLimitBackoff: QUICK_BACKOFF,
    ...extra,
  });
}

export async function startCloudStack(
  options: { fake?: FakeWhatsAppCloudOptions; adapter?: Partial<CloudAdapterOptions> } = {},
): Promise<CloudStack> {
  const fake = await startFakeWhatsAppCloud({ statusWebhooks: false, ...options.fake });
  const store = isolatedRedisStore('cloud-adapter');
  const failedStatuses: string[] = [];
  const metrics: PlatformMetrics = { deliveryFailed: (code) => void failedStatuses.push(code) };
  const make = () => adapterOnFake(fake, store, { metrics, ...options.adapter });
  const adapter = make();
  const app = express();
  for (const route of adapter.routes) app.use(route.path, route.handler);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.setWebhook(`${base}/whatsapp-cloud/webhook`);
  const sink = new RevisingSink();
  await adapter.start(sink, {
    commands: [
      { name: 'start', description: '' },
      { name: 'help', description: '' },
      { name: 'human', description: '' },
      { name: 'listings', description: '', usage: '/listings [city]' },
      { name: 'stop', description: '' },
    ],
  });
  return {
    fake,
    adapter,
    sink,
    failedStatuses,
    base,
    replica: make,
    async close() {
      await adapter.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await fake.close();
      await store.cleanup();
    },
  };
}
