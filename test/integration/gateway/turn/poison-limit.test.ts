/**
 * The poison-message limit (src/gateway/turn/poison-limit.ts) as a takeover meets it: a message whose turns were
 * cut off MAX_TURN_ATTEMPTS times leaves the queue with the reply that says so, and its count of turns leaves with
 * it (deleted by the turn that counted). Real service, real Redis.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationMember, gatewayKeys, replies } from '../../../../src/gateway/index.js';
import { MAX_TURN_ATTEMPTS } from '../../../../src/gateway/turn/poison-limit.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { HeldLink, startGatewayProcess, startServiceStack, type GatewayProcess, type ServiceStack } from '../stack.js';

describe('a message cut off in every attempt, taken over once more', () => {
  let stack: ServiceStack;
  let process: GatewayProcess | undefined;
  beforeEach(async () => {
    stack = await startServiceStack('gw-poison');
  });
  afterEach(async () => {
    await process?.stop();
    process = undefined;
    await stack.close();
  });

  it('leaves the queue with the poison reply, unasked, and its count of attempts is deleted with it', async () => {
    const link = new HeldLink(stack.client);
    process = await startGatewayProcess({
      state: stack.store,
      upstream: link,
      policy: { lockTtlMs: 1_000, heartbeatMs: 200, sweepIntervalMs: 100 },
    });
    const { adapter } = process;
    const conversation = adapter.conversation('c1');
    const attempts = gatewayKeys.attempts(conversation, 'poison-1');
    // A gone process holds the conversation (its owner never changes again), and every turn of the message so far was cut off.
    await stack.store.hashSet(gatewayKeys.owners(conversation), {
      [conversationMember(conversation)]: 'a-gone-process',
    });
    await stack.store.set(attempts, String(MAX_TURN_ATTEMPTS), { ttlMs: 60_000 });

    await adapter.say('c1', 'poison pill', { platformMessageId: 'poison-1' });
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.poisonMessage(MAX_TURN_ATTEMPTS)]));
    await eventually(async () => expect(await stack.store.listLength(gatewayKeys.queue(conversation))).toBe(0));
    expect(await stack.store.get(attempts)).toBeNull();
    expect(link.questions).toEqual([]);

    // The conversation goes on: the next message is answered.
    await adapter.say('c1', 'Homes in Austin?', { platformMessageId: 'next-1' });
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    expect(link.questions).toEqual(['Homes in Austin?']);
  });
});
