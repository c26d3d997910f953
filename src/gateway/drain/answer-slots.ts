/**
 * The answers one process may have in flight (`gateway.maxAnswersInFlight`), and the
 * conversations waiting for one, in the order they came. Each answer being written holds
 * memory (its stream, its renders, its platform calls); a burst of new chats without a
 * bound took one process past 1 GB. A conversation that waits here holds nothing but its
 * id: its messages are queued in Redis and its lock is free, so any process with a free
 * slot may answer it meanwhile (the lock is claimed only once a slot is taken).
 *
 * Synchronous bookkeeping only; a slot is taken and given back through a ConversationHold
 * (conversation-hold.ts), which also holds the lock.
 */
import type { ConversationRef } from '../../contract.js';

/** A conversation in line. */
export interface Waiting {
  conversation: ConversationRef;
  /**
   * The head of its queue when it went in line, when known (its arrival found the queue empty, or
   * its last answer told): its lock claim can then ride on that head's first batch. A hint only:
   * the claim checks it, as another process may answer the conversation meanwhile.
   */
  head?: string;
}

export class AnswerSlots {
  private busy = 0;
  /** Member → conversation, in arrival order (a Map keeps insertion order); one entry per conversation. */
  private readonly waiting = new Map<string, Waiting>();
  /** Holds that lent their slot back while they wait (a burst settling) and want one again: served before the line. */
  private readonly reclaimers: (() => void)[] = [];
  /** Callers of whenFewerWaiting(), each with the count it waits to go under. */
  private readonly roomWaiters: { below: number; wake: () => void }[] = [];

  constructor(readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 1)) {
      throw new Error(`gateway.maxAnswersInFlight must be a whole number of at least 1 (got ${capacity}).`);
    }
  }

  /** Answers in flight now. */
  get inUse(): number {
    return this.busy;
  }

  /** Conversations waiting for a slot now. */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /**
   * Takes a slot when one is free and no conversation waits for one (those came first).
   * Given back with `release()` once its answer ends (ConversationHold.end()).
   */
  tryTake(): boolean {
    if (this.busy >= this.capacity || this.waiting.size > 0 || this.reclaimers.length > 0) return false;
    this.busy++;
    return true;
  }

  /**
   * Puts a conversation at the end of the line; false when it already waits (it keeps its place,
   * and learns its head if it is given now).
   */
  wait(member: string, conversation: ConversationRef, head?: string): boolean {
    const already = this.waiting.get(member);
    if (already) {
      if (head !== undefined) already.head = head;
      return false;
    }
    this.waiting.set(member, head === undefined ? { conversation } : { conversation, head });
    return true;
  }

  /** Whether a conversation is waiting for a slot. */
  isWaiting(member: string): boolean {
    return this.waiting.has(member);
  }

  /** Takes a free slot for the conversation first in line; undefined when no slot is free or nobody waits. */
  takeNext(): Waiting | undefined {
    if (this.busy >= this.capacity || this.reclaimers.length > 0) return undefined;
    const first = this.waiting.entries().next();
    if (first.done) return undefined;
    const [member, waiting] = first.value;
    this.waiting.delete(member);
    this.busy++;
    this.wakeRoomWaiters();
    return waiting;
  }

  /** Gives back a slot taken by tryTake() or takeNext(); a hold reclaiming one gets it first. */
  release(): void {
    if (this.busy === 0) throw new Error('AnswerSlots.release() without a slot taken: a slot was given back twice');
    const reclaimer = this.reclaimers.shift();
    if (reclaimer) reclaimer();
    else this.busy--;
  }

  /**
   * A slot again for a hold that lent its own back (it kept its lock): at once when one is free, else
   * the next one given back, before any conversation in line. Rejects with the signal's reason when it
   * aborts first (the hold then holds no slot).
   */
  reclaim(signal: AbortSignal): Promise<void> {
    if (this.busy < this.capacity && this.reclaimers.length === 0) {
      this.busy++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.reclaimers.indexOf(granted);
        if (at >= 0) this.reclaimers.splice(at, 1);
        reject(signal.reason as Error);
      };
      const granted = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.reclaimers.push(granted);
    });
  }

  /** Forgets every waiting conversation (the gateway stops: their messages stay queued in Redis for any process). */
  clearWaiting(): void {
    this.waiting.clear();
    this.wakeRoomWaiters();
  }

  /** Resolves once fewer than `below` conversations wait (at once when that is already so). */
  whenFewerWaiting(below: number): Promise<void> {
    if (this.waiting.size < below) return Promise.resolve();
    return new Promise((wake) => this.roomWaiters.push({ below, wake }));
  }

  private wakeRoomWaiters(): void {
    if (this.roomWaiters.length === 0) return;
    const woken: (() => void)[] = [];
    const still: typeof this.roomWaiters = [];
    for (const waiter of this.roomWaiters) {
      if (this.waiting.size < waiter.below) woken.push(waiter.wake);
      else still.push(waiter);
    }
    this.roomWaiters.splice(0, this.roomWaiters.length, ...still);
    for (const wake of woken) wake();
  }
}
