import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewayKeys, pendingMembers, replies, type UpstreamFailure } from '../../../../src/gateway/index.js';
import { monthOf } from '../../../../src/gateway/turn/allowance-step.js';
import { inflightIndexKey } from '../../../../src/gateway/relay/index.js';
import { allShardTags } from '../../../../src/state/slots.js';
import type { AtomicCommand, StateStore } from '../../../../src/state/index.js';
import { ChatbotServiceClient } from '../../../../src/upstream/index.js';
import type { ConversationRef } from '../../../../src/contract.js';
import type { Redis } from 'ioredis';
import { watchCommands } from '../../../support/redis-monitor.js';
import { eventually, pngAttachment } from '../../../unit/gateway/support/recording-adapter.js';
import {
  DEMO_SERIAL_NUMBER,
  HeldLink,
  SECRET,
  SESSION_KEY,
  startGatewayProcess,
  startServiceStack,
  type GatewayProcess,
  type ServiceStack,
} from '../stack.js';

const WELCOME = "Hi! I'm the Oakridge Homes assistant.";

describe('gateway features against the real service', () => {
  let stack: ServiceStack;
  let process: GatewayProcess | undefined;
  beforeEach(async () => {
    stack = await startServiceStack('gw-features');
  });
  afterEach(async () => {
    await process?.stop();
    process = undefined;
    await stack.close();
  });
  const start = async (options: Partial<Parameters<typeof startGatewayProcess>[0]> = {}) =>
    (process = await startGatewayProcess({ state: stack.store, upstream: stack.client, ...options }));

  it('/start greets with the WelcomeMessage and offers the suggestions', async () => {
    const { adapter } = await start({
      settings: {
        WelcomeMessage: WELCOME,
        SuggestedMessage: '3 bedroom homes in Austin|Rentals in Denver',
        UserInputPlaceholder: 'Ask about a home…',
      },
    });
    await adapter.say('c1', '/start');
    await eventually(() =>
      expect(adapter.messagesIn('c1')).toEqual([
        expect.objectContaining({
          text: WELCOME,
          suggestions: ['3 bedroom homes in Austin', 'Rentals in Denver'],
          inputPlaceholder: 'Ask about a home…',
        }),
      ]),
    );
  });

  it('/reset gives the conversation a new service session', async () => {
    const { adapter, gateway } = await start();
    const conversation = adapter.conversation('c1');
    await adapter.say('c1', 'Homes in Austin?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    const before = await gateway.sessions.get(conversation);
    expect(before).toBeTypeOf('number');
    await adapter.say('c1', '/reset');
    await eventually(async () => expect(await gateway.sessions.get(conversation)).toBeNull());
    await adapter.say('c1', 'Homes in Denver?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(3));
    const after = await eventually(async () => {
      const id = await gateway.sessions.get(conversation);
      expect(id).toBeTypeOf('number');
      return id;
    });
    expect(after).not.toBe(before);
  });

  it('keeps a session for gateway.sessionIdleTtlMs after the last message; once it expired, the next message gets a new one and is answered', async () => {
    const idleTtlMs = 60 * 60_000;
    const { adapter, gateway } = await start({ policy: { sessionIdleTtlMs: idleTtlMs } });
    const conversation = adapter.conversation('c1');
    const key = gatewayKeys.session(conversation);
    await adapter.say('c1', 'Homes in Austin?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    const first = await eventually(async () => {
      const id = await gateway.sessions.get(conversation);
      expect(id).toBeTypeOf('number');
      return id;
    });
    expect(await stack.store.ttlMs(key)).toBeGreaterThan(idleTtlMs - 60_000);

    // Most of its idle time gone: the next message renews it, with the same session.
    await stack.store.expire(key, 5_000);
    await adapter.say('c1', 'Any with a garden?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    await eventually(async () => expect(await stack.store.ttlMs(key)).toBeGreaterThan(idleTtlMs - 60_000));
    expect(await gateway.sessions.get(conversation)).toBe(first);

    // Idle past its time: Redis forgets it, and the conversation starts afresh without the user noticing.
    await stack.store.expire(key, 1);
    await eventually(async () => expect(await gateway.sessions.get(conversation)).toBeNull());
    await adapter.say('c1', 'Homes in Denver?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(3));
    const renewed = await eventually(async () => {
      const id = await gateway.sessions.get(conversation);
      expect(id).toBeTypeOf('number');
      return id;
    });
    expect(renewed).not.toBe(first);
    expect(adapter.textsIn('c1').at(-1)).not.toBe(replies.internalError);
  });

  it("/listings pages through the chatbot's listings with Next and Previous buttons", async () => {
    const { adapter } = await start();
    const total = (await stack.client.listListings({ SerialNumber: DEMO_SERIAL_NUMBER, PageSize: 100 })).VirtualCount;
    expect(total).toBeGreaterThan(5);
    await adapter.say('c1', '/listings');
    const first = await eventually(() => {
      const [message] = adapter.messagesIn('c1');
      expect(message?.buttons).toEqual([{ label: 'Next »', value: 'listings:2:' }]);
      return message!;
    });
    expect(first.text).toContain(`page 1 of 2 (${total} in all)`);
    await adapter.say('c1', '', { action: { id: 'tap', value: 'listings:2:' } });
    const second = await eventually(() => {
      const message = adapter.messagesIn('c1')[1];
      expect(message?.text).toContain('page 2 of 2');
      return message!;
    });
    expect(second.buttons).toEqual([{ label: '« Previous', value: 'listings:1:' }]);
    await adapter.say('c1', '/listings Denver');
    await eventually(() => expect(adapter.textsIn('c1')[2]).toMatch(/Listings in Denver · page 1 of 1/));
    expect(adapter.textsIn('c1')[2]).not.toContain('Austin');
  });

  it('replies the RateLimitMessage when a user sends more than RateLimitCount in the window', async () => {
    const { adapter, gateway } = await start({
      settings: { RateLimitCount: 1, RateLimitTime: 60, RateLimitMessage: 'Slow down a little, please.' },
    });
    await adapter.say('c1', 'Homes in Austin?');
    await adapter.say('c1', 'And Denver?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    expect(adapter.textsIn('c1')[1]).toBe('Slow down a little, please.');
    await eventually(async () => {
      const transcript = await gateway.transcript.read(adapter.conversation('c1'));
      expect(transcript.at(-2)).toMatchObject({ role: 'user', text: 'And Denver?' });
    });
  });

  it("commands use none of the rate allowance or the month's MessageLimit (reserved as a turn starts, given back)", async () => {
    const { adapter } = await start({
      settings: {
        RateLimitCount: 1,
        RateLimitTime: 60,
        RateLimitMessage: 'Slow down a little, please.',
        MessageLimit: 1,
      },
    });
    await adapter.say('c1', '/help');
    await adapter.say('c1', '/help');
    await adapter.say('c1', 'Homes in Austin?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(3));
    expect(adapter.textsIn('c1')[2]).not.toBe('Slow down a little, please.');
    expect(adapter.textsIn('c1')[2]).not.toBe(replies.monthlyLimit);
    await adapter.say('c1', 'And Denver?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(4));
    expect(adapter.textsIn('c1')[3]).toBe('Slow down a little, please.');
  });

  it("with no MessageLimit, counts the month's answered messages all the same, written within a second (a limit set later counts them)", async () => {
    const monthlyKey = gatewayKeys.monthly(DEMO_SERIAL_NUMBER, monthOf(new Date(), undefined));
    const before = Number((await stack.store.get(monthlyKey)) ?? 0);
    const { adapter } = await start();
    await adapter.say('c1', 'Homes in Austin?');
    await adapter.say('c2', 'Homes in Denver?');
    await adapter.say('c1', '/help');
    await eventually(() => expect(adapter.textsIn('c1').length + adapter.textsIn('c2').length).toBe(3));
    // The two answers, not the command.
    await eventually(async () => expect(Number(await stack.store.get(monthlyKey)) - before).toBe(2));
  });

  it('refuses an image when the chatbot does not accept uploads, without asking the service', async () => {
    const link = new HeldLink(stack.client);
    const { adapter } = await start({ upstream: link, settings: { EnableUploadImage: false } });
    await adapter.say('c1', 'Is this house nice?', { attachments: [pngAttachment()] });
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    expect(adapter.textsIn('c1')[0]).toMatch(/photo|image/i);
    expect(link.questions).toEqual([]);
  });

  it('uploads an image and asks in Image mode when the chatbot accepts images', async () => {
    await stack.client.edit({ serialNumber: DEMO_SERIAL_NUMBER, EnableUploadImage: true });
    const link = new HeldLink(stack.client);
    const { adapter } = await start({ upstream: link, settings: { EnableUploadImage: true } });
    await adapter.say('c1', 'Is this house nice?', { attachments: [pngAttachment()] });
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    expect(link.questions).toEqual(['Is this house nice?']);
    expect(adapter.textsIn('c1')[0]).not.toBe(replies.upstreamRefused);
  });

  it('apologises when the service cannot be reached past the horizon, and tells its listeners of each failed message', async () => {
    const unreachable = new ChatbotServiceClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      secretKey: SECRET,
      sessionKey: SESSION_KEY,
      retries: 0,
    });
    // Horizon 0: no waiting for the service, each message is given up at once.
    const { adapter, gateway } = await start({ upstream: unreachable, policy: { upstreamOutageHorizonMs: 0 } });
    const failures: UpstreamFailure[] = [];
    gateway.events.on('upstreamFailure', (failure) => {
      failures.push(failure);
    });
    await adapter.say('c1', 'Homes in Austin?');
    await adapter.say('c1', 'Hello?');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.upstreamDown, replies.upstreamDown]));
    // The event follows the apology: it may land just after the second one is shown.
    await eventually(() => expect(failures).toHaveLength(2));
    await eventually(async () => {
      const transcript = await gateway.transcript.read(adapter.conversation('c1'));
      expect(transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text)).toEqual([
        'Homes in Austin?',
        'Hello?',
      ]);
    });
  });

  it('uses 3 Redis calls, one after another, for an answered message of a known conversation', async () => {
    const calls: string[] = [];
    const firstBatch: AtomicCommand[][] = [];
    const counted = countingStore(stack.store, calls, firstBatch);
    const { adapter } = await start({ state: counted, policy: { sweepIntervalMs: 3_600_000 } });
    await adapter.say('c1', 'Homes in Austin?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
    await idle(stack.store);
    calls.length = 0;
    firstBatch.length = 0;

    const second = await adapter.say('c1', 'Any with 3 bedrooms?');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    await idle(stack.store);
    // queueOffer, the turn's first batch (+ settings when the 5 s cache expired) and queueAdvance with
    // the transcript and counters; an answer sent whole leaves no in-flight record to write. The first
    // batch is one call (turn/first-batch.ts): the conversation's keys and the chatbot's counter, with no
    // claim riding on it, so no MULTI around them (a pipeline).
    // Not the turn's: the settings read when the 5 s cache expired, and the month's count, written once a second (month-tally.ts).
    expect(
      calls.filter((call) => call !== 'hashGetAll' && call !== 'incr'),
      calls.join(', '),
    ).toEqual(['queueOffer', 'pipeline', 'queueAdvance']);
    // The message found its queue empty: no turn of it can have been cut off before, so neither the count of
    // attempts nor the answers left half-shown are looked for; the session is read, the month counted.
    const conversation = adapter.conversation('c1');
    expect(firstBatch).toHaveLength(1);
    expect(firstBatch[0]!.map((c) => c.key)).not.toContain(
      gatewayKeys.attempts(conversation, second.platformMessageId),
    );
    expect(firstBatch[0]!.map((c) => c.op)).not.toContain('setMembers');
    expect(firstBatch[0]!.filter((c) => c.op === 'get').map((c) => c.key)).toEqual([gatewayKeys.session(conversation)]);
    // With no MessageLimit nothing is checked against the month's count: it is not in the batch (an answer adds to it later).
    expect(firstBatch[0]!.map((c) => c.key).filter((key) => key.startsWith('monthly:'))).toEqual([]);
    console.info(`Redis round trips for one answered message: ${calls.length} (${calls.join(', ')})`);
  });

  it('deletes nothing but its lock for an answered message of a known conversation, as Redis counts commands', async () => {
    const { prefix } = stack.store;
    const watch = await watchCommands(prefix);
    try {
      const { adapter } = await start({ policy: { sweepIntervalMs: 3_600_000 } });
      const conversation = adapter.conversation('c1');
      await adapter.say('c1', 'Homes in Austin?');
      await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
      await written(watch.reader, prefix, conversation);
      await watch.reset();

      await adapter.say('c1', 'Any with 3 bedrooms?');
      await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
      await written(watch.reader, prefix, conversation);
      const commands = await watch.seen();
      // The message found its queue empty: no turn of it came before, so none left a count of attempts or a wait for
      // the service to delete, and the core keeps no count of upstream failures. The lock goes when the queue is empty.
      const deleted = commands.filter(([name]) => name === 'DEL' || name === 'UNLINK').flatMap(([, ...keys]) => keys);
      expect(deleted.filter((key) => key !== prefix + gatewayKeys.lock(conversation))).toEqual([]);
      // The answer did run (the advance's script and what it ran are seen): the watch is not blind.
      expect(commands.map(([name]) => name)).toContain('LPOP');
      console.info(
        `Redis commands run for one answered message (and a once-a-second month tally, when one fell in): ${commands.length}`,
        `(${commands.map(([name]) => name).join(', ')})`,
      );
    } finally {
      await watch.close();
    }
  });
});

/**
 * Waits until the conversation's queue is empty and its lock released (its last answer fully written), reading through
 * `reader` (a connection whose commands the watch does not count).
 */
async function written(reader: Redis, prefix: string, conversation: ConversationRef): Promise<void> {
  await eventually(async () =>
    expect(await reader.exists(prefix + gatewayKeys.queue(conversation), prefix + gatewayKeys.lock(conversation))).toBe(
      0,
    ),
  );
}

/** Counts every StateStore call: each is one Redis round trip (see src/state/types.ts). The commands of each pipeline go to `pipelines`. */
function countingStore(store: StateStore, calls: string[], pipelines: AtomicCommand[][] = []): StateStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof property === 'string' && !['close', 'ping'].includes(property)) calls.push(property);
        if (property === 'pipeline') pipelines.push([...(args[0] as AtomicCommand[])]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Waits until the conversation's answer is fully written (the queue is empty and unlocked). */
async function idle(store: StateStore): Promise<void> {
  await eventually(async () => {
    expect(await pendingMembers(store)).toEqual([]);
    const inflight = await Promise.all(
      allShardTags().map((tag) => store.sortedRangeByScore(inflightIndexKey(tag), 0, Number.MAX_SAFE_INTEGER)),
    );
    expect(inflight.flat()).toEqual([]);
  });
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
