/**
 * Which adapter of this process serves a conversation: one adapter per (bot,
 * platform), each serving a configured bot. A conversation no adapter here
 * serves is neither accepted nor taken over by this process.
 */
import type { Adapter, Capabilities, ConversationRef, Outbound } from '../../contract.js';
import type { GatewayBot } from '../turn/index.js';
import { outboundIn } from '../reply/index.js';

const routeKey = (bot: string, platform: string) => JSON.stringify([bot, platform]);

export class AdapterRoutes {
  private readonly bots: Map<string, GatewayBot>;
  private readonly adapters = new Map<string, Adapter>();

  constructor(bots: readonly GatewayBot[], adapters: readonly Adapter[]) {
    this.bots = new Map(bots.map((bot) => [bot.id, bot]));
    for (const adapter of adapters) {
      if (!this.bots.has(adapter.bot)) {
        throw new Error(
          `Adapter "${adapter.platform}" serves bot "${adapter.bot}", which is not in bots[]; add it with its serialNumber.`,
        );
      }
      this.adapters.set(routeKey(adapter.bot, adapter.platform), adapter);
    }
  }

  /** Every adapter, in the order given. */
  all(): Adapter[] {
    return [...this.adapters.values()];
  }

  adapterOf(conversation: ConversationRef): Adapter | undefined {
    return this.adapters.get(routeKey(conversation.bot, conversation.platform));
  }

  botOf(conversation: ConversationRef): GatewayBot | undefined {
    return this.bots.get(conversation.bot);
  }

  serves(conversation: ConversationRef): boolean {
    return this.adapterOf(conversation) !== undefined && this.bots.has(conversation.bot);
  }

  /** The platform side of a conversation, as it applies there (e.g. no drafts in a group); undefined when not served here. */
  outboundFor(
    conversation: ConversationRef,
    isGroup = false,
  ): { outbound: Outbound; capabilities: Capabilities } | undefined {
    const adapter = this.adapterOf(conversation);
    if (!adapter) return undefined;
    return { outbound: outboundIn(adapter, conversation, isGroup), capabilities: adapter.capabilities };
  }
}

/** The error for a conversation of a (bot, platform) this gateway has no adapter for. */
export function notServedError(conversation: ConversationRef): Error {
  return new Error(
    `No adapter for bot "${conversation.bot}" on "${conversation.platform}" is registered with this gateway.`,
  );
}
