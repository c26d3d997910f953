import { afterAll, describe, expect, it } from 'vitest';
import { Drains, type HeadOrigin } from '../../../../src/gateway/drain/drains.js';
import { conversationMember, gatewayKeys } from '../../../../src/gateway/state-keys.js';
import { resolvePolicy } from '../../../../src/gateway/gateway-policy.js';
import { ConversationQueue } from '../../../../src/gateway/drain/conversation-queue.js';
import type { ConversationRef } from '../../../../src/contract.js';
import { silentLogger } from '../../../../src/logger.js';
import { MemoryStateStore, type HeadClaim, type StateStore } from '../../../../src/state/index.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../support/recording-adapter.js';

const conversation: ConversationRef = { bot: 'main', platform: 'fakechat', id: 'c1' };
/** The owner of a conversation's lock; null when nobody holds it (its field '' or absent). */
const ownerOf = async (state: StateStore, c: ConversationRef) =>
  (await state.hashGetAll(gatewayKeys.owners(c)))[conversationMember(c)] || null;

describe('Drains', () => {
  it('releases a lock its sweep claimed while the gateway was stopping, so another process answers at once', async () => {
    const state = new MemoryStateStore({ prefix: 'drains:', checkSlots: true });
    const policy = resolvePolicy({});
    const queue = new ConversationQueue(state, policy);
    // A message queued that nobody answers (its holder let go): indexed, owned by nobody.
    await queue.offer(
      conversation,
      'm1',
      JSON.stringify({ id: 'x', origin: 'o', acceptedAt: 0, inbound: { conversation, attachments: [] } }),
      { claim: false },
    );

    let claimed!: () => void;
    const claimGate = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    const slowQueue = Object.create(queue) as ConversationQueue;
    slowQueue.claim = async (c) => {
      const claim = await queue.claim(c);
      await claimGate;
      return claim;
    };
    const drains = new Drains({
      queue: slowQueue,
      policy,
      logger: silentLogger(),
      serves: () => true,
      handle: async () => ({ outcome: 'done', writes: [] }),
    });
    const sweeping = drains.sweep();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const stopping = drains.stop(10);
    claimed();
    expect(await sweeping).toBe(0);
    await stopping;
    expect(await ownerOf(state, conversation)).toBeNull();
    expect(await state.listLength(gatewayKeys.queue(conversation))).toBe(1);
  });

  it('tells each turn how its head came first: a takeover may follow turns cut off (again), the heads it advances to are new', async () => {
    const state = new MemoryStateStore({ prefix: 'drains-origin:', checkSlots: true });
    const policy = resolvePolicy({});
    const queue = new ConversationQueue(state, policy);
    const entry = (id: string) =>
      JSON.stringify({ id, origin: 'o', acceptedAt: 0, inbound: { conversation, attachments: [] } });
    // Queued while nobody answered (a holder cut off mid-answer of m1 let go): m1 and m2 wait.
    await queue.offer(conversation, 'm1', entry('m1'), { claim: false });
    await queue.offer(conversation, 'm2', entry('m2'), { claim: false });
    const origins: [string, HeadOrigin][] = [];
    let settled = 0;
    let finished!: () => void;
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const drains = new Drains({
      queue,
      policy,
      logger: silentLogger(),
      serves: () => true,
      handle: async (message, _signal, _claim, origin) => {
        origins.push([message.id, origin]);
        return { outcome: 'done', writes: [] };
      },
      settled: () => {
        if (++settled === 3) finished();
      },
    });
    expect(await drains.sweep()).toBe(1);
    // A message arriving to an empty queue, claimed by its arrival: new.
    await eventually(async () => expect(await state.listLength(gatewayKeys.queue(conversation))).toBe(0));
    const hold = drains.hold(conversation)!;
    const offered = await queue.offer(conversation, 'm3', entry('m3'));
    if (offered.outcome !== 'queued' || !offered.claim)
      throw new Error('the arrival should have claimed the empty queue');
    hold.claimed(offered.claim);
    await drains.start(hold, offered.claim.head, offered.length === 1 ? 'new' : 'again');
    await done;
    await drains.stop(1_000);
    expect(origins).toEqual([
      ['m1', 'again'],
      ['m2', 'new'],
      ['m3', 'new'],
    ]);
  });

  it('answers from the head that is first now when the one a waiting conversation knew was answered elsewhere', async () => {
    const state = new MemoryStateStore({ prefix: 'drains-head:', checkSlots: true });
    const policy = resolvePolicy({});
    const queue = new ConversationQueue(state, policy);
    const entry = (id: string) =>
      JSON.stringify({ id, origin: 'o', acceptedAt: 0, inbound: { conversation, attachments: [] } });
    await queue.offer(conversation, 'm1', entry('m1'), { claim: false });
    await queue.offer(conversation, 'm2', entry('m2'), { claim: false });
    // Another process answers m1 while the conversation waits here, believing m1 is first.
    const elsewhere = (await queue.claim(conversation))!;
    await queue.advance(conversation, elsewhere.token, [], { letGo: true });

    const calls: { id: string; claimed: boolean; origin: HeadOrigin }[] = [];
    let finished!: () => void;
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const drains = new Drains({
      queue,
      policy,
      logger: silentLogger(),
      serves: () => true,
      // As the turn does: the claim rides on the first batch, is told what it found, and nothing runs when it misses.
      handle: async (message, _signal, claim, origin) => {
        calls.push({ id: message.id, claimed: claim !== undefined, origin });
        if (claim) {
          const [found] = (await state.atomic([claim.command])) as HeadClaim[];
          claim.found(found!);
          if (found!.outcome !== 'claimed') return { outcome: 'unclaimed' };
        }
        return { outcome: 'done', writes: [] };
      },
      settled: () => finished(),
    });
    drains.enqueue(conversation, entry('m1'));
    await done;
    await drains.stop(1_000);
    // m2 was queued behind m1 while the lock was free: a turn of it may have started elsewhere (again).
    expect(calls).toEqual([
      { id: 'm1', claimed: true, origin: 'line' },
      { id: 'm2', claimed: false, origin: 'again' },
    ]);
    expect(await state.listLength(gatewayKeys.queue(conversation))).toBe(0);
    expect(await ownerOf(state, conversation)).toBeNull();
  });
});

describe('a drain gives back its slot and its lock once, whichever way it ends', () => {
  const store = isolatedRedisStore('drains-endings', { checkSlots: true });
  afterAll(() => store.cleanup());
  // Renewed often, so that a lost lock is noticed within the test's patience.
  const policy = resolvePolicy({ maxAnswersInFlight: 1, heartbeatMs: 50, lockTtlMs: 10_000 });
  const entry = (c: ConversationRef, id: string) =>
    JSON.stringify({ id, origin: 'o', acceptedAt: 0, inbound: { conversation: c, attachments: [] } });

  // 'claim missed': the claim rode on the first batch (the head was known); 'found held elsewhere': claimed alone from the line.
  type Ending =
    'answered' | 'cut off by a stop' | 'lock lost' | 'claim missed' | 'found held elsewhere' | 'Redis failing';
  const endings: Ending[] = [
    'answered',
    'cut off by a stop',
    'lock lost',
    'claim missed',
    'found held elsewhere',
    'Redis failing',
  ];
  const heldElsewhereFirst = (ending: Ending) => ending === 'claim missed' || ending === 'found held elsewhere';

  it.each(endings)(
    '%s: the conversations in line after it are answered, one at a time, by the one slot',
    async (ending) => {
      const id = (name: string): ConversationRef => ({ bot: 'main', platform: 'endings', id: `${ending}:${name}` });
      const [a, b, c] = [id('a'), id('b'), id('c')];
      const queue = new ConversationQueue(store, policy);
      // Another gateway process sharing the Redis.
      const elsewhere = new ConversationQueue(store, policy);
      const answered: string[] = [];
      let running = 0;
      let mostAtOnce = 0;
      let aStarted!: () => void;
      const aRunning = new Promise<void>((resolve) => {
        aStarted = resolve;
      });
      const untilAborted = (signal: AbortSignal) =>
        new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

      const drains = new Drains({
        queue,
        policy,
        logger: silentLogger(),
        serves: () => true,
        handle: async (message, signal, claim) => {
          mostAtOnce = Math.max(mostAtOnce, ++running);
          try {
            // As the turn's first batch does: the claim runs, is told what it found, and nothing runs when it misses.
            if (claim) {
              const [found] = (await store.batch([claim.command])) as [HeadClaim];
              claim.found(found);
              if (found.outcome !== 'claimed') return { outcome: 'unclaimed' };
            }
            if (message.inbound.conversation.id === a.id) {
              aStarted();
              if (ending === 'Redis failing') throw new Error('Connection is closed.');
              if (ending === 'lock lost') {
                // A frozen process: another's sweep saw its lock unrenewed and took the conversation over.
                await store.hashSet(gatewayKeys.owners(a), { [conversationMember(a)]: 'the-new-holder' });
              }
              if (ending !== 'answered') {
                await untilAborted(signal);
                return { outcome: 'aborted' };
              }
            }
            answered.push(message.inbound.conversation.id);
            return { outcome: 'done', writes: [] };
          } finally {
            running--;
          }
        },
      });

      await queue.offer(a, 'a1', entry(a, 'a1'), { claim: false });
      // Another process with a free slot takes the conversation while it waits in line here.
      const heldElsewhere = heldElsewhereFirst(ending) ? await elsewhere.claim(a) : null;
      if (ending === 'found held elsewhere') drains.enqueue(a);
      else drains.enqueue(a, entry(a, 'a1'));
      if (!heldElsewhereFirst(ending)) await aRunning;
      if (ending === 'cut off by a stop') {
        await drains.stop(10);
        drains.resume();
      }

      for (const next of [b, c]) {
        await queue.offer(next, 'm1', entry(next, 'm1'), { claim: false });
        drains.enqueue(next, entry(next, 'm1'));
      }
      await eventually(() => expect(answered).toEqual(expect.arrayContaining([b.id, c.id])));
      await eventually(() => expect(drains.size).toBe(0));
      expect(mostAtOnce).toBe(1);

      const lockOfA = await ownerOf(store, a);
      const queuedOfA = await store.listLength(gatewayKeys.queue(a));
      if (ending === 'answered') expect({ lockOfA, queuedOfA }).toEqual({ lockOfA: null, queuedOfA: 0 });
      // Let go at once: another process answers a's message now.
      if (ending === 'cut off by a stop') expect({ lockOfA, queuedOfA }).toEqual({ lockOfA: null, queuedOfA: 1 });
      if (ending === 'lock lost') expect(lockOfA).not.toBeNull();
      if (heldElsewhereFirst(ending))
        expect({ lockOfA, queuedOfA }).toEqual({ lockOfA: heldElsewhere!.token, queuedOfA: 1 });
      // Left as it is: a sweep that sees it unrenewed for the lock's lifetime answers a's message again.
      if (ending === 'Redis failing')
        expect({ locked: lockOfA !== null, queuedOfA }).toEqual({ locked: true, queuedOfA: 1 });
      await drains.stop(1_000);
    },
  );
});
