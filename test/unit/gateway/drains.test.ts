import { describe, expect, it } from 'vitest';
import { Drains } from '../../../src/gateway/drains.js';
import { gatewayKeys } from '../../../src/gateway/keys.js';
import { resolvePolicy } from '../../../src/gateway/policy.js';
import { ConversationQueue } from '../../../src/gateway/queue.js';
import type { ConversationRef } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { MemoryStateStore } from '../../../src/state/index.js';

const conversation: ConversationRef = { bot: 'main', platform: 'fakechat', id: 'c1' };

describe('Drains', () => {
  it('releases a lock its sweep claimed while the gateway was stopping, so another process answers at once', async () => {
    const state = new MemoryStateStore({ prefix: 'drains:' });
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
});
