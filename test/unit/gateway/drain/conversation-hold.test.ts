/**
 * A drain's hold on a conversation (src/gateway/drain/conversation-hold.ts): the answer slot it
 * takes in this process and the conversation's lock in Redis, given back exactly once whichever
 * way the drain ends. A slot never given back is capacity lost for the life of the process; a
 * lock never released keeps a conversation silent until it expires. Real Redis throughout.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { AnswerSlots } from '../../../../src/gateway/drain/answer-slots.js';
import { ConversationHold, LockLostError, type HoldSite } from '../../../../src/gateway/drain/conversation-hold.js';
import { ConversationQueue } from '../../../../src/gateway/drain/conversation-queue.js';
import { resolvePolicy } from '../../../../src/gateway/gateway-policy.js';
import { conversationMember, gatewayKeys } from '../../../../src/gateway/state-keys.js';
import type { ConversationRef } from '../../../../src/contract.js';
import { silentLogger } from '../../../../src/logger.js';
import { RedisStateStore, type HeadClaim, type StateStore } from '../../../../src/state/index.js';
import { testRedisUrl } from '../../../support/redis.js';
import { eventually } from '../support/recording-adapter.js';

const prefix = `cbtest:conversation-hold:${randomUUID().slice(0, 8)}:`;
const store = new RedisStateStore({ url: testRedisUrl(), prefix, checkSlots: true });
afterAll(async () => {
  await store.deleteByPrefix();
  await store.close();
});

// A lifetime no test outlasts, renewed often: a renewal is seen within a test's patience.
const policy = resolvePolicy({ lockTtlMs: 10_000, heartbeatMs: 50 });
let conversations = 0;
const newConversation = (): ConversationRef => ({ bot: 'main', platform: 'holdtest', id: `c${++conversations}` });
const entry = (conversation: ConversationRef, id: string) =>
  JSON.stringify({ id, origin: 'o', acceptedAt: 0, inbound: { conversation, attachments: [] } });
/** The owner of the conversation's lock; null when nobody holds it (its field '' or absent). */
const lockOf = async (conversation: ConversationRef) =>
  (await store.hashGetAll(gatewayKeys.owners(conversation)))[conversationMember(conversation)] || null;

/** One gateway process as the holds see it: its answer slots, and the round trips its holds make to Redis. */
interface Process {
  site: HoldSite;
  slots: AnswerSlots;
  /** Another process's view of the same Redis (its own claims and advances). */
  queue: ConversationQueue;
  roundTrips: { release: number; extend: number };
  slotsFreed: number;
}

function gatewayProcess(capacity = 1, state: StateStore = store): Process {
  const queue = new ConversationQueue(state, policy);
  const slots = new AnswerSlots(capacity);
  const roundTrips = { release: 0, extend: 0 };
  const proc: Process = {
    slots,
    queue: new ConversationQueue(store, policy),
    roundTrips,
    slotsFreed: 0,
    site: {
      slots,
      heartbeatMs: policy.heartbeatMs,
      lockTtlMs: policy.lockTtlMs,
      logger: silentLogger(),
      queue: {
        claim: (c) => queue.claim(c),
        headClaim: (c, token, head) => queue.headClaim(c, token, head),
        advance: (c, token, writes, options) => queue.advance(c, token, writes, options),
        extend: (c, token) => {
          roundTrips.extend++;
          return queue.extend(c, token);
        },
        release: (c, token) => {
          roundTrips.release++;
          return queue.release(c, token);
        },
      },
      slotFreed: () => {
        proc.slotsFreed++;
      },
    },
  };
  return proc;
}

/** A hold from the line, its claim riding on the first batch of `head`'s turn (as drains.ts starts one). */
function pendingHold(proc: Process, conversation: ConversationRef, head: string): ConversationHold {
  proc.slots.wait(conversationMember(conversation), conversation, head);
  const hold = ConversationHold.next(proc.site)!;
  hold.claimWithFirstTurn();
  return hold;
}

/** The first batch of a turn, reduced to its claim: runs it in Redis and tells the hold what it found. */
async function firstBatch(hold: ConversationHold, head: string): Promise<HeadClaim> {
  const riding = hold.ridingClaim(head)!;
  const [found] = (await store.batch([riding.command])) as [HeadClaim];
  riding.found(found);
  return found;
}

describe("ConversationHold: a conversation's answer slot and lock, taken and given back in one place", () => {
  it('takes a slot only when one is free and nobody waits in line, and gives it back once however often it is ended', async () => {
    const proc = gatewayProcess(2);
    const first = ConversationHold.take(proc.site, newConversation())!;
    const second = ConversationHold.take(proc.site, newConversation());
    expect(second).toBeDefined();
    expect(ConversationHold.take(proc.site, newConversation())).toBeUndefined();

    await first.end();
    await first.end();
    // The second hold still has its slot: the first one's was given back once, not twice.
    expect(proc.slots.inUse).toBe(1);
    expect(proc.slotsFreed).toBe(1);

    // A free slot goes to the conversation in line before any newcomer.
    const waiting = newConversation();
    proc.slots.wait(conversationMember(waiting), waiting);
    expect(ConversationHold.take(proc.site, newConversation())).toBeUndefined();
    expect(ConversationHold.next(proc.site)?.conversation).toEqual(waiting);
  });

  it('answered: the advance that empties the queue gives the lock up; ending the hold costs no release round trip', async () => {
    const proc = gatewayProcess();
    const conversation = newConversation();
    await proc.queue.offer(conversation, 'm1', entry(conversation, 'm1'), { claim: false });
    const hold = ConversationHold.take(proc.site, conversation)!;
    expect(await hold.claim()).toBe(entry(conversation, 'm1'));

    expect(await hold.advance([], false)).toEqual({ owned: true, next: null });
    expect(await lockOf(conversation)).toBeNull();
    await hold.end();
    expect(proc.roundTrips.release).toBe(0);
    expect(proc.slots.inUse).toBe(0);
  });

  it('let go for others in line: the advance that yields the lock leaves nothing to release, and the rest stays queued', async () => {
    const proc = gatewayProcess();
    const conversation = newConversation();
    await proc.queue.offer(conversation, 'm1', entry(conversation, 'm1'), { claim: false });
    await proc.queue.offer(conversation, 'm2', entry(conversation, 'm2'), { claim: false });
    const hold = ConversationHold.take(proc.site, conversation)!;
    await hold.claim();

    expect(await hold.advance([], true)).toEqual({ owned: true, next: entry(conversation, 'm2'), letGo: true });
    await hold.end();
    expect(proc.roundTrips.release).toBe(0);
    expect(await lockOf(conversation)).toBeNull();
    expect(await store.listLength(gatewayKeys.queue(conversation))).toBe(1);
    expect(proc.slots.inUse).toBe(0);
  });

  it('cut off or stopped with messages left: ending releases the lock once, so another process answers them at once', async () => {
    const proc = gatewayProcess();
    const conversation = newConversation();
    await proc.queue.offer(conversation, 'm1', entry(conversation, 'm1'), { claim: false });
    const hold = ConversationHold.take(proc.site, conversation)!;
    await hold.claim();
    hold.keepAlive(new AbortController());

    await Promise.all([hold.end(), hold.end()]);
    expect(proc.roundTrips.release).toBe(1);
    expect(await lockOf(conversation)).toBeNull();
    expect(proc.slots.inUse).toBe(0);
    // The message stays for whoever claims next, here another process.
    expect((await proc.queue.claim(conversation))?.head).toBe(entry(conversation, 'm1'));
  });

  it("lock lost: a renewal that finds another holder stops the answer, and ending leaves that holder's lock alone", async () => {
    const proc = gatewayProcess();
    const conversation = newConversation();
    await proc.queue.offer(conversation, 'm1', entry(conversation, 'm1'), { claim: false });
    const hold = ConversationHold.take(proc.site, conversation)!;
    await hold.claim();
    const answer = new AbortController();
    hold.keepAlive(answer);

    // A frozen process: a sweep elsewhere saw its lock unrenewed and took the conversation over.
    await store.hashSet(gatewayKeys.owners(conversation), { [conversationMember(conversation)]: 'the-new-holder' });
    await eventually(() => expect(answer.signal.reason).toBeInstanceOf(LockLostError));

    await hold.end();
    expect(proc.roundTrips.release).toBe(0);
    expect(await lockOf(conversation)).toBe('the-new-holder');
    expect(proc.slots.inUse).toBe(0);
  });

  it("a pending claim is confirmed by the first batch: the lock is the hold's, the next turn carries no claim, and ending releases it", async () => {
    const proc = gatewayProcess();
    const conversation = newConversation();
    const head = entry(conversation, 'm1');
    await proc.queue.offer(conversation, 'm1', head, { claim: false });
    const hold = pendingHold(proc, conversation, head);
    expect(hold.knownHead).toBe(head);
    expect(hold.claimPending).toBe(true);
    // Nothing claimed before the batch runs: the claim costs no round trip of its own.
    expect(await lockOf(conversation)).toBeNull();

    expect(await firstBatch(hold, head)).toEqual({ outcome: 'claimed' });
    expect(hold.claimPending).toBe(false);
    expect(await lockOf(conversation)).not.toBeNull();
    expect(hold.ridingClaim(head)).toBeUndefined();

    await hold.end();
    expect(proc.roundTrips.release).toBe(1);
    expect(await lockOf(conversation)).toBeNull();
    expect(proc.slots.inUse).toBe(0);
  });

  it('claim missed: the first batch finds the conversation held elsewhere; the hold has no lock and gives back only its slot', async () => {
    const proc = gatewayProcess();
    const conversation = newConversation();
    const head = entry(conversation, 'm1');
    await proc.queue.offer(conversation, 'm1', head, { claim: false });
    const hold = pendingHold(proc, conversation, head);
    // Another process with a free slot took the conversation while it waited in line here.
    const other = (await proc.queue.claim(conversation))!;

    expect(await firstBatch(hold, head)).toEqual({ outcome: 'taken' });
    expect(hold.headAfterMiss()).toBeNull();
    await hold.end();
    expect(proc.roundTrips.release).toBe(0);
    expect(await lockOf(conversation)).toBe(other.token);
    expect(proc.slots.inUse).toBe(0);
  });

  it('a claim that finds its head answered elsewhere takes the lock for the head first now', async () => {
    const proc = gatewayProcess();
    const conversation = newConversation();
    await proc.queue.offer(conversation, 'm1', entry(conversation, 'm1'), { claim: false });
    await proc.queue.offer(conversation, 'm2', entry(conversation, 'm2'), { claim: false });
    const hold = pendingHold(proc, conversation, entry(conversation, 'm1'));
    // Another process answers m1 and lets the conversation go while it waits here.
    const other = (await proc.queue.claim(conversation))!;
    await proc.queue.advance(conversation, other.token, [], { letGo: true });

    expect(await firstBatch(hold, entry(conversation, 'm1'))).toEqual({
      outcome: 'other-head',
      head: entry(conversation, 'm2'),
    });
    expect(hold.headAfterMiss()).toBe(entry(conversation, 'm2'));
    await hold.end();
    expect(proc.roundTrips.release).toBe(1);
    expect(await lockOf(conversation)).toBeNull();
  });

  it('renews the lock while it is held; renewals sent before the first batch claimed report no loss', async () => {
    const proc = gatewayProcess();
    const conversation = newConversation();
    const head = entry(conversation, 'm1');
    await proc.queue.offer(conversation, 'm1', head, { claim: false });
    const hold = pendingHold(proc, conversation, head);
    const answer = new AbortController();
    hold.keepAlive(answer);
    // Renewals before the claim find no lock of this hold's.
    await eventually(() => expect(proc.roundTrips.extend).toBeGreaterThanOrEqual(2));

    await firstBatch(hold, head);
    // Each renewal changes the owner (the hold's token, then `#<n>`): what another process's sweep sees as alive.
    const token = (await lockOf(conversation))!.split('#')[0]!;
    await eventually(async () => expect(await lockOf(conversation)).toMatch(new RegExp(`^${token}#`)));
    const renewed = await lockOf(conversation);
    await eventually(async () => expect(await lockOf(conversation)).not.toBe(renewed));
    expect(answer.signal.aborted).toBe(false);
    await hold.end();
    // Renewal stops with the hold: nothing renews a lock after it was released.
    const renewals = proc.roundTrips.extend;
    await new Promise((resolve) => setTimeout(resolve, policy.heartbeatMs * 3));
    expect(proc.roundTrips.extend).toBe(renewals);
  });

  it('renewals that cannot get through for the lock lifetime: the answer stops, and ending lets the lock go if still its own', async () => {
    const proc = gatewayProcess();
    // Renewals that never come back (Redis out of reach, or an event loop too busy to read the replies).
    const site: HoldSite = {
      ...proc.site,
      lockTtlMs: 300,
      queue: { ...proc.site.queue, extend: () => new Promise<boolean>(() => undefined) },
    };
    const conversation = newConversation();
    await proc.queue.offer(conversation, 'm1', entry(conversation, 'm1'), { claim: false });
    const hold = ConversationHold.take(site, conversation)!;
    await hold.claim();
    const answer = new AbortController();
    hold.keepAlive(answer);

    // Another process's sweep may have taken it over by now, unseen: the answer stops rather than risk two.
    await eventually(() => expect(answer.signal.reason).toBeInstanceOf(LockLostError));
    await hold.end();
    // Nobody took it: let go at once, so the next claim answers the message again.
    expect(proc.roundTrips.release).toBe(1);
    expect(await lockOf(conversation)).toBeNull();
    expect(await store.listLength(gatewayKeys.queue(conversation))).toBe(1);
  });

  it('Redis failing during a claim: the hold has no lock, and its slot still comes back', async () => {
    const broken = new RedisStateStore({ url: testRedisUrl(), prefix, checkSlots: true });
    await broken.close();
    const proc = gatewayProcess(1, broken);
    const hold = ConversationHold.take(proc.site, newConversation())!;

    await expect(hold.claim()).rejects.toThrow();
    await hold.end();
    expect(proc.roundTrips.release).toBe(0);
    expect(proc.slots.inUse).toBe(0);
  });

  it('Redis failing mid-answer: the lock is left to expire, no release is tried, and the slot still comes back', async () => {
    const failing = new RedisStateStore({ url: testRedisUrl(), prefix, checkSlots: true });
    const proc = gatewayProcess(1, failing);
    const conversation = newConversation();
    await proc.queue.offer(conversation, 'm1', entry(conversation, 'm1'), { claim: false });
    const hold = ConversationHold.take(proc.site, conversation)!;
    await hold.claim();
    hold.keepAlive(new AbortController());
    await failing.close();

    await expect(hold.advance([], false)).rejects.toThrow();
    hold.leaveLockUnrenewed();
    await hold.end();
    expect(proc.roundTrips.release).toBe(0);
    expect(proc.slots.inUse).toBe(0);
    // Still owned, no longer renewed: a sweep that sees it so for the lock's lifetime answers the message again.
    const owner = await lockOf(conversation);
    expect(owner).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, policy.heartbeatMs * 3));
    expect(await lockOf(conversation)).toBe(owner);
  });
});
