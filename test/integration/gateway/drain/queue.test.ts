import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replies } from '../../../../src/gateway/index.js';
import type { RedisStateStore } from '../../../../src/state/index.js';
import { MemoryPlatform } from '../../../../fakes/memory/index.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import {
  HeldLink,
  sameRedis,
  startGatewayProcess,
  startServiceStack,
  testTopologies,
  type GatewayProcess,
  type ServiceStack,
} from '../stack.js';

describe.each(testTopologies())('conversation queue on Redis (%s) with the real service', (topology) => {
  let stack: ServiceStack;
  const processes: GatewayProcess[] = [];
  const connections: RedisStateStore[] = [];
  beforeEach(async () => {
    stack = await startServiceStack('gw-queue', { topology });
  });
  afterEach(async () => {
    for (const process of processes.splice(0)) await process.stop();
    for (const connection of connections.splice(0)) await connection.close().catch(() => undefined);
    await stack.close();
  });
  const start = async (options: Parameters<typeof startGatewayProcess>[0]) => {
    const process = await startGatewayProcess(options);
    processes.push(process);
    return process;
  };
  const connection = () => {
    const created = sameRedis(stack.store);
    connections.push(created);
    return created;
  };

  it('answers a redelivered update once', async () => {
    const link = new HeldLink(stack.client);
    const { adapter, gateway } = await start({ state: stack.store, upstream: link });
    const update = adapter.inbound('chat-1', 'Homes in Austin?');
    await adapter.deliver(update);
    await adapter.deliver({ ...update });
    await eventually(() => expect(adapter.textsIn('chat-1')).toHaveLength(1));
    await adapter.say('chat-1', 'Anything in Denver?');
    await eventually(() => expect(adapter.textsIn('chat-1')).toHaveLength(2));
    expect(link.questions).toEqual(['Homes in Austin?', 'Anything in Denver?']);
    // The transcript is written with the queue's advance, just after the answer is on screen.
    await eventually(async () => {
      const transcript = await gateway.transcript.read(adapter.conversation('chat-1'));
      expect(transcript.map((entry) => entry.role)).toEqual(['user', 'bot', 'user', 'bot']);
    });
  });

  it('answers two messages sent during an answer after it, in order', async () => {
    const link = new HeldLink(stack.client);
    const { adapter, gateway } = await start({ state: stack.store, upstream: link });
    const release = link.hold();
    await adapter.say('chat-1', 'Homes in Austin?');
    await eventually(() => expect(link.questions).toHaveLength(1));
    await adapter.say('chat-1', 'And in Denver?');
    await adapter.say('chat-1', 'And in Portland?');
    release();
    await eventually(() => expect(adapter.textsIn('chat-1')).toHaveLength(3));
    expect(link.questions).toEqual(['Homes in Austin?', 'And in Denver?', 'And in Portland?']);
    await eventually(async () => {
      const transcript = await gateway.transcript.read(adapter.conversation('chat-1'));
      expect(transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text)).toEqual(link.questions);
      expect(transcript.map((entry) => entry.role)).toEqual(['user', 'bot', 'user', 'bot', 'user', 'bot']);
    });
  });

  it('two gateway processes sharing one Redis answer each message of a conversation exactly once, in order', async () => {
    const link = new HeldLink(stack.client);
    const screen = new MemoryPlatform({ name: 'fakechat' });
    const first = await start({ state: stack.store, upstream: link, screen });
    const second = await start({ state: connection(), upstream: link, screen });
    const release = link.hold();
    const questions = ['q1 Austin', 'q2 Denver', 'q3 Portland', 'q4 MLS', 'q5 rent', 'q6 sale'];
    for (const [index, text] of questions.entries()) {
      const process = index % 2 === 0 ? first : second;
      await process.adapter.say('shared', text, { platformMessageId: `m${index}` });
      if (index === 0) await eventually(() => expect(link.questions).toHaveLength(1));
    }
    release();
    await eventually(() => expect(screen.messagesIn('shared')).toHaveLength(questions.length));
    expect(link.questions).toEqual(questions);
    await eventually(async () => {
      const transcript = await first.gateway.transcript.read(first.adapter.conversation('shared'));
      expect(transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text)).toEqual(questions);
      expect(transcript.map((entry) => entry.role)).toEqual(questions.flatMap(() => ['user', 'bot']));
    });
  });

  it('a process that dies mid-answer is taken over by another once its lock expires', async () => {
    // Short enough to test quickly; long enough that the whole suite's load on 2 cores never stalls the
    // dying process's heartbeat past it before it dies (at 600 ms its own sweeps retook the conversation
    // and counted Austin's attempts up to the poison limit).
    const fast = { lockTtlMs: 1_500, heartbeatMs: 200, sweepIntervalMs: 100 };
    const dyingLink = new HeldLink(stack.client);
    dyingLink.hold();
    const dyingConnection = connection();
    const dying = await start({ state: dyingConnection, upstream: dyingLink, policy: fast });
    await dying.adapter.say('chat-9', 'Homes in Austin?', { platformMessageId: 'crash-1' });
    await eventually(() => expect(dyingLink.questions).toEqual(['Homes in Austin?']));
    await dying.adapter.say('chat-9', 'And in Denver?', { platformMessageId: 'crash-2' });
    // The process loses Redis for good (as if killed): no heartbeat, no release, no removal.
    await dyingConnection.close();

    const survivorLink = new HeldLink(stack.client);
    const survivor = await start({ state: stack.store, upstream: survivorLink, policy: fast });
    await eventually(() => expect(survivor.adapter.textsIn('chat-9')).toHaveLength(2));
    expect(survivorLink.questions).toEqual(['Homes in Austin?', 'And in Denver?']);
    expect(dying.adapter.textsIn('chat-9')).toEqual([]);
  });

  it('asks a user with a full queue to wait, across processes', async () => {
    const link = new HeldLink(stack.client);
    const policy = { queueCap: 2 };
    const first = await start({ state: stack.store, upstream: link, policy });
    const second = await start({ state: connection(), upstream: link, policy });
    const release = link.hold();
    await first.adapter.say('busy', 'one', { platformMessageId: 'b1' });
    await second.adapter.say('busy', 'two', { platformMessageId: 'b2' });
    await second.adapter.say('busy', 'three', { platformMessageId: 'b3' });
    await eventually(() => expect(second.adapter.textsIn('busy')).toEqual([replies.queueFull(2)]));
    release();
    await eventually(() => expect(link.questions).toEqual(['one', 'two']));
  });
});
