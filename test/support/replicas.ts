/**
 * What the replica and graceful-shutdown tests share: `chatbridge start`
 * processes in Telegram webhook mode on one Redis key prefix, every one registering
 * the same public webhook URL (the load balancer's), and talking to a Chatbot
 * Service over HTTP whose answers name the question, so order is checkable.
 */
import { randomUUID } from 'node:crypto';
import { RedisStateStore } from '../../src/state/index.js';
import { startChatbridge, type ChatbridgeProcess } from './chatbridge-process.js';
import { testRedisUrl } from './redis.js';
import { SERIAL_NUMBER } from './delivery-gateway.js';

export interface Replica {
  process: ChatbridgeProcess;
  port: number;
}

export interface ReplicaSet {
  /** The key prefix every replica shares. */
  readonly prefix: string;
  readonly state: RedisStateStore;
  readonly replicas: Replica[];
  /**
   * Starts one more replica on the shared state; `cli` another bin/chatbridge.js (an earlier version), `env` settings of
   * its own (e.g. another UPSTREAM_BASE_URL).
   */
  start(options?: { cli?: string; env?: Record<string, string> }): Promise<Replica>;
  /** Stops every replica still running and deletes the shared keys. */
  cleanup(): Promise<void>;
}

export function replicaSet(options: {
  telegram: { token: string; apiRoot: string };
  /** The load balancer's URL, registered as the webhook by every replica. */
  webhookUrl: string;
  upstreamUrl: string;
  /** Config `gateway:` settings (lock timings, grace period). */
  gateway?: Record<string, number>;
  env?: Record<string, string>;
}): ReplicaSet {
  const prefix = `cbtest:e2e-replicas:${randomUUID().slice(0, 8)}:`;
  const state = new RedisStateStore({ url: testRedisUrl(), prefix });
  const replicas: Replica[] = [];
  return {
    prefix,
    state,
    replicas,
    async start(own = {}) {
      const process = await startChatbridge(
        {
          TELEGRAM_BOT_TOKEN: options.telegram.token,
          TELEGRAM_API_ROOT: options.telegram.apiRoot,
          TELEGRAM_MODE: 'webhook',
          TELEGRAM_WEBHOOK_URL: options.webhookUrl,
          UPSTREAM_BASE_URL: options.upstreamUrl,
          UPSTREAM_SECRET_KEY: 'replica-test-secret',
          UPSTREAM_SESSION_KEY: 'replica-test-session',
          CHATBOT_SERIAL_NUMBER: SERIAL_NUMBER,
          ...options.env,
          ...own.env,
        },
        // One answer per message unless a test asks for bursts (burst-replicas.test.ts keeps the default).
        { prefix, gateway: { burstMs: 0, ...options.gateway }, ...(own.cli ? { cli: own.cli } : {}) },
      );
      const replica = { process, port: process.port };
      replicas.push(replica);
      return replica;
    },
    async cleanup() {
      // A killed replica has nothing left to stop (and would never say it exited again).
      for (const replica of replicas) if (replica.process.child.signalCode === null) await replica.process.stop();
      await state.deleteByPrefix();
      await state.close();
    },
  };
}
