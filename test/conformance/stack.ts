/**
 * The real core around a driver's adapters: each gateway instance is createGateway
 * on the shared test Redis (one private prefix per scenario, one connection per
 * instance, as separate processes would have), the scripted Chatbot Service (each
 * instance asks it through a real upstream client of its own), a logger whose
 * warnings the suite can read, and an observer counting the answers each instance
 * delivered.
 */
import { pino } from 'pino';
import { createGateway, type Gateway, type GatewayPolicy } from '../../src/gateway/index.js';
import { RedisStateStore } from '../../src/state/index.js';
import type { ConversationRef } from '../../src/contract.js';
import type { ScriptedChatbotService } from '../../fakes/chatbot-service/index.js';
import { isolatedRedisStore, testRedisUrl } from '../support/redis.js';
import { upstreamClient } from '../support/scripted-service.js';
import type { ConformanceDriver } from './driver.js';
import { startConformanceService } from './scripted-service.js';

export const WELCOME = 'Welcome to the conformance suite! Ask me about homes.';

/**
 * Short lock timings, so that a second instance takes over a stopped one's queue
 * within a second or two, and a short stop grace, so that a stop cuts a held answer
 * off at once. heartbeat < lock TTL, as the policy requires. Two listings per page,
 * so that the service's four listings have a "Next" button.
 */
const POLICY: Partial<GatewayPolicy> = {
  lockTtlMs: 1_500,
  heartbeatMs: 500,
  sweepIntervalMs: 250,
  stopGraceMs: 200,
  listingsPageSize: 2,
  // One answer per message: the conformance tests send messages back to back and specify each one's answer;
  // bursts are specified in test/unit/gateway/turn and the messages-as-written process tests.
  burstMs: 0,
};

export interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface GatewayInstance {
  readonly index: number;
  readonly gateway: Gateway;
  /** The conversations this instance delivered a final answer to, in order. */
  readonly answered: ConversationRef[];
  /** 429s met while delivering those answers (intermediate updates and finals), as the core counted them. */
  readonly rateLimited: { count: number };
  /** Messages this instance queued (after dedupe). */
  readonly accepted: ConversationRef[];
  stop(): Promise<void>;
}

export class ConformanceStack {
  /** Warnings and errors logged by every instance. */
  readonly logs: LogRecord[] = [];
  readonly instances: GatewayInstance[] = [];
  private readonly store = isolatedRedisStore('conformance');
  private readonly stores: RedisStateStore[] = [];

  private constructor(
    readonly platform: string,
    readonly driver: ConformanceDriver,
    readonly service: ScriptedChatbotService,
  ) {}

  /** The stack for one scenario, with its first gateway instance started. */
  static async start(platform: string, driver: ConformanceDriver): Promise<ConformanceStack> {
    const stack = new ConformanceStack(platform, driver, await startConformanceService());
    try {
      await stack.startInstance();
    } catch (error) {
      await stack.close();
      throw error;
    }
    return stack;
  }

  /** Starts the next gateway instance, with the driver's adapter for it. */
  async startInstance(): Promise<GatewayInstance> {
    const index = this.instances.length;
    // The first instance uses the isolated store; the next ones another connection on its prefix.
    const state = index === 0 ? this.store : new RedisStateStore({ url: testRedisUrl(), prefix: this.store.prefix });
    if (index > 0) this.stores.push(state);
    const answered: ConversationRef[] = [];
    const accepted: ConversationRef[] = [];
    const rateLimited = { count: 0 };
    const logger = pino(
      { level: 'warn', base: { instance: index } },
      {
        write: (line: string) => {
          this.logs.push(JSON.parse(line) as LogRecord);
        },
      },
    );
    const gateway = createGateway({
      state,
      upstream: upstreamClient(this.service),
      bots: [
        {
          id: 'main',
          serialNumber: 'CONFORMANCE-SERIAL',
          settings: { WelcomeMessage: WELCOME, EnableUploadImage: true },
        },
      ],
      adapters: [this.driver.createAdapter(index)],
      logger,
      policy: POLICY,
      observer: {
        accepted: (conversation) => accepted.push(conversation),
        answered: (conversation, info) => {
          answered.push(conversation);
          rateLimited.count += info.rateLimitedUpdates;
        },
      },
    });
    await gateway.start();
    let stopped: Promise<void> | undefined;
    const instance: GatewayInstance = {
      index,
      gateway,
      answered,
      accepted,
      rateLimited,
      stop: () => (stopped ??= gateway.stop()),
    };
    this.instances.push(instance);
    return instance;
  }

  /** Whether any instance logged a warning or error whose message matches. */
  logged(pattern: RegExp): boolean {
    return this.logs.some((record) => pattern.test(record.msg));
  }

  async close(): Promise<void> {
    for (const instance of [...this.instances].reverse()) await instance.stop().catch(() => undefined);
    await this.driver.close();
    for (const store of this.stores) await store.close();
    await this.store.cleanup();
  }

  /** Polls until `check` holds; fails naming `what` (and what the user sees) if it never does. Waits, never measures. */
  async until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(
          `${this.platform}: ${what} did not happen; the user sees ${JSON.stringify(this.driver.screen())}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
