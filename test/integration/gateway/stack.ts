import { createGateway, type Gateway, type GatewayOptions } from '../../../src/gateway/index.js';
import { silentLogger } from '../../../src/logger.js';
import { DEMO_SERIAL_NUMBER, startService, type RunningService } from '../../../src/service/index.js';
import { RedisStateStore, type StateStore } from '../../../src/state/index.js';
import type { AskStreamEvent, CallOptions, ChatbotServiceApi, ClientAskRequest } from '../../../src/upstream/api.js';
import { ChatbotServiceClient } from '../../../src/upstream/index.js';
import { isolatedRedisStore, testRedisClusterNodes, type TestTopology } from '../../support/redis.js';
import type { MemoryPlatform } from '../../../fakes/memory/index.js';
import { RecordingAdapter } from '../../unit/gateway/support/recording-adapter.js';

export const SECRET = 'gateway-test-secret';
export const SESSION_KEY = 'gateway-test-session-key';
export { DEMO_SERIAL_NUMBER };

/** The real embedded Chatbot Service on real Redis, and the real client pointed at it. */
export interface ServiceStack {
  service: RunningService;
  client: ChatbotServiceClient;
  /** The gateways' store (its prefix is shared by every gateway "process" of a test). */
  store: RedisStateStore & { cleanup(): Promise<void> };
  close(): Promise<void>;
}

/**
 * `tokensPerSecond` defaults to 0 (instant): most tests are about the gateway's queue and
 * delivery, not the builtin engine's typing speed. A test about an answer growing on screen
 * gives a pace, since an answer that arrives whole is sent once, never redrawn.
 */
export async function startServiceStack(
  label: string,
  options: { tokensPerSecond?: number; topology?: TestTopology } = {},
): Promise<ServiceStack> {
  const serviceStore = isolatedRedisStore(`${label}-svc`);
  // The gateways' store refuses a MULTI or script across slots on one Redis too, as a cluster would.
  const store = isolatedRedisStore(label, { topology: options.topology ?? 'single', checkSlots: true });
  const engine = { kind: 'builtin' as const, tokensPerSecond: options.tokensPerSecond ?? 0 };
  const service = await startService({
    state: serviceStore,
    secretKey: SECRET,
    sessionKey: SESSION_KEY,
    seedDemo: true,
    engine,
  });
  const client = new ChatbotServiceClient({
    baseUrl: service.url,
    secretKey: SECRET,
    sessionKey: SESSION_KEY,
    uploadConfirmPath: '/chat/User/ConfirmUpload',
  });
  return {
    service,
    client,
    store,
    async close() {
      await service.close();
      await serviceStore.cleanup();
      await store.cleanup();
    },
  };
}

/** Another connection on the same prefix and topology: a second gateway process sharing the Redis. */
export function sameRedis(store: RedisStateStore): RedisStateStore {
  return new RedisStateStore({ topology: store.topology, prefix: store.prefix, checkSlots: true });
}

/**
 * What the gateway's Redis suites run against (describe.each): one Redis, and the test cluster
 * when the global setup has one (REDIS_CLUSTER_NODES, or a cluster it started).
 */
export function testTopologies(): TestTopology[] {
  return testRedisClusterNodes().length > 0 ? ['single', 'cluster'] : ['single'];
}

/**
 * The real client behind a switch that can hold ClientAsk before it is sent, like
 * a slow network link, so a test can keep an answer in progress. It records the
 * questions in the order the service was asked them.
 */
export class HeldLink implements ChatbotServiceApi {
  readonly questions: string[] = [];
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;

  constructor(private readonly client: ChatbotServiceApi) {}

  hold(): () => void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
    return () => {
      this.open?.();
      this.gate = null;
    };
  }

  async *askStream(request: ClientAskRequest, options?: CallOptions): AsyncIterable<AskStreamEvent> {
    this.questions.push(request.content);
    if (this.gate) await this.gate;
    yield* this.client.askStream(request, options);
  }

  getSession: ChatbotServiceApi['getSession'] = (...args) => this.client.getSession(...args);
  ask: ChatbotServiceApi['ask'] = (...args) => this.client.ask(...args);
  edit: ChatbotServiceApi['edit'] = (...args) => this.client.edit(...args);
  createListing: ChatbotServiceApi['createListing'] = (...args) => this.client.createListing(...args);
  listListings: ChatbotServiceApi['listListings'] = (...args) => this.client.listListings(...args);
  deleteListings: ChatbotServiceApi['deleteListings'] = (...args) => this.client.deleteListings(...args);
  modelList: ChatbotServiceApi['modelList'] = (...args) => this.client.modelList(...args);
  addChatbot: ChatbotServiceApi['addChatbot'] = (...args) => this.client.addChatbot(...args);
  removeChatbot: ChatbotServiceApi['removeChatbot'] = (...args) => this.client.removeChatbot(...args);
  uploadFile: ChatbotServiceApi['uploadFile'] = (...args) => this.client.uploadFile(...args);
}

export interface GatewayProcess {
  gateway: Gateway;
  adapter: RecordingAdapter;
  stop(): Promise<void>;
}

/** One gateway "process": its own adapter instance (same bot and platform), its own connection. */
export async function startGatewayProcess(options: {
  state: StateStore;
  upstream: ChatbotServiceApi;
  /** The platform, shared by the processes of a test: one user's screen. */
  screen?: MemoryPlatform;
  policy?: GatewayOptions['policy'];
  settings?: GatewayOptions['bots'][number]['settings'];
  /** The bot's own sentences (config `bots[].texts`), checked. */
  texts?: GatewayOptions['bots'][number]['texts'];
}): Promise<GatewayProcess> {
  const adapter = new RecordingAdapter('main', 'fakechat', undefined, options.screen);
  const gateway = createGateway({
    state: options.state,
    upstream: options.upstream,
    bots: [
      {
        id: 'main',
        serialNumber: DEMO_SERIAL_NUMBER,
        ...(options.settings ? { settings: options.settings } : {}),
        ...(options.texts ? { texts: options.texts } : {}),
      },
    ],
    adapters: [adapter],
    logger: silentLogger(),
    // One answer per message: bursts (turn/burst.ts) are specified in their own tests, with the default window.
    policy: { stopGraceMs: 1_000, burstMs: 0, ...options.policy },
  });
  await gateway.start();
  return { gateway, adapter, stop: () => gateway.stop() };
}
