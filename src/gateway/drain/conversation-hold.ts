/**
 * A drain's hold on one conversation: the answer slot it occupies in this process
 * (answer-slots.ts) and the conversation's lock in Redis (conversation-queue.ts), from the
 * moment the slot is taken until both are given back. Every way a drain begins (a message's
 * arrival, a sweep, the line) and every way it ends (answered, cut off, lock lost, claim missed,
 * Redis failing, the gateway stopping) goes through one hold, and `end()` gives back what it
 * still holds exactly once: a slot never given back is capacity lost for the life of the process.
 *
 * The slot is taken first and the lock claimed after, so that a burst of arrivals cannot all see
 * the same free slot, claim, and then pay a round trip each to let the lock go again. The lock is
 * in one of three states:
 *   - `none`: not ours (not claimed yet, or gone: given up with an advance, found lost, missed,
 *     or left to expire after a failure);
 *   - `pending`: its claim rides on the first batch of the head's turn (turn/first-batch.ts), which
 *     reports what it found (`found`), rather than costing a round trip of its own;
 *   - `owned`: ours, renewed by the heartbeat, released by `end()`.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import type { AtomicCommand, ClaimHeadCommand, HeadClaim, QueueAdvanceResult, QueueClaim } from '../../state/index.js';
import type { ConversationRef } from '../../contract.js';
import { conversationMember } from '../state-keys.js';
import type { AnswerSlots } from './answer-slots.js';
import type { ConversationQueue } from './conversation-queue.js';

/** Why a drain's answer was stopped when its renewal found the lock taken over: the new holder answers once. */
export class LockLostError extends Error {
  constructor(conversation: ConversationRef) {
    super(
      `The lock of conversation ${conversationMember(conversation)} went unrenewed or was taken over while answering; ` +
        'whoever holds it next answers the message again.',
    );
    this.name = 'LockLostError';
  }
}

/** What every hold of one process shares: one object per Drains, so that a hold costs only itself. */
export interface HoldSite {
  readonly slots: AnswerSlots;
  readonly queue: Pick<ConversationQueue, 'claim' | 'headClaim' | 'extend' | 'advance' | 'release'>;
  readonly heartbeatMs: number;
  /** How long a lock not renewed may be taken over by another process's sweep (owner-watch.ts). */
  readonly lockTtlMs: number;
  readonly logger: Logger;
  /** A hold gave its slot back: the conversation first in line may take it. */
  slotFreed(): void;
}

/** A lock claim riding on a turn's first batch: the command the batch runs, and where its result goes. */
export interface RidingClaim {
  readonly command: ClaimHeadCommand;
  /** Told by the first batch what the claim found, before anything of the turn runs. */
  found(claim: HeadClaim): void;
}

type LockState = 'none' | 'pending' | 'owned';

export class ConversationHold implements RidingClaim {
  private lock: LockState = 'none';
  private token = '';
  private ended = false;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The head first now, when a claim found the one it expected answered elsewhere (`other-head`). */
  private headInstead: string | null = null;
  private claimCommand: ClaimHeadCommand | undefined;
  /** Its slot is lent back while its turn waits for a burst to settle (lendSlot()): end() then has none to give back. */
  private slotLent = false;
  /** When (monotonic ms) the lock was last known ours: claimed, or renewed by a renewal sent then. */
  private renewedAt = 0;

  /** Use take() or next(): a hold is made holding a slot. */
  private constructor(
    private readonly site: HoldSite,
    readonly conversation: ConversationRef,
    /** The head of its queue the conversation went in line with, when known (it came from the line). */
    readonly knownHead?: string,
  ) {}

  /** A slot for `conversation`, when one is free and no conversation waits in line for one (those came first). */
  static take(site: HoldSite, conversation: ConversationRef): ConversationHold | undefined {
    return site.slots.tryTake() ? new ConversationHold(site, conversation) : undefined;
  }

  /** A free slot for the conversation first in line; undefined when no slot is free or nobody waits. */
  static next(site: HoldSite): ConversationHold | undefined {
    const waiting = site.slots.takeNext();
    return waiting && new ConversationHold(site, waiting.conversation, waiting.head);
  }

  /** Whether the lock's claim still rides on the next turn's first batch. */
  get claimPending(): boolean {
    return this.lock === 'pending';
  }

  /** The lock came with a claim made for this hold (the message's arrival offered with `claim`). */
  claimed(claim: QueueClaim): void {
    this.token = claim.token;
    this.lock = 'owned';
    this.renewedAt = performance.now();
  }

  /**
   * Claims the lock alone (one round trip), taking over `expectedOwner` when it is still the owner (a holder seen to
   * stop renewing). The head to answer, or null when it is not ours (held elsewhere, or nothing queued).
   */
  async claim(expectedOwner = ''): Promise<string | null> {
    const claim = await this.site.queue.claim(this.conversation, expectedOwner);
    if (claim) this.claimed(claim);
    else if (this.lock === 'pending') this.lock = 'none';
    return claim ? claim.head : null;
  }

  /** The lock is to be claimed by the first batch of the next turn (ridingClaim()), under a token chosen now. */
  claimWithFirstTurn(): void {
    this.token = randomUUID();
    this.lock = 'pending';
  }

  /** The claim for the first batch of `head`'s turn while it is pending; undefined once the lock is ours. */
  ridingClaim(head: string): RidingClaim | undefined {
    if (this.lock !== 'pending') return undefined;
    this.claimCommand = this.site.queue.headClaim(this.conversation, this.token, head);
    return this;
  }

  get command(): ClaimHeadCommand {
    if (!this.claimCommand) throw new Error('ConversationHold.command before ridingClaim()');
    return this.claimCommand;
  }

  found(claim: HeadClaim): void {
    // `other-head`: the expected head was answered elsewhere, and the lock is ours for the one first now.
    if (claim.outcome === 'other-head') this.headInstead = claim.head;
    // Not pending any more only when a renewal that got through (our token: the claim took) was told first.
    if (this.lock === 'pending')
      this.lock = claim.outcome === 'claimed' || claim.outcome === 'other-head' ? 'owned' : 'none';
    if (this.lock === 'owned') this.renewedAt = performance.now();
  }

  /** After a turn whose claim missed: the head to answer next when the lock is ours, null when it is not. */
  headAfterMiss(): string | null {
    return this.lock === 'owned' ? this.headInstead : null;
  }

  /**
   * Renews the lock every heartbeat until the hold ends, even while the claim is pending: the
   * first turn may outlive the lock's lifetime (a long answer). Before the batch has claimed (or
   * when it found the conversation taken) a renewal finds another token: nothing is lost then.
   * Once a renewal finds that a lock that was ours is not any more, `answer` is aborted with a
   * LockLostError (unless it was aborted already), so that the new holder answers once.
   */
  keepAlive(answer: AbortController): void {
    this.heartbeat = setInterval(() => this.renew(answer), this.site.heartbeatMs);
    this.heartbeat.unref();
  }

  private renew(answer: AbortController): void {
    // Judged by the state when the renewal was sent: one sent before the batch claimed says nothing of the claim.
    const ownedWhenSent = this.lock === 'owned';
    const sentAt = performance.now();
    // Not renewed for the lock's lifetime (a frozen event loop, Redis out of reach): another process's sweep may have
    // taken the conversation over, unseen yet. The answer stops; the end releases the lock if it is still ours, and
    // whoever claims it next answers the head again, so that no two processes answer it at once.
    if (ownedWhenSent && sentAt - this.renewedAt >= this.site.lockTtlMs && !answer.signal.aborted) {
      this.site.logger.warn(
        { conversation: this.conversation },
        'the conversation lock went unrenewed for its lifetime; stopping here so that it is answered once',
      );
      answer.abort(new LockLostError(this.conversation));
    }
    this.site.queue.extend(this.conversation, this.token).then(
      (ours) => {
        if (ours) {
          if (this.lock === 'pending') this.lock = 'owned';
          if (this.lock === 'owned') this.renewedAt = Math.max(this.renewedAt, sentAt);
        } else if (ownedWhenSent && this.lock === 'owned') {
          this.lock = 'none';
          if (answer.signal.aborted) return;
          this.site.logger.warn(
            { conversation: this.conversation },
            'lost the conversation lock while answering; stopping here so the new holder answers once',
          );
          answer.abort(new LockLostError(this.conversation));
        }
      },
      // A failed renewal is not a lost lock: the next heartbeat may get through before it expires.
      (error: unknown) =>
        this.site.logger.warn({ err: error, conversation: this.conversation }, 'could not renew the conversation lock'),
    );
  }

  /**
   * Removes the answered head with `writes` (ConversationQueue.advance). The lock leaves with it
   * when the queue is empty, when it is let go (`letGo`, others wait for a slot), or when it was
   * not ours any more (`owned: false`).
   */
  /** `answered`: the entries the turn answered as it read them (a burst), when not the head alone. */
  async advance(
    writes: readonly AtomicCommand[],
    letGo: boolean,
    answered?: readonly string[],
  ): Promise<QueueAdvanceResult> {
    const options = { letGo, ...(answered ? { answered } : {}) };
    const advanced = await this.site.queue.advance(this.conversation, this.token, writes, options);
    this.lock = advanced.owned && advanced.next !== null && !advanced.letGo ? 'owned' : 'none';
    return advanced;
  }

  /**
   * Gives the slot back while the turn only waits (a burst settling, turn/burst-wait.ts), keeping the lock and
   * its renewal: a waiting turn must not keep another conversation from being answered. reclaimSlot() before
   * the answer is written.
   */
  lendSlot(): void {
    if (this.slotLent || this.ended) return;
    this.slotLent = true;
    this.site.slots.release();
    this.site.slotFreed();
  }

  /** A slot again after lendSlot(), before any conversation in line; rejects when `signal` aborts first. */
  async reclaimSlot(signal: AbortSignal): Promise<void> {
    if (!this.slotLent) return;
    await this.site.slots.reclaim(signal);
    this.slotLent = false;
  }

  /**
   * Redis failed mid-drain: what the lock is now is unknown, so it is neither renewed nor released; a sweep that sees it
   * unrenewed for the lock's lifetime answers the head again.
   */
  leaveLockUnrenewed(): void {
    clearInterval(this.heartbeat);
    this.lock = 'none';
  }

  /**
   * Ends the hold, once whatever the path (a second call does nothing): renewal stops, the lock is
   * released when it is still ours (its messages left queued for whoever claims next; a failure
   * only delays them until a sweep sees the lock unrenewed), then the slot is given back and the line moves on.
   */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.heartbeat);
    try {
      if (this.lock === 'owned') {
        this.lock = 'none';
        await this.site.queue
          .release(this.conversation, this.token)
          .catch((error: unknown) =>
            this.site.logger.warn(
              { err: error, conversation: this.conversation },
              'could not release a conversation lock; its messages are answered once a sweep sees it unrenewed',
            ),
          );
      }
    } finally {
      if (!this.slotLent) {
        this.site.slots.release();
        this.site.slotFreed();
      }
    }
  }
}
