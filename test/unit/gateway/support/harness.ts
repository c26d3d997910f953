import { createGateway, type Gateway, type GatewayOptions } from '../../../../src/gateway/index.js';
import { silentLogger } from '../../../../src/logger.js';
import { MemoryStateStore, type StateStore } from '../../../../src/state/index.js';
import type { ChatbotSettings } from '../../../../src/upstream/api.js';
import type { Capabilities } from '../../../../src/contract.js';
import type { ScriptedChatbotService } from '../../../../fakes/chatbot-service/index.js';
import { startEchoService, upstreamClient } from '../../../support/scripted-service.js';
import { PLAIN_CAPABILITIES, RecordingAdapter } from './recording-adapter.js';

export const SERIAL = 'serial-under-test';

export interface Harness {
  gateway: Gateway;
  adapter: RecordingAdapter;
  /** The scripted Chatbot Service the gateway asks, over HTTP, through the real upstream client. */
  service: ScriptedChatbotService;
  state: StateStore;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  state?: StateStore;
  /** Another harness's service: two gateway processes asking one service. */
  service?: ScriptedChatbotService;
  settings?: ChatbotSettings;
  /** The bot's own sentences (config `bots[].texts`). */
  texts?: GatewayOptions['bots'][number]['texts'];
  capabilities?: Partial<Capabilities>;
  policy?: GatewayOptions['policy'];
  serialNumber?: string;
  adapter?: RecordingAdapter;
  observer?: GatewayOptions['observer'];
}

/**
 * A started gateway with one recording platform on a memory store, asking (by default) a
 * scripted service that answers "You said: …" (test/support/scripted-service.ts).
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const state = options.state ?? new MemoryStateStore({ prefix: 'gw:', checkSlots: true });
  const service = options.service ?? (await startEchoService());
  const adapter =
    options.adapter ?? new RecordingAdapter('main', 'fakechat', { ...PLAIN_CAPABILITIES, ...options.capabilities });
  const gateway = createGateway({
    state,
    upstream: upstreamClient(service),
    bots: [
      {
        id: 'main',
        serialNumber: options.serialNumber ?? SERIAL,
        ...(options.settings ? { settings: options.settings } : {}),
        ...(options.texts ? { texts: options.texts } : {}),
      },
    ],
    adapters: [adapter],
    logger: silentLogger(),
    // One answer per message: bursts (turn/burst.ts) are specified in their own tests, with the default window.
    policy: { stopGraceMs: 2_000, burstMs: 0, ...options.policy },
    ...(options.observer ? { observer: options.observer } : {}),
  });
  await gateway.start();
  return { gateway, adapter, service, state, stop: () => gateway.stop() };
}
