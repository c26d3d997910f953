/**
 * Running one queued message: its attachments restored (live when this process
 * accepted it, rebuilt from their refs by the serving adapter otherwise), a Turn
 * for it, the pipeline and the turn's events (turn/run-turn.ts), and the outcome the drain
 * acts on: the writes to make with its removal from the queue, or "cut off". A message
 * that may start a burst waits for it first, "typing…" shown (turn/burst.ts); the turn
 * then answers the burst's messages together. The turns running here can be stopped by
 * their user (`stop`, /stop).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../logger.js';
import { Turn, type GatewayBot, type GatewayServices } from './turn-context.js';
import type { Adapter, Capabilities, ConversationRef, Inbound, Outbound } from '../../contract.js';
import type { TurnEvents } from './turn-events.js';
import type { Pipeline } from './pipeline.js';
import { runTurn, tellCommitted, type TurnStarter } from './run-turn.js';
import { HeadClaimMissedError } from './first-batch.js';
import type {
  HandleResult,
  HeadOrigin,
  LocalAttachments,
  QueuedMessage,
  RidingClaim,
  SlotLoan,
} from '../drain/index.js';
import { conversationMember } from '../state-keys.js';
import { startTyping, type TypingHandle } from '../relay/index.js';
import { mayBurst, settledAt, type BurstRules } from './burst.js';
import { gatherBurst } from './burst-wait.js';
import { StopRequest } from './stop-request.js';

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
  burst: BurstRules;
}

interface Prepared {
  inbound: Inbound;
  served: { outbound: Outbound; capabilities: Capabilities };
  bot: GatewayBot;
  turnLogger: Logger;
  stop: AbortController;
  slot: SlotLoan;
}

/** A turn run without a drain's slot (a test's): nothing to lend. */
const NO_LOAN: SlotLoan = { lend: () => undefined, reclaim: async () => undefined };

export class TurnRunner {
  /** The stop of each conversation's turn running here. */
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly options: TurnRunnerOptions) {}

  /** Stops the turn of `conversation` running in this process, if there is one (true then). */
  stop(conversation: ConversationRef, byMessage: string): boolean {
    const stop = this.running.get(conversationMember(conversation));
    if (!stop || stop.signal.aborted) return false;
    stop.abort(new StopRequest(byMessage));
    return true;
  }

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
    slot: SlotLoan = NO_LOAN,
  ): Promise<HandleResult> {
    const { routes, local, logger } = this.options;
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
    const member = conversationMember(conversation);
    const stop = new AbortController();
    this.running.set(member, stop);
    try {
      return await this.runRegistered(message, signal, claim, origin, { inbound, served, bot, turnLogger, stop, slot });
    } finally {
      if (this.running.get(member) === stop) this.running.delete(member);
    }
  }

  private async runRegistered(
    message: QueuedMessage,
    signal: AbortSignal,
    claim: RidingClaim | undefined,
    origin: HeadOrigin,
    { inbound, served, bot, turnLogger, stop, slot }: Prepared,
  ): Promise<HandleResult> {
    const { routes, local, pipeline, events, services } = this.options;
    const burst = served.capabilities.bursts === false ? withoutBursts(this.options.burst) : this.options.burst;
    const conversation = inbound.conversation;
    let typing: TypingHandle | undefined;
    if (mayBurst(message, burst)) {
      const waitMs = settledAt(message, burst) - Date.now();
      // The wait is shown as the answer being written, as soon as an answer without it would show it.
      typing = startTyping(served.outbound, served.capabilities, conversation, {
        replyingTo: inbound.platformMessageId,
      });
      if (waitMs > 0) {
        // Only waiting: the slot goes to another conversation meanwhile, and is reclaimed before the answer.
        slot.lend();
        await sleep(waitMs, undefined, { signal: AbortSignal.any([signal, stop.signal]) }).catch(() => undefined);
      }
      if (signal.aborted) {
        await typing.stop();
        return { outcome: 'aborted' };
      }
    }
    const turn = new Turn({
      inbound,
      bot,
      outbound: served.outbound,
      capabilities: served.capabilities,
      logger: turnLogger,
      signal,
      services,
      stopSignal: stop.signal,
    });
    if (typing) turn.typing = typing;
    const adapter = routes.adapterOf(conversation);
    const restore = (queued: QueuedMessage) => {
      if (queued.id !== message.id) return local.restore(queued, adapter);
      // The head as the queue reads now (edited while its burst settled, it is answered as edited), its files
      // as restored already unless the edit changed them.
      const sameFiles = JSON.stringify(queued.inbound.attachments) === JSON.stringify(message.inbound.attachments);
      return sameFiles ? { ...queued.inbound, attachments: inbound.attachments } : local.restore(queued, adapter);
    };
    const starter = claim
      ? { ...this.options.starter, reads: this.options.starter.reads.claiming(claim) }
      : this.options.starter;
    try {
      const result = await runTurn(
        turn,
        (ctx) => pipeline.run(ctx),
        events,
        starter,
        origin,
        (ctx) => gatherBurst(ctx as Turn, message, burst, restore),
      );
      if (result.outcome !== 'done') return result;
      const { writes, written } = turn.pendingWrites();
      return {
        outcome: 'done',
        writes,
        ...(result.answered ? { answered: result.answered } : {}),
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

/** A platform whose messages are each a finished question (Capabilities.bursts false). */
function withoutBursts(rules: BurstRules): BurstRules {
  return { ...rules, policy: { ...rules.policy, burstMs: 0 } };
}
