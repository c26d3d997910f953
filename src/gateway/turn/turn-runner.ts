/**
 * Running one queued message: its attachments restored (live when this process
 * accepted it, rebuilt from their refs by the serving adapter otherwise), a Turn
 * for it, the pipeline and the turn's events (turn/run-turn.ts), and the outcome the drain
 * acts on: the writes to make with its removal from the queue, or "cut off".
 */
import type { Logger } from '../../logger.js';
import { Turn, type GatewayBot, type GatewayServices } from './turn-context.js';
import type { Adapter, Capabilities, ConversationRef, Outbound } from '../../contract.js';
import type { TurnEvents } from './turn-events.js';
import type { Pipeline } from './pipeline.js';
import { runTurn, tellCommitted, type TurnStarter } from './run-turn.js';
import { HeadClaimMissedError } from './first-batch.js';
import type { HandleResult, HeadOrigin, LocalAttachments, QueuedMessage, RidingClaim } from '../drain/index.js';

/**
 * Which adapter, outbound and bot serve a conversation in this process (the intake's
 * AdapterRoutes); declared here so that the turn does not depend on the intake.
 */
export interface ConversationServing {
  adapterOf(conversation: ConversationRef): Adapter | undefined;
  botOf(conversation: ConversationRef): GatewayBot | undefined;
  outboundFor(
    conversation: ConversationRef,
    isGroup?: boolean,
  ): { outbound: Outbound; capabilities: Capabilities } | undefined;
}

export interface TurnRunnerOptions {
  routes: ConversationServing;
  local: LocalAttachments;
  pipeline: Pipeline;
  events: TurnEvents;
  services: GatewayServices;
  logger: Logger;
  starter: TurnStarter;
}

export class TurnRunner {
  constructor(private readonly options: TurnRunnerOptions) {}

  /**
   * Answers `message`; `signal` aborts when the gateway stops or loses the conversation's lock.
   * With `claim` (the drain's hold) the lock is claimed in the turn's first batch, which tells the
   * claim what it found; if that misses, nothing of the turn ran and the outcome is 'unclaimed'.
   * `origin`: how the message came to be first (drain/drains.ts), for what its first batch looks for.
   */
  async run(
    message: QueuedMessage,
    signal: AbortSignal,
    claim: RidingClaim | undefined,
    origin: HeadOrigin,
  ): Promise<HandleResult> {
    const { routes, local, pipeline, events, services, logger } = this.options;
    const adapter = routes.adapterOf(message.inbound.conversation);
    const served = routes.outboundFor(message.inbound.conversation, message.inbound.isGroup);
    const inbound = local.restore(message, adapter);
    const conversation = inbound.conversation;
    const bot = routes.botOf(conversation);
    const turnLogger = logger.child({
      conversation: `${conversation.bot}:${conversation.platform}:${conversation.id}`,
      message: inbound.platformMessageId,
    });
    if (!adapter || !served || !bot) {
      turnLogger.error('no adapter serves this conversation here any more; the message is dropped');
      return { outcome: 'done', writes: [] };
    }
    const turn = new Turn({
      inbound,
      bot,
      outbound: served.outbound,
      capabilities: served.capabilities,
      logger: turnLogger,
      signal,
      services,
    });
    const starter = claim
      ? { ...this.options.starter, reads: this.options.starter.reads.claiming(claim) }
      : this.options.starter;
    try {
      const result = await runTurn(turn, (ctx) => pipeline.run(ctx), events, starter, origin);
      if (result.outcome !== 'done') return result;
      const { writes, written } = turn.pendingWrites();
      return {
        outcome: 'done',
        writes,
        committed: () => {
          written();
          return tellCommitted(turn, events);
        },
      };
    } catch (error) {
      if (!(error instanceof HeadClaimMissedError)) throw error;
      return { outcome: 'unclaimed' };
    }
  }
}
