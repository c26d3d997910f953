import { createGateway, type Gateway, type GatewayOptions } from '../../../../src/gateway/index.js';
import { silentLogger } from '../../../../src/logger.js';
import { MemoryStateStore, type StateStore } from '../../../../src/state/index.js';
import type { ChatbotServiceApi, ChatbotSettings } from '../../../../src/upstream/api.js';
import type { Capabilities } from '../../../../src/contract.js';
import { FakeChatbotService } from './fake-service.js';
import { PLAIN_CAPABILITIES, RecordingAdapter } from './recording-adapter.js';

export const SERIAL = 'serial-under-test';

export interface Harness<S extends ChatbotServiceApi> {
  gateway: Gateway;
  adapter: RecordingAdapter;
  service: S;
  state: StateStore;
  stop(): Promise<void>;
}

export interface HarnessOptions<S extends ChatbotServiceApi> {
  state?: StateStore;
  service?: S;
  settings?: ChatbotSettings;
  capabilities?: Partial<Capabilities>;
  policy?: GatewayOptions['policy'];
  serialNumber?: string;
  adapter?: RecordingAdapter;
}

/** A started gateway with one recording platform and (by default) the fake service on a memory store. */
export async function startHarness<S extends ChatbotServiceApi = FakeChatbotService>(options: HarnessOptions<S> = {}): Promise<Harness<S>> {
  const state = options.state ?? new MemoryStateStore({ prefix: 'gw:', checkSlots: true });
  const service = options.service ?? (new FakeChatbotService() as unknown as S);
  const adapter = options.adapter ?? new RecordingAdapter('main', 'fakechat', { ...PLAIN_CAPABILITIES, ...options.capabilities });
  const gateway = createGateway({
    state,
    upstream: service,
    bots: [{ id: 'main', serialNumber: options.serialNumber ?? SERIAL, ...(options.settings ? { settings: options.settings } : {}) }],
    adapters: [adapter],
    logger: silentLogger(),
    policy: { stopGraceMs: 2_000, ...options.policy },
  });
  await gateway.start();
  return { gateway, adapter, service, state, stop: () => gateway.stop() };
}
