import { MemoryStateStore } from '../../../src/state/memory.js';
import type { StateStore } from '../../../src/state/types.js';
import { startService, type EngineOptions, type ServiceLimits } from '../../../src/service/index.js';
import { isolatedRedisStore, type TestTopology } from '../../support/redis.js';

export const SECRET = 'test-secret-key';
export const SESSION_KEY = 'test-session-key';

import type { Envelope } from '../../../src/service/envelope.js';

export type { Envelope };

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
}

export type Auth = 'secret' | 'session' | 'none' | Record<string, string>;

const authHeaders = (auth: Auth): Record<string, string> =>
  auth === 'secret'
    ? { authorization: SECRET }
    : auth === 'session'
      ? { 'chatrobot-sessionkey': SESSION_KEY }
      : auth === 'none'
        ? {}
        : auth;

export interface TestService {
  url: string;
  state: StateStore;
  call<T = unknown>(
    path: string,
    body?: unknown,
    options?: { auth?: Auth; method?: string; rawBody?: string },
  ): Promise<Reply<T>>;
  newChatbot(settings?: Record<string, unknown>): Promise<string>;
  newSession(serialNumber: string): Promise<number>;
  createListing(serialNumber: string, fields?: Record<string, unknown>): Promise<string>;
  upload(bytes: Buffer, fileName?: string): Promise<number>;
  close(): Promise<void>;
}

/** A listing with every required field; override what the test is about. */
export function listing(serialNumber: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    SerialNumber: serialNumber,
    SaleType: 'for_sale',
    Status: 'Active',
    CurrencySymbol: '$',
    PropertyType: 'Single Family Residential',
    Bedrooms: 3,
    Bathrooms: 2.5,
    Url: 'https://homes.example/1',
    MLSNumber: 'MLS-1',
    YearBuilt: 1998,
    DaysOnMarket: 2,
    LotArea: 800,
    BuildingArea: 2500,
    AreaUnit: 'Square Feet',
    ParkingSpots: 2,
    City: 'Austin',
    SalePrice: 500000,
    ...fields,
  };
}

/**
 * The topology of the service tests when none is asked for: SERVICE_TEST_TOPOLOGY=cluster
 * runs every service test on the test cluster (REDIS_CLUSTER_NODES, or the one the global
 * setup starts); cluster.test.ts always runs the service's multi-key steps on it.
 */
function defaultTopology(): TestTopology {
  return process.env.SERVICE_TEST_TOPOLOGY === 'cluster' ? 'cluster' : 'single';
}

/**
 * The service on a free port over real HTTP, on an isolated Redis prefix (or the
 * memory store when asked), with helpers that go through the public endpoints only.
 */
export async function startTestService(
  options: {
    memory?: boolean;
    topology?: TestTopology;
    engine?: EngineOptions;
    limits?: Partial<ServiceLimits>;
    seedDemo?: boolean;
  } = {},
): Promise<TestService> {
  // checkSlots: an atomic step whose keys span hash slots (CROSSSLOT on a cluster) fails
  // every service test, on one Redis and in memory too.
  const redis = options.memory
    ? undefined
    : isolatedRedisStore('service', { topology: options.topology ?? defaultTopology(), checkSlots: true });
  const state: StateStore = redis ?? new MemoryStateStore({ checkSlots: true });
  const running = await startService({
    state,
    secretKey: SECRET,
    sessionKey: SESSION_KEY,
    // These tests check what the service says, not the builtin engine's pace (pace.test.ts does).
    engine: options.engine ?? { kind: 'builtin', tokensPerSecond: 0 },
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.seedDemo ? { seedDemo: true } : {}),
  });

  const service: TestService = {
    url: running.url,
    state,
    async call<T>(
      path: string,
      body?: unknown,
      { auth = 'secret', method = 'POST', rawBody }: { auth?: Auth; method?: string; rawBody?: string } = {},
    ) {
      const response = await fetch(running.url + path, {
        method,
        headers: { 'content-type': 'application/json', ...authHeaders(auth) },
        ...(rawBody !== undefined ? { body: rawBody } : body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope<T> };
    },
    async newChatbot(settings = {}) {
      const added = await service.call<string>('/chat/Chatbot/Add', { timeZone: 'UTC', type: 0 });
      const serialNumber = added.body.Data!;
      if (Object.keys(settings).length > 0) {
        const edited = await service.call('/chat/Chatbot/Edit', { serialNumber, ...settings });
        if (edited.status !== 200) throw new Error(`Edit failed: ${edited.body.Message}`);
      }
      return serialNumber;
    },
    async newSession(serialNumber) {
      return (await service.call<{ SessionID: number }>('/chat/Chatbot/GetSession', { serialNumber })).body.Data!
        .SessionID;
    },
    async createListing(serialNumber, fields = {}) {
      const created = await service.call<string>('/chat/Chatbot/RealEstateCreate', listing(serialNumber, fields), {
        auth: 'session',
      });
      if (created.status !== 200) throw new Error(`Create failed: ${created.body.Message}`);
      return created.body.Data!;
    },
    async upload(bytes, fileName = 'file.bin') {
      const pre = await service.call<{ FileStoreId: string; PreUploadUrl: string }>('/chat/User/GetPreUploadUrl', {
        fileName,
      });
      const put = await fetch(pre.body.Data!.PreUploadUrl, { method: 'PUT', body: bytes });
      if (put.status !== 200) throw new Error(`PUT failed: ${await put.text()}`);
      return Number(pre.body.Data!.FileStoreId);
    },
    async close() {
      await running.close();
      if (redis) await redis.cleanup();
    },
  };
  return service;
}

/** Reads a text/event-stream body into its `data:` JSON objects. */
export async function readSse(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      return JSON.parse(data) as Record<string, unknown>;
    });
}
