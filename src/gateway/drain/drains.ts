/**
 * Runs the drain loops of the conversations whose lock this process holds: one
 * loop per conversation, answering its queue head by head, renewing the lock
 * (heartbeat) while it works. Also sweeps the owner hashes (`queues:owners:{cN}`, all shards) for conversations
 * nobody answers, or whose holder stopped renewing their lock (owner-watch.ts), and takes them over.
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
 *
 * The slot and the lock of each drain are its ConversationHold (conversation-hold.ts): taken,
 * renewed and given back there, whichever way the drain ends.
 */
import type { Logger } from '../../logger.js';
import type { AtomicCommand } from '../../state/index.js';
import { conversationMember, parseConversationMember } from '../state-keys.js';
import type { GatewayPolicy } from '../gateway-policy.js';
import type { ConversationQueue } from './conversation-queue.js';
import { parseQueuedMessage, type QueuedMessage } from './queued-message.js';
import { AnswerSlots } from './answer-slots.js';
import { ConversationHold, type HoldSite, type RidingClaim } from './conversation-hold.js';
import { OwnerWatch } from './owner-watch.js';
import type { ConversationRef } from '../../contract.js';

/**
 * What answering one message produced: writes to make with its removal, or nothing when it was
 * cut off, or (with a claim) nothing because the claim did not give it the conversation with
 * this head (what it found instead, the hold was told: RidingClaim.found).
 */
export type HandleResult =
  /**
   * `committed`: called once `writes` are applied with the queue advance (never throws). `answered`: the
   * queue's first entries as the turn read and answered them (a burst answered as one; turn/burst.ts), all
   * removed with the advance; absent, the head alone.
   */
  | { outcome: 'done'; writes: AtomicCommand[]; committed?: () => Promise<void>; answered?: string[] }
  | { outcome: 'aborted' }
  | { outcome: 'unclaimed' };
/**
 * How a head came to be answered here, which tells its turn what to look for before answering
 * (turn/first-batch.ts: the turns of it cut off before, and what they left half-shown):
 * - `new`: it became first while this drain held the lock (its arrival found the queue empty and
 *   claimed it, or the answer before it advanced to it): no turn of it can have started before;
 * - `line`: it went in line never started, and its claim rides on its turn's first batch (`claim`);
 *   a claim elsewhere meanwhile counted the turn it started (an `again`);
 * - `again`: any other claim (a takeover, a claim without a known head, the head found instead of
 *   the one expected): turns of it may have started and been cut off.
 */
export type HeadOrigin = 'new' | 'line' | 'again';

/**
 * The answer slot of a drain, lent back while its turn only waits (a burst settling: turn/burst-wait.ts) and
 * reclaimed before the answer is written (ConversationHold.lendSlot, reclaimSlot).
 */
export interface SlotLoan {
  lend(): void;
  reclaim(signal: AbortSignal): Promise<void>;
}

/** `claim` (origin `line`): the lock is not taken yet; the turn's first batch claims it and tells the claim what it found. */
export type HandleMessage = (
  message: QueuedMessage,
  signal: AbortSignal,
  claim: RidingClaim | undefined,
  origin: HeadOrigin,
  slot: SlotLoan,
) => Promise<HandleResult>;

type LoopEnd = { end: 'ended' } | { end: 'yielded'; head: string };

interface ActiveDrain {
  abort: AbortController;
  done: Promise<void>;
}

export interface DrainsOptions {
  queue: ConversationQueue;
  policy: Pick<GatewayPolicy, 'heartbeatMs' | 'maxAnswersInFlight' | 'lockTtlMs'>;
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
  private readonly site: HoldSite;
  private readonly watch: OwnerWatch;
  private stopping = false;

  constructor(private readonly options: DrainsOptions) {
    this.slots = new AnswerSlots(options.policy.maxAnswersInFlight);
    this.site = {
      slots: this.slots,
      queue: options.queue,
      heartbeatMs: options.policy.heartbeatMs,
      lockTtlMs: options.policy.lockTtlMs,
      logger: options.logger,
      slotFreed: () => this.pump(),
    };
    this.watch = new OwnerWatch(options.policy.lockTtlMs);
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
   * A hold on a slot for a message about to be offered with a claim, when one is free and nobody is
   * in line before it (taken before the offer: conversation-hold.ts). It goes to start() with the
   * claim, or ends (`end()`) when no claim came of the offer (duplicate, full, lock held elsewhere).
   */
  hold(conversation: ConversationRef): ConversationHold | undefined {
    return this.stopping ? undefined : ConversationHold.take(this.site, conversation);
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
   * A message's arrival claimed its conversation's lock for `hold` (hold(), then hold.claimed()): answered
   * from `head` now; stopping, both go back. `new` when that message is the head (it found the queue empty).
   */
  async start(hold: ConversationHold, head: string, origin: 'new' | 'again'): Promise<void> {
    if (this.stopping) return hold.end();
    this.run(hold, head, origin);
  }

  /**
   * Takes over every served conversation with queued messages that nobody answers, or whose holder stopped renewing its
   * lock (seen unchanged by this process's sweeps for the lock's lifetime). Returns how many started now.
   */
  async sweep(): Promise<number> {
    if (this.stopping) return 0;
    await this.options.queue.layout.refresh();
    let taken = 0;
    for (const [member, expectedOwner] of this.watch.claimable(await this.options.queue.owners())) {
      const conversation = parseConversationMember(member);
      if (
        !conversation ||
        this.active.has(member) ||
        this.slots.isWaiting(member) ||
        !this.options.serves(conversation)
      )
        continue;
      if (this.stopping) break;
      const hold = ConversationHold.take(this.site, conversation);
      // No slot free: it waits in line like any other (the claim then tells whether someone took it meanwhile).
      if (!hold) {
        this.waitForSlot(conversation);
        continue;
      }
      let head: string | null;
      try {
        head = await hold.claim(expectedOwner);
      } catch (error) {
        await hold.end();
        throw error;
      }
      // Held elsewhere or answered; or stop() began while claiming: the lock goes back now.
      if (head === null || this.stopping) {
        await hold.end();
        continue;
      }
      this.options.logger.info({ conversation }, 'taking over a conversation queue whose holder stopped');
      this.run(hold, head, 'again');
      taken++;
    }
    return taken;
  }

  /** Starts a drain of the hold's conversation from `head`; the hold ends (and the line moves on) when the drain does. */
  private run(hold: ConversationHold, head: string, origin: HeadOrigin): void {
    const { conversation } = hold;
    const member = conversationMember(conversation);
    const abort = new AbortController();
    const drain: ActiveDrain = { abort, done: Promise.resolve() };
    // A drain of this conversation still ending (it lost the lock, or just released it) finishes
    // first, so that what it leaves on screen is settled before this one resolves it.
    const previous = this.active.get(member)?.done ?? Promise.resolve();
    // Only this drain's own entry is removed: a new drain of the same conversation may have started
    // between this one's last advance (which released the lock) and its end.
    drain.done = previous
      .then(() => this.loop(hold, head, origin, abort))
      .then((outcome) => {
        if (this.active.get(member) === drain) this.active.delete(member);
        // Back in line only once its entry is gone, so that the claim of whoever pops it starts a new drain.
        if (outcome.end === 'yielded' && !this.stopping) this.waitForSlot(conversation, outcome.head);
      })
      .finally(() => {
        if (this.active.get(member) === drain) this.active.delete(member);
        return hold.end();
      });
    this.active.set(member, drain);
  }

  private waitForSlot(conversation: ConversationRef, head?: string): void {
    this.slots.wait(conversationMember(conversation), conversation, head);
    this.pump();
  }

  /** Gives each free slot to the conversation first in line. */
  private pump(): void {
    for (
      let next = this.stopping ? undefined : ConversationHold.next(this.site);
      next;
      next = this.stopping ? undefined : ConversationHold.next(this.site)
    ) {
      void this.claimAndRun(next);
    }
  }

  /** Holding a slot: claims the conversation's lock and answers it, or ends the hold. */
  private async claimAndRun(hold: ConversationHold): Promise<void> {
    const head = hold.knownHead;
    // Its head known: the claim rides on that head's first batch. beforeDrain must run holding the lock, so not then.
    if (head !== undefined && !this.options.beforeDrain && !this.stopping) {
      hold.claimWithFirstTurn();
      this.run(hold, head, 'line');
      return;
    }
    let claimed: string | null = null;
    try {
      claimed = await hold.claim();
    } catch (error) {
      // Redis failed: its messages stay queued and pending; the next sweep (here or elsewhere) finds it.
      this.options.logger.warn(
        { err: error, conversation: hold.conversation },
        'could not claim a conversation waiting for a slot; the next sweep takes it',
      );
    }
    if (claimed !== null && !this.stopping) {
      this.run(hold, claimed, 'again');
      return;
    }
    // Nothing to answer (another process holds it or answered it), or stopping: a lock claimed goes back with the slot.
    await hold.end();
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
    const finished = Promise.all(
      all.map((drain) =>
        drain.done.then(() => {
          ended++;
        }),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([finished, grace]);
    clearTimeout(timer);
    const cutOff = all.length - ended;
    for (const drain of all) drain.abort.abort(new Error('the gateway is stopping'));
    await finished;
    // What an operator wants to know of a stop: nothing cut off means every answer begun here was given in full.
    this.options.logger.info(
      { answering: all.length, finished: all.length - cutOff, cutOff, inLine, graceMs },
      cutOff > 0
        ? `stopped: ${cutOff} answer(s) cut off after the grace period; their conversations are released, ` +
            'and the process that takes them resolves what was half shown'
        : 'stopped: every answer in progress finished; conversations with messages left are released for another process',
    );
    // A drain a sweep started just before `stopping` was set: it lets go at its first step.
    await Promise.all([...this.active.values()].map((drain) => drain.done));
  }

  /** Answers the queue from `first`; 'yielded' (with its head) when it let go with messages left because other conversations wait for a slot. */
  private async loop(
    hold: ConversationHold,
    first: string,
    firstOrigin: HeadOrigin,
    abort: AbortController,
  ): Promise<LoopEnd> {
    const { conversation } = hold;
    const log = this.options.logger.child({ conversation });
    hold.keepAlive(abort);
    const slot: SlotLoan = { lend: () => hold.lendSlot(), reclaim: (signal) => hold.reclaimSlot(signal) };
    let head: string | null = first;
    let origin = firstOrigin;
    try {
      if (this.options.beforeDrain) {
        await this.options
          .beforeDrain(conversation)
          .catch((error: unknown) =>
            log.warn({ err: error }, 'could not resolve the answers the previous holder left'),
          );
      }
      while (head !== null) {
        if (this.stopping || abort.signal.aborted) break;
        const message = parseQueuedMessage(head);
        if (!message && hold.claimPending) {
          // No turn to carry the claim of an unreadable head: claimed alone, then dropped like any other.
          head = await hold.claim();
          origin = 'again';
          continue;
        }
        let writes: AtomicCommand[] = [];
        let committed: (() => Promise<void>) | undefined;
        let answered: string[] | undefined;
        if (message) {
          const claim = hold.ridingClaim(head);
          const result = await this.options.handle(message, abort.signal, claim, claim ? 'line' : origin, slot);
          if (result.outcome === 'unclaimed') {
            // Another process took it meanwhile (nothing to do here), or answered that head and the lock is ours for the next.
            head = hold.headAfterMiss();
            origin = 'again';
            continue;
          }
          if (result.outcome === 'aborted') break;
          writes = result.writes;
          committed = result.committed;
          answered = result.answered;
        } else {
          log.error({ entry: head.slice(0, 200) }, 'dropping an unreadable queue entry');
        }
        // Others wait for a slot: the lock goes with the advance (one round trip), and this conversation goes back in line.
        const advanced = await hold.advance(writes, this.slots.waitingCount > 0 && !this.stopping, answered);
        this.options.settled?.(message);
        for (const entry of answered?.slice(1) ?? []) this.options.settled?.(parseQueuedMessage(entry));
        if (!advanced.owned) {
          log.warn('the conversation lock was taken over during the answer; leaving the queue to its new holder');
          return { end: 'ended' };
        }
        if (advanced.changed) {
          log.info(
            { changed: advanced.changed },
            'a message was edited or deleted after its answer started; it is not answered again',
          );
        }
        await committed?.();
        head = advanced.next;
        origin = 'new';
        if (advanced.letGo && head !== null) return { end: 'yielded', head };
      }
      // Stopped or cut off with messages left: the hold's end lets the lock go (when still ours), so another process answers them now.
    } catch (error) {
      // Redis failed: the lock is left as it is; a sweep that sees it unrenewed answers the head again.
      hold.leaveLockUnrenewed();
      log.error({ err: error }, 'the conversation queue failed; its messages stay queued for the next sweep');
    }
    return { end: 'ended' };
  }
}
