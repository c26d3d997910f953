/**
 * The core holds a message through a Redis outage for a platform that would not send it
 * again (the adapter declares `redeliversOnAcceptFailure: false`, as Telegram long polling
 * does), and lets accept() fail for one that would (a webhook answers 500 and is retried).
 * While it holds them, every user whose message waits is told once that the answer will come.
 * The process-level proofs are test/e2e/telegram/polling-redis-outage.test.ts and
 * test/e2e/whatsapp/redis-outage.test.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGateway, replies, type Gateway } from '../../../../src/gateway/index.js';
import { PatientSink, SinkClosedError } from '../../../../src/gateway/intake/patient-sink.js';
import { RedisStateStore } from '../../../../src/state/index.js';
import { startPrivateRedis, type PrivateRedis } from '../../../support/private-redis.js';
import { createMemoryAdapter, MemoryPlatform, type MemoryAdapter } from '../../../../fakes/memory/index.js';
import { startEchoService, upstreamClient } from '../../../support/scripted-service.js';

/** An adapter whose platform takes a message as delivered once received (long polling), or one that redelivers (webhook). */
function adapterOn(platform: MemoryPlatform, { redelivers }: { redelivers: boolean }): MemoryAdapter {
  return createMemoryAdapter({ platform, redeliversOnAcceptFailure: redelivers });
}

describe('a message accepted while Redis is unavailable', () => {
  let redis: PrivateRedis | undefined;
  let store: RedisStateStore | undefined;
  let gateway: Gateway | undefined;
  /** The gateway's warnings, one JSON line each. */
  let warnings: string[] = [];

  afterEach(async () => {
    redis?.thaw();
    await gateway?.stop();
    await store?.close();
    await redis?.close();
    redis = undefined;
    store = undefined;
    gateway = undefined;
    warnings = [];
  });

  async function start(adapter: MemoryAdapter): Promise<PrivateRedis> {
    redis = await startPrivateRedis();
    store = new RedisStateStore({ url: redis.url, prefix: 'patient:' });
    gateway = createGateway({
      state: store,
      upstream: upstreamClient(await startEchoService()),
      bots: [{ id: 'main', serialNumber: 'serial-1' }],
      adapters: [adapter],
      logger: pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) }),
      policy: { stopGraceMs: 1_000, burstMs: 0 },
    });
    await gateway.start();
    return redis;
  }

  it('is held by the core for a platform that does not redeliver, and answered once Redis is back', async () => {
    const platform = new MemoryPlatform();
    const redis = await start(adapterOn(platform, { redelivers: false }));
    await redis.stop();
    let settled = false;
    const accepted = platform.userSends('main', 'c1', 'hello through the outage').finally(() => {
      settled = true;
    });
    // Its queueing failed (the connection is refused), and it is still not given up: it is held.
    await vi.waitFor(() => expect(warnings.some((line) => line.includes('held in memory'))).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    expect(settled).toBe(false);
    await redis.start();
    await accepted;
    await vi.waitFor(() => expect(platform.textsIn('c1')).toEqual(['You said: hello through the outage']), {
      timeout: 30_000,
      interval: 20,
    });
  }, 60_000);

  it('fails accept() for a platform that redelivers, so the adapter can refuse the delivery', async () => {
    const platform = new MemoryPlatform();
    const redis = await start(adapterOn(platform, { redelivers: true }));
    await redis.stop();
    await expect(platform.userSends('main', 'c1', 'send me again')).rejects.toThrow();
  }, 60_000);

  it('gives up a held message when the gateway stops, without waiting for Redis', async () => {
    const platform = new MemoryPlatform();
    const redis = await start(adapterOn(platform, { redelivers: false }));
    redis.freeze();
    const accepted = platform.userSends('main', 'c1', 'still held at stop');
    const rejection = expect(accepted).rejects.toBeInstanceOf(SinkClosedError);
    const stopping = gateway!.stop();
    gateway = undefined;
    await stopping;
    await rejection;
  }, 60_000);
});

/** Short, so that the tests need not wait the production DELAY_NOTICE_AFTER_MS. */
const NOTICE_AFTER_MS = 300;

describe('the users whose messages wait while Redis is frozen', () => {
  let redis: PrivateRedis | undefined;
  let store: RedisStateStore | undefined;
  let gateway: Gateway | undefined;
  let patient: PatientSink | undefined;

  afterEach(async () => {
    redis?.thaw();
    patient?.close();
    await gateway?.stop();
    await store?.close();
    await redis?.close();
    redis = patient = store = gateway = undefined;
  });

  /**
   * The gateway on a private Redis, and a PatientSink of the test's own around its sink (the one
   * the core would hand a platform that does not redeliver), told after NOTICE_AFTER_MS.
   */
  async function start(
    heldMax?: number,
  ): Promise<{ platform: MemoryPlatform; redis: PrivateRedis; patient: PatientSink }> {
    const platform = new MemoryPlatform();
    const adapter = adapterOn(platform, { redelivers: true });
    redis = await startPrivateRedis();
    store = new RedisStateStore({ url: redis.url, prefix: 'patient:' });
    gateway = createGateway({
      state: store,
      upstream: upstreamClient(await startEchoService()),
      bots: [{ id: 'main', serialNumber: 'serial-1' }],
      adapters: [adapter],
      logger: pino({ level: 'silent' }),
      policy: { stopGraceMs: 1_000, burstMs: 0 },
    });
    await gateway.start();
    patient = new PatientSink(gateway.sink, {
      logger: pino({ level: 'silent' }),
      adapter,
      delayNoticeAfterMs: NOTICE_AFTER_MS,
      ...(heldMax ? { heldMax } : {}),
    });
    return { platform, redis, patient };
  }

  const notices = (platform: MemoryPlatform, chat: string) =>
    platform.textsIn(chat).filter((text) => text === replies.answerDelayed);

  it('tells each of them once, however many conversations wait at once, and answers them all once Redis is back', async () => {
    const { platform, redis, patient } = await start();
    const chats = ['c1', 'c2', 'c3', 'c4'];
    redis.freeze();
    const accepted = chats.map((chat) => patient.accept(platform.inbound('main', chat, `question from ${chat}`)));
    // c1 writes again while its first message waits: still one notice there.
    accepted.push(patient.accept(platform.inbound('main', 'c1', 'c1 again')));
    await vi.waitFor(() => expect(chats.filter((chat) => notices(platform, chat).length === 1)).toEqual(chats), {
      timeout: 30_000,
      interval: 20,
    });
    expect(patient.size).toBe(5);
    // Still frozen for a while longer: time for a second notice anywhere, were there to be one.
    await sleep(3 * NOTICE_AFTER_MS);

    redis.thaw();
    await Promise.all(accepted);
    for (const chat of chats.slice(1)) {
      await vi.waitFor(
        () => expect(platform.textsIn(chat)).toEqual([replies.answerDelayed, `You said: question from ${chat}`]),
        { timeout: 30_000, interval: 20 },
      );
    }
    await vi.waitFor(() => expect(platform.textsIn('c1')).toHaveLength(3), { timeout: 30_000, interval: 20 });
    const [notice, ...answers] = platform.textsIn('c1');
    expect(notice).toBe(replies.answerDelayed);
    // The sink queues held messages in no particular order within a conversation (the adapter hands one
    // chat's messages over one after the other); both are answered.
    expect(answers.sort()).toEqual(['You said: c1 again', 'You said: question from c1']);
  }, 60_000);

  it('tells a user whose message waits for room behind the most messages it holds, too', async () => {
    const { platform, redis, patient } = await start(2);
    const chats = ['c1', 'c2', 'c3'];
    redis.freeze();
    const accepted = chats.map((chat) => patient.accept(platform.inbound('main', chat, `question from ${chat}`)));
    await vi.waitFor(() => expect(chats.filter((chat) => notices(platform, chat).length === 1)).toEqual(chats), {
      timeout: 30_000,
      interval: 20,
    });
    // Backpressure still holds: the third is not held, it waits for room.
    expect(patient.size).toBe(2);

    redis.thaw();
    await Promise.all(accepted);
    for (const chat of chats) {
      await vi.waitFor(
        () => expect(platform.textsIn(chat)).toEqual([replies.answerDelayed, `You said: question from ${chat}`]),
        { timeout: 30_000, interval: 20 },
      );
    }
  }, 60_000);
});
