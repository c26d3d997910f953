import { afterEach, describe, expect, it } from 'vitest';
import { gatewayKeys, replies } from '../../../../src/gateway/index.js';
import { DEDUPE_TTL_MS } from '../../../../src/gateway/gateway-policy.js';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/recording-adapter.js';

describe('the conversation queue', () => {
  let harness: Harness;
  afterEach(() => harness.stop());

  it('answers a redelivered message once', async () => {
    harness = await startHarness();
    const { adapter } = harness;
    const message = adapter.inbound('c1', 'hello');
    await adapter.deliver(message);
    await adapter.deliver({ ...message });
    await eventually(() => expect(adapter.textsIn('c1')).toEqual(['You said: hello']));
    await adapter.say('c1', 'after');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual(['You said: hello', 'You said: after']));
    expect(harness.service.asks.map((ask) => ask.content)).toEqual(['hello', 'after']);
  });

  it("remembers a message id as long as its platform may redeliver it, when that is longer than the core's own dedupe TTL", async () => {
    const week = 7 * 24 * 60 * 60_000;
    harness = await startHarness({ capabilities: { redeliveryWindowMs: week } });
    const message = harness.adapter.inbound('c1', 'hello');
    await harness.adapter.deliver(message);
    const ttl = await harness.state.ttlMs(gatewayKeys.dedupe(message.conversation, message.platformMessageId));
    expect(ttl).toBeGreaterThan(DEDUPE_TTL_MS);
    expect(ttl).toBeLessThanOrEqual(week);
  });

  it('keeps its own dedupe TTL for a platform that redelivers for a shorter time', async () => {
    harness = await startHarness({ capabilities: { redeliveryWindowMs: 60_000 } });
    const message = harness.adapter.inbound('c1', 'hello');
    await harness.adapter.deliver(message);
    const ttl = await harness.state.ttlMs(gatewayKeys.dedupe(message.conversation, message.platformMessageId));
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(DEDUPE_TTL_MS);
  });

  it('answers messages that arrive during an answer next, in the order they were sent', async () => {
    harness = await startHarness();
    const { adapter, service } = harness;
    const release = service.hold();
    await adapter.say('c1', 'first');
    await eventually(() => expect(service.asks).toHaveLength(1));
    await adapter.say('c1', 'second');
    await adapter.say('c1', 'third');
    expect(adapter.textsIn('c1')).toEqual([]);
    release();
    await eventually(() =>
      expect(adapter.textsIn('c1')).toEqual(['You said: first', 'You said: second', 'You said: third']),
    );
  });

  it('answers different conversations independently', async () => {
    harness = await startHarness();
    const { adapter, service } = harness;
    const release = service.hold();
    await adapter.say('slow', 'held');
    await eventually(() => expect(service.asks).toHaveLength(1));
    release();
    await adapter.say('other', 'quick');
    await eventually(() => expect(adapter.textsIn('other')).toEqual(['You said: quick']));
    await eventually(() => expect(adapter.textsIn('slow')).toEqual(['You said: held']));
  });

  it('tells a user with a full queue to wait, and answers everything it queued', async () => {
    harness = await startHarness({ policy: { queueCap: 3 } });
    const { adapter, service, gateway } = harness;
    const release = service.hold();
    for (const text of ['one', 'two', 'three']) await adapter.say('c1', text);
    await adapter.say('c1', 'four');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.queueFull(3)]));
    release();
    await eventually(() =>
      expect(adapter.textsIn('c1')).toEqual([
        replies.queueFull(3),
        'You said: one',
        'You said: two',
        'You said: three',
      ]),
    );
    const transcript = await gateway.transcript.read(adapter.conversation('c1'));
    expect(transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text)).toEqual([
      'four',
      'one',
      'two',
      'three',
    ]);
  });

  it('ignores a group message that is not addressed to the bot', async () => {
    harness = await startHarness();
    const { adapter } = harness;
    await adapter.say('group', 'chatter between people', { isGroup: true, addressed: false });
    await adapter.say('group', '@bot a question', { isGroup: true, addressed: true });
    await eventually(() => expect(adapter.textsIn('group')).toEqual(['You said: @bot a question']));
    expect(harness.service.asks).toHaveLength(1);
  });

  it('keeps a message queued through a stop, and answers it after the next start', async () => {
    harness = await startHarness({ policy: { stopGraceMs: 50 } });
    const { adapter, service, gateway } = harness;
    const release = service.hold();
    await adapter.say('c1', 'interrupted');
    await eventually(() => expect(service.asks).toHaveLength(1));
    await gateway.stop();
    release();
    await gateway.start();
    await eventually(() => expect(adapter.textsIn('c1').at(-1)).toBe('You said: interrupted'));
    expect(service.asks.map((ask) => ask.content)).toEqual(['interrupted', 'interrupted']);
  });

  it('keeps the lock alive through an answer longer than the lock lifetime, so no other process answers it again', async () => {
    const fast = { lockTtlMs: 200, heartbeatMs: 50, sweepIntervalMs: 20 };
    harness = await startHarness({ policy: fast });
    const { adapter, service, state } = harness;
    const other = await startHarness({ policy: fast, state, service });
    try {
      const release = service.hold();
      await adapter.say('c1', 'a long question');
      await eventually(() => expect(service.asks).toHaveLength(1));
      // Several lock lifetimes pass while the other process sweeps for orphans.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      release();
      await eventually(() => expect(adapter.textsIn('c1')).toEqual(['You said: a long question']));
      expect(service.asks).toHaveLength(1);
      expect(other.adapter.textsIn('c1')).toEqual([]);
    } finally {
      await other.stop();
    }
  });

  it('records every exchange in the transcript, oldest first', async () => {
    harness = await startHarness();
    const { adapter, gateway } = harness;
    await adapter.say('c1', 'question');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    await eventually(async () => {
      const transcript = await gateway.transcript.read(adapter.conversation('c1'));
      expect(transcript.map(({ role, text }) => ({ role, text }))).toEqual([
        { role: 'user', text: 'question' },
        { role: 'bot', text: 'You said: question' },
      ]);
      expect(transcript[0]!.user).toEqual({ id: 'user-c1', name: 'User c1' });
    });
  });
});
