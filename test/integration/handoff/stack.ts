/**
 * What a handoff test runs: the real embedded Chatbot Service (counting the
 * ClientAsk requests that reach it over HTTP), the real client, real Redis, a
 * real SMTP server, and gateway "processes" with the handoff installed, each
 * with its own HTTP server (admin API, hand-back link) and a recording platform.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino, type Logger } from 'pino';
import { buildConfigSchema, type Config } from '../../../src/config/schema.js';
import { createGateway, type Gateway, type GatewayPolicy } from '../../../src/gateway/index.js';
import type { Adapter, Capabilities, OperatorDoor } from '../../../src/contract.js';
import {
  installHandoff,
  type InstalledHandoff,
  type InstallHandoffOptions,
  type OutboxPolicy,
} from '../../../src/handoff/index.js';
import { GatewayMetrics } from '../../../src/http/metrics.js';
import { HttpServer } from '../../../src/http/server.js';
import { silentLogger } from '../../../src/logger.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';
import { createServiceApp, DEMO_SERIAL_NUMBER, seedDemoData } from '../../../src/service/index.js';
import { DEFAULT_UPSTREAM_PATHS } from '../../../src/upstream/paths.js';
import { RedisStateStore, type StateStore } from '../../../src/state/index.js';
import type { ChatbotServiceApi, ChatbotSettings } from '../../../src/upstream/api.js';
import { ChatbotServiceClient } from '../../../src/upstream/index.js';
import { isolatedRedisStore, type TestTopology } from '../../support/redis.js';
import { FakeSmtpServer } from '../../../fakes/smtp/server.js';
import type { MemoryPlatform } from '../../../fakes/memory/index.js';
import { PLAIN_CAPABILITIES, RecordingAdapter } from '../../unit/gateway/support/recording-adapter.js';

export const SECRET = 'handoff-test-secret';
export const SESSION_KEY = 'handoff-test-session-key';
export const ADMIN_TOKEN = 'handoff-admin-token-0123456789';
export const OPERATOR_EMAIL = 'desk@oakridge.example';
export const HANDOFF_REPLY = 'A colleague from Oakridge Homes will answer you here shortly.';
export const CHATBOT_NAME = 'Oakridge Homes assistant';
export { DEMO_SERIAL_NUMBER };

export const HANDOFF_SETTINGS: ChatbotSettings = {
  Name: CHATBOT_NAME,
  TalkToHumanEmail: OPERATOR_EMAIL,
  TalkToHumanResponseMessage: HANDOFF_REPLY,
};

/** The handoff section the tests start from (follow-ups off unless a test turns them on). */
export const TEST_HANDOFF: Config['handoff'] = {
  onNoAnswer: 'offer',
  failureThreshold: 3,
  pauseHours: 24,
  linkHours: 72,
  followUpMinutes: 0,
  phrases: [
    'talk to a human',
    'talk to a person',
    'real person',
    'human agent',
    'agent',
    'operator',
    'speak to someone',
  ],
};

/** Outbox timings short enough for a test to see retries (tests wait for outcomes, never for times). */
export const FAST_OUTBOX = { pollIntervalMs: 50, retryBaseMs: 50, retryCapMs: 200, leaseMs: 5_000 };

/** The threads' worker timings, short enough for a test to see a retry after an outage. */
export const FAST_THREADS = {
  pollMs: 50,
  busyRetryMs: 50,
  retryBaseMs: 50,
  retryCapMs: 200,
  leaseMs: 5_000,
  expiryCheckMs: 50,
};

export interface HandoffStack {
  client: ChatbotServiceClient;
  /** ClientAsk requests that reached the service over HTTP. */
  clientAsks(): number;
  store: RedisStateStore & { cleanup(): Promise<void> };
  smtp: FakeSmtpServer;
  close(): Promise<void>;
}

export async function startHandoffStack(
  label: string,
  options: { topology?: TestTopology } = {},
): Promise<HandoffStack> {
  const serviceStore = isolatedRedisStore(`${label}-svc`);
  // The gateways' store refuses a MULTI or script across slots on one Redis too, as a cluster would.
  const store = isolatedRedisStore(label, { topology: options.topology ?? 'single', checkSlots: true });
  await seedDemoData(serviceStore);
  let asks = 0;
  const app = express();
  app.use((req, _res, next) => {
    if (req.path === DEFAULT_UPSTREAM_PATHS.clientAsk) asks++;
    next();
  });
  app.use(createServiceApp({ state: serviceStore, secretKey: SECRET, sessionKey: SESSION_KEY, seedDemo: false }));
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const client = new ChatbotServiceClient({
    baseUrl: `http://127.0.0.1:${port}`,
    secretKey: SECRET,
    sessionKey: SESSION_KEY,
  });
  const smtp = await FakeSmtpServer.start();
  return {
    client,
    store,
    smtp,
    clientAsks: () => asks,
    async close() {
      await smtp.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await serviceStore.cleanup();
      await store.cleanup();
    },
  };
}

/** Another connection on the same prefix and topology: a second gateway process sharing the Redis. */
export function sameRedis(store: RedisStateStore): RedisStateStore {
  return new RedisStateStore({ topology: store.topology, prefix: store.prefix, checkSlots: true });
}

export interface HandoffProcess {
  gateway: Gateway;
  adapter: RecordingAdapter;
  handoff: InstalledHandoff;
  /** `http://127.0.0.1:<port>` of this process's HTTP server. */
  url: string;
  /** GET/POST on this process's HTTP server, with the admin token. */
  admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

export interface ProcessOptions {
  state: StateStore;
  upstream: ChatbotServiceApi;
  /** Merged over the defaults of the config schema (handoff, smtp, admin, bots). */
  config?: Partial<Pick<Config, 'handoff' | 'smtp' | 'bots'>>;
  settings?: ChatbotSettings;
  capabilities?: Partial<Capabilities>;
  /** The platform, shared by the processes of a test: one user's screen. */
  screen?: MemoryPlatform;
  logger?: Logger;
  /** Over FAST_OUTBOX. */
  outbox?: Partial<OutboxPolicy>;
  /** Over the gateway's default policy. */
  policy?: Partial<GatewayPolicy>;
  /** This process's operator doors. */
  doors?: OperatorDoor[];
  /** The digests' schedule: its clock and how often it looks. */
  digests?: InstallHandoffOptions['digests'];
}

/** A gateway "process" of the handoff tests, built as `chatbridge start` builds one, on the test's adapters. */
export interface GatewayWithHandoff {
  gateway: Gateway;
  handoff: InstalledHandoff;
  /** `http://127.0.0.1:<port>` of this process's HTTP server. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The core with the handoff installed and the one HTTP server (admin API, hand-back link, inbox), started: what every
 * in-process stack of the handoff and inbox tests runs, whatever platform it puts under it.
 */
export async function startGatewayWithHandoff(options: {
  state: StateStore;
  upstream: ChatbotServiceApi;
  config: Config;
  settings: ChatbotSettings;
  adapters: Adapter[];
  logger: Logger;
  policy?: Partial<GatewayPolicy>;
  outbox?: Partial<OutboxPolicy>;
  /** The operator doors of bot "main" (a thread per handoff there). */
  doors?: OperatorDoor[];
  /** The digests' schedule: its clock and how often it looks. */
  digests?: InstallHandoffOptions['digests'];
}): Promise<GatewayWithHandoff> {
  const { config, logger } = options;
  const gateway = createGateway({
    state: options.state,
    upstream: options.upstream,
    bots: config.bots.map((bot) => ({ id: bot.id, serialNumber: bot.serialNumber, settings: options.settings })),
    adapters: options.adapters,
    logger,
    // One answer per message: bursts (turn/burst.ts) are specified in their own tests.
    policy: { stopGraceMs: 1_000, burstMs: 0, ...options.policy },
  });
  const http = new HttpServer({
    metrics: new GatewayMetrics(),
    ready: async () => undefined,
    trustProxy: config.http.trustProxy,
    ...(config.admin.token ? { adminToken: config.admin.token } : {}),
  });
  const port = await http.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const handoff = await installHandoff({
    gateway,
    state: options.state,
    config,
    logger,
    http,
    selfUrl: url,
    outbox: { ...FAST_OUTBOX, ...options.outbox },
    platforms: PLATFORMS,
    ...(options.doors ? { doors: new Map([['main', options.doors]]), threads: FAST_THREADS } : {}),
    ...(options.digests ? { digests: options.digests } : {}),
  });
  await gateway.start();
  return {
    gateway,
    handoff,
    url,
    async stop() {
      await gateway.stop();
      await handoff.stop();
      await http.close();
    },
  };
}

export async function startHandoffProcess(options: ProcessOptions): Promise<HandoffProcess> {
  const config = buildConfigSchema(PLATFORMS).parse({
    admin: { token: ADMIN_TOKEN },
    bots: [{ id: 'main', serialNumber: DEMO_SERIAL_NUMBER }],
    ...options.config,
  });
  const adapter = new RecordingAdapter(
    'main',
    'fakechat',
    { ...PLAIN_CAPABILITIES, ...options.capabilities },
    options.screen,
  );
  const started = await startGatewayWithHandoff({
    state: options.state,
    upstream: options.upstream,
    config,
    settings: options.settings ?? HANDOFF_SETTINGS,
    adapters: [adapter],
    logger: options.logger ?? silentLogger(),
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.outbox ? { outbox: options.outbox } : {}),
    ...(options.doors ? { doors: options.doors } : {}),
    ...(options.digests ? { digests: options.digests } : {}),
  });
  const { url } = started;
  return {
    ...started,
    adapter,
    async admin(method, path, body) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}

export function recordingLogger(): { logger: Logger; lines: { level: number; msg: string; [key: string]: unknown }[] } {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) },
  );
  return { logger, lines };
}

/** A port nothing listens on: the upstream is down. */
export function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The hand-back link in a handoff e-mail's text. */
export function resumeLinkIn(text: string): string {
  const match = /(http:\/\/\S+\/handoff\/resume\?token=\S+)/.exec(text);
  if (!match) throw new Error(`no hand-back link in:\n${text}`);
  return match[1]!;
}

/** The token of the confirmation page's form. */
export function formTokenIn(html: string): string {
  const match = /<input type="hidden" name="token" value="([^"]+)">/.exec(html);
  if (!match) throw new Error(`no token field in:\n${html}`);
  return match[1]!;
}

/** What the page's "Hand back to the bot" button sends. */
export function postResume(baseUrl: string, token: string): Promise<Response> {
  return fetch(`${baseUrl}/handoff/resume`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
}
