/**
 * The conversation queue (docs/architecture.md §2): a FIFO in Redis per conversation and a
 * lock, so one answer at a time per conversation across every gateway process. The lock is the
 * conversation's field in its shard's `queues:owners:{cN}` hash, which also indexes the conversations
 * with queued messages for the sweep; the older layout is kept beside it while the layout says so
 * (queue-layout.ts).
 *
 * - accept: one atomic step dedupes the platform message id, refuses beyond the
 *   cap, appends, and indexes the conversation and takes its lock (one HSETNX) when nobody
 *   holds it. The process that gets the lock drains; any other only enqueues.
 * - drain: peek → answer → remove. The head stays queued until its answer is
 *   complete, so a crash (its lock no longer renewed) leaves it for whoever takes over.
 * - a conversation that waited in line for a slot with a known head claims its lock in the
 *   first batch of that head's turn (headClaim); one that does not know its head claims alone.
 * - advance: one atomic step removes the answered head and, when the queue is
 *   empty, releases the lock. A message enqueued a moment later finds the lock
 *   free and claims it itself, so nothing is stranded between "queue empty" and
 *   "lock released" (the Vercel Chat SDK's github.com/vercel/chat/issues/928); the re-check after releasing that a
 *   non-atomic design needs is the enqueue's own claim.
 */
import type {
  ConversationQueueKeys,
  QueueAdvanceOptions,
  QueueAdvanceResult,
  QueueClaim,
  QueueOfferResult,
  StateStore,
} from '../../state/index.js';
import type { AtomicCommand, ClaimHeadCommand } from '../../state/index.js';
import { conversationTag, gatewayKeys, queueKeys, queueOwners } from '../state-keys.js';
import type { GatewayPolicy } from '../gateway-policy.js';
import type { ConversationRef } from '../../contract.js';
import { QueueLayout } from './queue-layout.js';

export class ConversationQueue {
  constructor(
    private readonly state: StateStore,
    private readonly policy: Pick<GatewayPolicy, 'dedupeTtlMs' | 'lockTtlMs' | 'queueCap'>,
    /** Told when the writes beside an advance (advance()) failed; the advance itself stands. */
    private readonly onBesideFailed: (error: unknown) => void = () => undefined,
    readonly layout: QueueLayout = QueueLayout.ownerFields(state),
  ) {}

  keys(conversation: ConversationRef): ConversationQueueKeys {
    return queueKeys(conversation, this.layout.keepsLegacy);
  }

  /**
   * `claim: false` when this process could not answer now anyway (no free slot): no lock to let go again.
   * `redeliveryWindowMs`: how long the platform may send this message again (its adapter's capability);
   * the id is remembered that long when it is longer than the policy's dedupe TTL.
   */
  offer(
    conversation: ConversationRef,
    platformMessageId: string,
    entry: string,
    options: { claim?: boolean; redeliveryWindowMs?: number } = {},
  ): Promise<QueueOfferResult> {
    return this.state.queueOffer(this.keys(conversation), entry, {
      dedupeKey: gatewayKeys.dedupe(conversation, platformMessageId),
      dedupeTtlMs: Math.max(this.policy.dedupeTtlMs, options.redeliveryWindowMs ?? 0),
      maxLength: this.policy.queueCap,
      lockTtlMs: this.policy.lockTtlMs,
      ...(options.claim === false ? { claim: false } : {}),
    });
  }

  /** `expectedOwner`: the owner of a holder seen to stop renewing (owner-watch.ts), which the claim may take over. */
  claim(conversation: ConversationRef, expectedOwner = ''): Promise<QueueClaim | null> {
    return this.state.queueClaim(this.keys(conversation), this.policy.lockTtlMs, expectedOwner);
  }

  /**
   * The claim of a conversation whose head is known (it waited in line for a slot), as a command
   * for the first batch of that head's turn: no round trip of its own. The turn goes on only
   * when the result says `claimed` (turn/first-batch.ts).
   */
  headClaim(conversation: ConversationRef, token: string, head: string): ClaimHeadCommand {
    const keys = this.keys(conversation);
    return {
      op: 'claimHead',
      key: keys.owners,
      queue: keys.queue,
      member: keys.member,
      token,
      ttlMs: this.policy.lockTtlMs,
      head,
      ...(keys.legacy ? { legacy: keys.legacy } : {}),
    };
  }

  /**
   * `letGo`: yield the lock with the advance when entries remain (others wait for a slot); one round trip for both.
   * `also` runs with the advance: the writes of the conversation's keys (its tag) inside its atomic step, the others
   * (a per-user or per-chatbot counter given back) beside it in a `batch()` sent at the same time, since one atomic
   * step touches one slot. Those need no atomicity with the advance: a crash between loses at most a give-back.
   */
  async advance(
    conversation: ConversationRef,
    token: string,
    also: readonly AtomicCommand[],
    options: QueueAdvanceOptions = {},
  ): Promise<QueueAdvanceResult> {
    const tag = conversationTag(conversation);
    const inSlot = also.filter((command) => command.key.includes(tag));
    const beside = also.filter((command) => !command.key.includes(tag));
    const advanced = this.state.queueAdvance(this.keys(conversation), token, this.policy.lockTtlMs, inSlot, options);
    if (beside.length === 0) return advanced;
    const [result] = await Promise.all([advanced, this.state.batch(beside).catch(this.onBesideFailed)]);
    return result;
  }

  /** Heartbeat: false when the lock is no longer ours (a sweep saw it unrenewed and someone took over). */
  extend(conversation: ConversationRef, token: string): Promise<boolean> {
    return this.state.queueRenew(this.keys(conversation), token, this.policy.lockTtlMs);
  }

  /** Lets go without removing the head (stopping): the next holder answers it. */
  release(conversation: ConversationRef, token: string): Promise<boolean> {
    return this.state.queueRelease(this.keys(conversation), token);
  }

  /** How many of the conversation's messages are queued, the one being answered included. */
  async waiting(conversation: ConversationRef): Promise<number> {
    return this.state.listLength(this.keys(conversation).queue);
  }

  /** The conversations with queued messages and the owners of their locks (one pipelined read of all shards). */
  owners(): Promise<Map<string, string | null>> {
    return queueOwners(this.state, this.layout.keepsLegacy);
  }
}
