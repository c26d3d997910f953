/**
 * A conversation that waited in line for a slot claims its lock in its first turn's
 * batch (drains.ts). That turn may outlive the lock's lifetime (a long answer); the
 * heartbeat renews the lock meanwhile, so nobody takes the conversation over and
 * answers its message a second time.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { HeldLink, startGatewayProcess, startServiceStack, type GatewayProcess, type ServiceStack } from '../stack.js';

/**
 * Lock timings short enough that an answer held for a few lifetimes is quick to test, and long
 * enough that a busy machine (the whole suite on 2 cores) never stalls a heartbeat past the
 * lifetime: with 600 ms the first conversation's lock once expired under load and a sweep
 * rightly took it over, which is not what this test is about.
 */
const POLICY = { lockTtlMs: 1_500, heartbeatMs: 200, sweepIntervalMs: 100, maxAnswersInFlight: 1 };

describe('an answer that outlives its lock lifetime (Redis, the real service)', () => {
  let stack: ServiceStack;
  let gateway: GatewayProcess | undefined;
  beforeEach(async () => {
    stack = await startServiceStack('gw-long-answer');
  });
  afterEach(async () => {
    await gateway?.stop();
    await stack.close();
  });

  it('keeps its conversation after waiting in line for a slot: each message is answered once', async () => {
    const link = new HeldLink(stack.client);
    gateway = await startGatewayProcess({ state: stack.store, upstream: link, policy: POLICY });
    const { adapter } = gateway;
    const releaseFirst = link.hold();
    await adapter.say('chat-1', 'Homes in Austin?');
    await eventually(() => expect(link.questions).toHaveLength(1));
    // The only slot is taken: chat-2 waits in line, holding no lock until its turn.
    await adapter.say('chat-2', 'Homes in Denver?');
    releaseFirst();
    const releaseSecond = link.hold();
    await eventually(() => expect(link.questions).toEqual(['Homes in Austin?', 'Homes in Denver?']));
    // The answer takes several lock lifetimes, and the user writes again meanwhile.
    await adapter.say('chat-2', 'And in Boulder?');
    await sleep(POLICY.lockTtlMs * 3);
    releaseSecond();

    await eventually(() => expect(adapter.textsIn('chat-2')).toHaveLength(2));
    await sleep(POLICY.lockTtlMs);
    expect(adapter.textsIn('chat-2')).toHaveLength(2);
    expect(link.questions).toEqual(['Homes in Austin?', 'Homes in Denver?', 'And in Boulder?']);
  });
});
