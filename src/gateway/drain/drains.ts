/**
 * Runs the drain loops of the conversations whose lock this process holds: one
 * loop per conversation, answering its queue head by head, renewing the lock
 * (heartbeat) while it works. Also sweeps the pending sets (`queues:pending:{cN}`, all shards) for conversations
 * whose holder died, and takes them over once their lock has expired.
 *
 * At most `policy.maxAnswersInFlight` loops run at once (drain/answer-slots.ts). A conversation
 * that finds no free slot lets its lock go and waits in line here, holding nothing: its
 * messages stay queued in Redis, so no lock needs renewing while it waits, and another
 * process with a free slot may take it meanwhile (its sweep). When a slot frees, the first
 * in line claims its lock again; a claim that fails means someone else answers it. A loop
 * answers one head and, when others are waiting, lets go and goes to the end of the line,
 * so a long queue does not hold a slot while new chats wait.
 *
 * A conversation that goes in line knowing its head (its arrival found the queue empty, or
 * its last advance returned the next one) claims its lock in that head's first turn batch
 * (queue.headClaim, turn/first-batch.ts) rather than in a round trip of its own: the turn goes on
 * only if the lock is taken and the head is still first.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import type { AtomicCommand, ClaimHeadCommand, QueueClaim } from '../../state/index.js';
import { conversationMember, parseConversationMember } from '../state-keys.js';
import type { GatewayPolicy } from '../gateway-policy.js';
import type { ConversationQueue } from './conversation-queue.js';
import { parseQueuedMessage, type QueuedMessage } from './queued-message.js';
import { AnswerSlots, type Waiting } from './answer-slots.js';
import type { ConversationRef } from '../../contract.js';

/**
 * What answering one message produced: writes to make with its removal, or nothing when it was
 * cut off, or (with a claim) nothing because the claim did not give it the conversation with
 * this head: `head` is first now and the lock is ours, or null when the lock is not ours.
 */
export type HandleResult =
  | { outcome: 'done'; writes: AtomicCommand[] }
  | { outcome: 'aborted' }
  | { outcome: 'unclaimed'; head: string | null };
/** `claim` (queue.headClaim): the lock is not taken yet; the turn's first batch claims it. */
export type HandleMessage = (message: QueuedMessage, signal: AbortSignal, claim?: ClaimHeadCommand) => Promise<HandleResult>;

/** A drain's hold on its conversation: `owned` false while the lock's claim rides on the first turn's batch. */
interface Hold extends QueueClaim {
  owned: boolean;
}

type LoopEnd = { end: 'ended' } | { end: 'yielded'; head: string };

export class LockLostError extends Error {
  constructor(conversation: ConversationRef) {
    super(`The lock of conversation ${conversationMember(conversation)} expired while answering; another process takes over.`);
    this.name = 'LockLostError';
  }
}

interface ActiveDrain {
  abort: AbortController;
  done: Promise<void>;
}

export interface DrainsOptions {
  queue: ConversationQueue;
  policy: Pick<GatewayPolicy, 'heartbeatMs' | 'maxAnswersInFlight'>;
  logger: Logger;
  handle: HandleMessage;
  /** Only conversations of this process's adapters are taken over. */
  serves(conversation: ConversationRef): boolean;
  /** Called once a queued message is removed (answered or unreadable). */
  settled?(message: QueuedMessage | null): void;
  /**
   * Called holding a freshly claimed lock, before the first head is answered: whoever held
   * the conversation before is gone, and what it left half-shown is resolved first.
   */
  beforeDrain?(conversation: ConversationRef): Promise<void>;
}

export class Drains {
  private readonly active = new Map<string, ActiveDrain>();
  private readonly slots: AnswerSlots;
  private stopping = false;

  constructor(private readonly options: DrainsOptions) {
    this.slots = new AnswerSlots(options.policy.maxAnswersInFlight);
  }

  /** Number of conversations this process is answering right now. */
  get size(): number {
    return this.active.size;
  }

  /** Conversations waiting here for a free slot (their messages are queued in Redis). */
  get waiting(): number {
    return this.slots.waitingCount;
  }

  /**
   * Takes a slot for a message about to be offered with a claim, when one is free and nobody is in
   * line before it. Taken before the offer, so that a burst of offers in flight at once cannot all
   * see the same free slot, claim, and then pay a round trip each to let the lock go again. The
   * slot goes to start() with the claim, or back with giveBackRoom().
   */
  takeRoom(): boolean {
    return !this.stopping && this.slots.tryTake();
  }

  /** A slot from takeRoom() that no claim used (duplicate, full, lock held elsewhere, stopping). */
  giveBackRoom(): void {
    this.slots.release();
    this.pump();
  }

  /**
   * A conversation queued without claiming (no room) and whose lock is free: it waits in line for
   * a slot. `head`: its queue's head, when the caller knows it (the message it queued was first).
   */
  enqueue(conversation: ConversationRef, head?: string): void {
    if (!this.stopping) this.waitForSlot(conversation, head);
  }

  /** Resolves once fewer than `below` conversations wait for a slot here (backpressure for a polling source). */
  whenFewerWaiting(below: number): Promise<void> {
    return this.slots.whenFewerWaiting(below);
  }

  /**
   * A message's arrival claimed its conversation's lock: answered now in the slot taken for it
   * (`roomTaken`, takeRoom()) or a free one, otherwise the lock is let go and the conversation
   * waits in line for a slot.
   */
  async start(conversation: ConversationRef, claim: QueueClaim, roomTaken = false): Promise<void> {
    const slot = roomTaken || (!this.stopping && this.slots.tryTake());
    if (slot && !this.stopping) {
      this.run(conversation, { ...claim, owned: true });
      return;
    }
    // Stopping: the slot taken for it goes back with the lock.
    if (slot) this.slots.release();
    await this.letGo(conversation, claim.token);
    if (!this.stopping) this.waitForSlot(conversation, claim.head);
  }

  /** Takes over every served conversation with queued messages and no live lock. Returns how many started now. */
  async sweep(): Promise<number> {
    if (this.stopping) return 0;
    let taken = 0;
    for (const member of await this.options.queue.pendingConversations()) {
      const conversation = parseConversationMember(member);
      if (!conversation || this.active.has(member) || this.slots.isWaiting(member) || !this.options.serves(conversation)) continue;
      if (this.stopping) break;
      // No slot free: it waits in line like any other (its lock may be live elsewhere; the claim then tells).
      if (!this.slots.tryTake()) {
        this.waitForSlot(conversation);
        continue;
      }
      let claim: QueueClaim | null;
      try {
        claim = await this.options.queue.claim(conversation);
      } catch (error) {
        this.slots.release();
        throw error;
      }
      if (!claim || this.stopping) {
        this.slots.release();
        // stop() began while claiming: let go now rather than leave the queue locked until the lock expires.
        if (claim) await this.options.queue.release(conversation, claim.token);
        continue;
      }
      this.options.logger.info({ conversation }, 'taking over a conversation queue whose holder stopped');
      this.run(conversation, { ...claim, owned: true });
      taken++;
    }
    return taken;
  }

  /** Starts a drain holding a slot; the slot is given back when it ends (and the line moves on). */
  private run(conversation: ConversationRef, hold: Hold): void {
    const member = conversationMember(conversation);
    const abort = new AbortController();
    const drain: ActiveDrain = { abort, done: Promise.resolve() };
    // A drain of this conversation still ending (it lost the lock, or just released it) finishes
    // first, so that what it leaves on screen is settled before this one resolves it.
    const previous = this.active.get(member)?.done ?? Promise.resolve();
    // Only this drain's own entry is removed: a new drain of the same conversation may have started
    // between this one's last advance (which released the lock) and its end.
    drain.done = previous.then(() => this.loop(conversation, hold, abort)).then((outcome) => {
      if (this.active.get(member) === drain) this.active.delete(member);
      // Back in line only once its entry is gone, so that the claim of whoever pops it starts a new drain.
      if (outcome.end === 'yielded' && !this.stopping) this.waitForSlot(conversation, outcome.head);
    }).finally(() => {
      if (this.active.get(member) === drain) this.active.delete(member);
      this.slots.release();
      this.pump();
    });
    this.active.set(member, drain);
  }

  private waitForSlot(conversation: ConversationRef, head?: string): void {
    this.slots.wait(conversationMember(conversation), conversation, head);
    this.pump();
  }

  /** Gives each free slot to the conversation first in line. */
  private pump(): void {
    for (let next = this.stopping ? undefined : this.slots.takeNext(); next; next = this.stopping ? undefined : this.slots.takeNext()) {
      void this.claimAndRun(next);
    }
  }

  /** Holding a slot: claims the conversation's lock and answers it, or gives the slot back. */
  private async claimAndRun({ conversation, head }: Waiting): Promise<void> {
    // Its head known: the claim rides on that head's first batch. beforeDrain must run holding the lock, so not then.
    if (head !== undefined && !this.options.beforeDrain && !this.stopping) {
      this.run(conversation, { token: randomUUID(), head, owned: false });
      return;
    }
    let claim: QueueClaim | null = null;
    try {
      claim = await this.options.queue.claim(conversation);
    } catch (error) {
      // Redis failed: its messages stay queued and pending; the next sweep (here or elsewhere) finds it.
      this.options.logger.warn({ err: error, conversation }, 'could not claim a conversation waiting for a slot; the next sweep takes it');
    }
    if (claim && !this.stopping) {
      this.run(conversation, { ...claim, owned: true });
      return;
    }
    // Nothing to answer (another process holds it or answered it), or stopping.
    if (claim) await this.letGo(conversation, claim.token);
    this.slots.release();
    this.pump();
  }

  /** Releases a lock; a failure only delays the conversation until the lock expires and a sweep takes it. */
  private async letGo(conversation: ConversationRef, token: string): Promise<void> {
    await this.options.queue.release(conversation, token).catch((error: unknown) =>
      this.options.logger.warn({ err: error, conversation }, 'could not release a conversation lock; it is answered once the lock expires'));
  }

  /** Lets a stopped gateway start again. */
  resume(): void {
    this.stopping = false;
  }

  /**
   * Stops taking new heads, lets the answers in progress finish for `graceMs`,
   * then cuts them off. Every lock is released; unanswered messages stay queued.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    // Those in line hold no lock: their messages stay queued for the next start or another process.
    const inLine = this.slots.waitingCount;
    this.slots.clearWaiting();
    const all = [...this.active.values()];
    let ended = 0;
    const finished = Promise.all(all.map((drain) => drain.done.then(() => { ended++; })));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => { timer = setTimeout(resolve, graceMs); });
    await Promise.race([finished, grace]);
    clearTimeout(timer);
    const cutOff = all.length - ended;
    for (const drain of all) drain.abort.abort(new Error('the gateway is stopping'));
    await finished;
    // What an operator wants to know of a stop: nothing cut off means every answer begun here was given in full.
    this.options.logger.info(
      { answering: all.length, finished: all.length - cutOff, cutOff, inLine, graceMs },
      cutOff > 0
        ? `stopped: ${cutOff} answer(s) cut off after the grace period; their conversations are released, and the process that takes them resolves what was half shown`
        : 'stopped: every answer in progress finished; conversations with messages left are released for another process',
    );
    // A drain a sweep started just before `stopping` was set: it lets go at its first step.
    await Promise.all([...this.active.values()].map((drain) => drain.done));
  }

  /** Answers the queue; 'yielded' (with its head) when it let go with messages left because other conversations wait for a slot. */
  private async loop(conversation: ConversationRef, hold: Hold, abort: AbortController): Promise<LoopEnd> {
    const { queue, logger } = this.options;
    const log = logger.child({ conversation });
    let owned = hold.owned;
    /** A renewal got through: the lock is ours, even while `owned` waits for the first turn to return. */
    let renewed = false;
    const heartbeat = setInterval(() => {
      // Renewed even while the claim rides on the first turn's batch: that turn may outlive the lock
      // (a long answer), and `owned` turns true only once it returns. Before the batch has taken the
      // lock (or when it found the conversation taken), the renewal finds another token: nothing lost.
      queue.extend(conversation, hold.token).then(
        (ours) => {
          if (ours) renewed = true;
          else if ((owned || renewed) && !abort.signal.aborted) {
            log.warn('lost the conversation lock while answering; stopping here so the new holder answers once');
            abort.abort(new LockLostError(conversation));
          }
        },
        // A failed renewal is not a lost lock: the next heartbeat may get through before it expires.
        (error: unknown) => log.warn({ err: error }, 'could not renew the conversation lock'),
      );
    }, this.options.policy.heartbeatMs);
    heartbeat.unref();
    let head: string | null = hold.head;
    try {
      if (this.options.beforeDrain && head !== null) {
        await this.options.beforeDrain(conversation).catch((error: unknown) => log.warn({ err: error }, 'could not resolve the answers the previous holder left'));
      }
      while (head !== null) {
        if (this.stopping || abort.signal.aborted) break;
        const message = parseQueuedMessage(head);
        if (!owned && !message) {
          // No turn to carry the claim of an unreadable head: claimed alone, then dropped like any other.
          const claim = await queue.claim(conversation);
          if (!claim) return { end: 'ended' };
          ({ head } = claim);
          owned = true;
          hold.token = claim.token;
          continue;
        }
        let writes: AtomicCommand[] = [];
        if (message) {
          const result = await this.options.handle(message, abort.signal, owned ? undefined : queue.headClaim(conversation, hold.token, head));
          if (result.outcome === 'unclaimed') {
            // Another process took it meanwhile (nothing to do here), or answered that head and the lock is ours for the next.
            if (result.head === null) return { end: 'ended' };
            owned = true;
            head = result.head;
            continue;
          }
          owned = true;
          if (result.outcome === 'aborted') break;
          writes = result.writes;
        } else {
          log.error({ entry: head.slice(0, 200) }, 'dropping an unreadable queue entry');
        }
        // Others wait for a slot: the lock goes with the advance (one round trip), and this conversation goes back in line.
        const advanced = await queue.advance(conversation, hold.token, writes, { letGo: this.slots.waitingCount > 0 && !this.stopping });
        this.options.settled?.(message);
        if (!advanced.owned) {
          log.warn('the conversation lock expired during the answer; leaving the queue to its new holder');
          return { end: 'ended' };
        }
        head = advanced.next;
        if (advanced.letGo && head !== null) return { end: 'yielded', head };
      }
      // Stopped or cut off with messages left: let go, so another process answers them now.
      if (owned && head !== null && !(abort.signal.reason instanceof LockLostError)) await queue.release(conversation, hold.token);
    } catch (error) {
      // Redis failed: the lock expires and whoever sweeps next answers the head again.
      log.error({ err: error }, 'the conversation queue failed; its messages stay queued for the next sweep');
    } finally {
      clearInterval(heartbeat);
    }
    return { end: 'ended' };
  }
}
