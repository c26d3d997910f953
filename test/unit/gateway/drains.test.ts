import { describe, expect, it } from 'vitest';
import { Drains } from '../../../src/gateway/drain/drains.js';
import { gatewayKeys } from '../../../src/gateway/state-keys.js';
import { resolvePolicy } from '../../../src/gateway/gateway-policy.js';
import { ConversationQueue } from '../../../src/gateway/drain/conversation-queue.js';
import type { ConversationRef } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { MemoryStateStore, type HeadClaim } from '../../../src/state/index.js';

const conversation: ConversationRef = { bot: 'main', platform: 'fakechat', id: 'c1' };

describe('Drains', () => {
  it('releases a lock its sweep claimed while the gateway was stopping, so another process answers at once', async () => {
    const state = new MemoryStateStore({ prefix: 'drains:', checkSlots: true });
    const policy = resolvePolicy({});
    const queue = new ConversationQueue(state, policy);
    // A message queued by a holder that died: no lock, the conversation indexed as pending.
    await queue.offer(conversation, 'm1', JSON.stringify({ id: 'x', origin: 'o', acceptedAt: 0, inbound: { conversation, attachments: [] } }));
    await state.del(gatewayKeys.lock(conversation));

    let claimed!: () => void;
    const claimGate = new Promise<void>((resolve) => { claimed = resolve; });
    const slowQueue = Object.create(queue) as ConversationQueue;
    slowQueue.claim = async (c) => {
      const claim = await queue.claim(c);
      await claimGate;
      return claim;
    };
    const drains = new Drains({
      queue: slowQueue, policy, logger: silentLogger(), serves: () => true,
      handle: async () => ({ outcome: 'done', writes: [] }),
    });
    const sweeping = drains.sweep();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const stopping = drains.stop(10);
    claimed();
    expect(await sweeping).toBe(0);
    await stopping;
    expect(await state.get(gatewayKeys.lock(conversation))).toBeNull();
    expect(await state.listLength(gatewayKeys.queue(conversation))).toBe(1);
  });

  it('answers from the head that is first now when the one a waiting conversation knew was answered elsewhere', async () => {
    const state = new MemoryStateStore({ prefix: 'drains-head:', checkSlots: true });
    const policy = resolvePolicy({});
    const queue = new ConversationQueue(state, policy);
    const entry = (id: string) => JSON.stringify({ id, origin: 'o', acceptedAt: 0, inbound: { conversation, attachments: [] } });
    await queue.offer(conversation, 'm1', entry('m1'), { claim: false });
    await queue.offer(conversation, 'm2', entry('m2'), { claim: false });
    // Another process answers m1 while the conversation waits here, believing m1 is first.
    const elsewhere = (await queue.claim(conversation))!;
    await queue.advance(conversation, elsewhere.token, [], { letGo: true });

    const calls: { id: string; claimed: boolean }[] = [];
    let finished!: () => void;
    const done = new Promise<void>((resolve) => { finished = resolve; });
    const drains = new Drains({
      queue, policy, logger: silentLogger(), serves: () => true,
      // As the turn does: the claim rides on the first batch, and nothing runs when it misses.
      handle: async (message, _signal, claim) => {
        calls.push({ id: message.id, claimed: claim !== undefined });
        if (claim) {
          const [found] = (await state.atomic([claim])) as HeadClaim[];
          if (found!.outcome !== 'claimed') return { outcome: 'unclaimed', head: found!.outcome === 'other-head' ? found!.head : null };
        }
        return { outcome: 'done', writes: [] };
      },
      settled: () => finished(),
    });
    drains.enqueue(conversation, entry('m1'));
    await done;
    await drains.stop(1_000);
    expect(calls).toEqual([{ id: 'm1', claimed: true }, { id: 'm2', claimed: false }]);
    expect(await state.listLength(gatewayKeys.queue(conversation))).toBe(0);
    expect(await state.get(gatewayKeys.lock(conversation))).toBeNull();
  });
});
