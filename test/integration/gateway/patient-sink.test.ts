/**
 * The core holds a message through a Redis outage for a platform that would not send it
 * again (the adapter declares `redeliversOnAcceptFailure: false`, as Telegram long polling
 * does), and lets accept() fail for one that would (a webhook answers 500 and is retried).
 * The process-level proof with Telegram is test/e2e/telegram-polling-redis-outage.test.ts.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGateway, type Gateway } from '../../../src/gateway/index.js';
import { SinkClosedError } from '../../../src/gateway/patient-sink.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.js';
import { createMemoryAdapter, MemoryPlatform, type MemoryAdapter } from '../../../adapters/memory/index.js';
import { FakeChatbotService } from '../../unit/gateway/support/fake-service.js';

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
      state: store, upstream: new FakeChatbotService(), bots: [{ id: 'main', serialNumber: 'serial-1' }],
      adapters: [adapter], logger: pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) }), policy: { stopGraceMs: 1_000 },
    });
    await gateway.start();
    return redis;
  }

  it('is held by the core for a platform that does not redeliver, and answered once Redis is back', async () => {
    const platform = new MemoryPlatform();
    const redis = await start(adapterOn(platform, { redelivers: false }));
    await redis.stop();
    let settled = false;
    const accepted = platform.userSends('main', 'c1', 'hello through the outage').finally(() => { settled = true; });
    // Its queueing failed (the connection is refused), and it is still not given up: it is held.
    await vi.waitFor(() => expect(warnings.some((line) => line.includes('held in memory'))).toBe(true), { timeout: 30_000, interval: 20 });
    expect(settled).toBe(false);
    await redis.start();
    await accepted;
    await vi.waitFor(() => expect(platform.textsIn('c1')).toEqual(['You said: hello through the outage']), { timeout: 30_000, interval: 20 });
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
