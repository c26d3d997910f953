/**
 * The Slack path for integration tests of one feature: the real Bolt adapter (HTTP Events
 * mode, its routes mounted as the runtime mounts them) receiving signed events from the
 * fake Slack, the gateway core on real Redis, the real client and the embedded service.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSlackAdapter, type SlackAdapter } from '../../../adapters/slack/index.js';
import { createGateway, type Gateway } from '../../../src/gateway/index.js';
import type { ChatbotSettings } from '../../../src/upstream/api.js';
import { silentLogger } from '../../../src/logger.js';
import { startService, DEMO_SERIAL_NUMBER, type RunningService } from '../../../src/service/index.js';
import { ChatbotServiceClient } from '../../../src/upstream/index.js';
import {
  signedEventRequest,
  startFakeSlack,
  type FakeSlack,
  type FakeSlackOptions,
} from '../../../fakes/slack/index.js';
import { isolatedRedisStore } from '../../support/redis.js';

const SECRET = 'slack-stack-secret';
const SESSION_KEY = 'slack-stack-session';

export interface SlackStack {
  fake: FakeSlack;
  adapter: SlackAdapter;
  gateway: Gateway;
  /** POSTs a signed body to this bot's events path, as Slack does. */
  post(
    body: Parameters<typeof signedEventRequest>[2],
    options?: Parameters<typeof signedEventRequest>[3],
  ): Promise<Response>;
  close(): Promise<void>;
}

export interface SlackStackOptions {
  fake?: FakeSlackOptions;
  /** The chatbot's settings (e.g. EnableUploadImage), as the service stores them. */
  settings?: ChatbotSettings;
}

export async function startSlackStack(options: SlackStackOptions = {}): Promise<SlackStack> {
  const fake = await startFakeSlack({ rateLimits: false, ...options.fake });
  const serviceStore = isolatedRedisStore('slack-svc');
  const gatewayStore = isolatedRedisStore('slack-gw');
  const service: RunningService = await startService({
    state: serviceStore,
    secretKey: SECRET,
    sessionKey: SESSION_KEY,
    seedDemo: true,
  });
  const client = new ChatbotServiceClient({ baseUrl: service.url, secretKey: SECRET, sessionKey: SESSION_KEY });
  const adapter = createSlackAdapter({
    bot: 'main',
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
    logger: silentLogger(),
  });
  const app = express();
  for (const route of adapter.routes) app.use(route.path, route.handler);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const gateway = createGateway({
    state: gatewayStore,
    upstream: client,
    bots: [
      { id: 'main', serialNumber: DEMO_SERIAL_NUMBER, ...(options.settings ? { settings: options.settings } : {}) },
    ],
    adapters: [adapter],
    logger: silentLogger(),
    policy: { stopGraceMs: 1_000, burstMs: 0 },
  });
  await gateway.start();
  return {
    fake,
    adapter,
    gateway,
    post: (body, opts) => signedEventRequest(`${base}/slack/main/events`, fake.signingSecret, body, opts),
    async close() {
      await gateway.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await fake.close();
      await service.close();
      await client.close();
      await serviceStore.cleanup();
      await gatewayStore.cleanup();
    },
  };
}
