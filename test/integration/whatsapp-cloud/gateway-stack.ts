/**
 * The WhatsApp Cloud path for the gateway's integration tests: the fake Cloud API posting its
 * webhooks to one or more gateway "processes" (each: the real adapter, its routes on an HTTP
 * server, the real core) sharing one real Redis, behind a round-robin load balancer, asking
 * the scripted Chatbot Service through the real client.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../../fakes/round-robin-proxy.js';
import {
  startFakeWhatsAppCloud,
  type FakeWhatsAppCloud,
  type FakeWhatsAppCloudOptions,
} from '../../../fakes/whatsapp-cloud/index.js';
import type { ScriptedChatbotService } from '../../../fakes/chatbot-service/index.js';
import { createGateway, type Gateway, type GatewayObserver } from '../../../src/gateway/index.js';
import { silentLogger } from '../../../src/logger.js';
import { RedisStateStore } from '../../../src/state/index.js';
import type { ChatbotSettings } from '../../../src/upstream/api.js';
import { isolatedRedisStore } from '../../support/redis.js';
import { upstreamClient } from '../../support/scripted-service.js';
import { adapterOnFake } from './cloud-stack.js';

export const SETTINGS: ChatbotSettings = {
  WelcomeMessage: 'Welcome to **Oakridge Homes**!',
  SuggestedMessage: 'Homes with a garden|Pets allowed?',
  EnableUploadImage: true,
  EnablePushToTalk: true,
};

export interface CloudGatewayStack {
  fake: FakeWhatsAppCloud;
  gateways: Gateway[];
  /** What the gateways' observers were told of closed reply windows (conversation ids). */
  windowsClosed: string[];
  close(): Promise<void>;
}

export async function startCloudGateways(
  service: ScriptedChatbotService,
  options: { replicas?: number; fake?: FakeWhatsAppCloudOptions } = {},
): Promise<CloudGatewayStack> {
  const fake = await startFakeWhatsAppCloud(options.fake);
  const store = isolatedRedisStore('cloud-gw', { checkSlots: true });
  const windowsClosed: string[] = [];
  const observer: GatewayObserver = { windowClosed: (conversation) => void windowsClosed.push(conversation.id) };
  const gateways: Gateway[] = [];
  const servers: Server[] = [];
  const stores: RedisStateStore[] = [];
  for (let replica = 0; replica < (options.replicas ?? 1); replica++) {
    // Each replica its own connection, as another process has.
    const state =
      replica === 0 ? store : new RedisStateStore({ topology: store.topology, prefix: store.prefix, checkSlots: true });
    if (replica > 0) stores.push(state as RedisStateStore);
    const adapter = adapterOnFake(fake, state);
    const app = express();
    for (const route of adapter.routes) app.use(route.path, route.handler);
    servers.push(
      await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      }),
    );
    const gateway = createGateway({
      state,
      upstream: upstreamClient(service),
      bots: [{ id: 'main', serialNumber: 'cloud-serial', settings: SETTINGS }],
      adapters: [adapter],
      logger: silentLogger(),
      observer,
      policy: { stopGraceMs: 1_000, burstMs: 0 },
    });
    await gateway.start();
    gateways.push(gateway);
  }
  const proxy: RoundRobinProxy = await startRoundRobinProxy(
    servers.map((server) => (server.address() as AddressInfo).port),
  );
  fake.setWebhook(`${proxy.url}/whatsapp-cloud/webhook`);
  return {
    fake,
    gateways,
    windowsClosed,
    async close() {
      for (const gateway of gateways) await gateway.stop();
      await proxy.close();
      for (const server of servers) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      }
      await fake.close();
      for (const other of stores) await other.close();
      await store.cleanup();
    },
  };
}
