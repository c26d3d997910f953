import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEndpoint, RedisStateStore } from '../../../src/state/index.js';
import { startTestRedisSentinel, type TestRedisSentinel } from '../../support/redis-sentinel.js';

const keys = {
  queue: 'queue:{c1}:main:t:1',
  owners: 'queues:owners:{c1}',
  member: 'main:t:1',
};

/**
 * A primary killed mid-conversation: the store reconnects to the replica Sentinel promotes,
 * and every message whose offer was acknowledged is still queued, in order.
 */
describe('State store over Redis Sentinel', () => {
  let sentinel: TestRedisSentinel;
  let store: RedisStateStore;
  beforeAll(async () => {
    sentinel = await startTestRedisSentinel();
    store = new RedisStateStore({
      topology: { kind: 'sentinel', sentinels: sentinel.sentinels.map((s) => parseEndpoint(s)!), name: sentinel.name },
      prefix: `cbtest:sentinel:${randomUUID().slice(0, 8)}:`,
      checkSlots: true,
    });
  }, 30_000);
  afterAll(async () => {
    await store?.close();
    await sentinel?.close();
  });

  /** Offers one message; the entry when Redis acknowledged it, null when the offer failed (the caller would retry it). */
  async function offer(entry: string): Promise<string | null> {
    try {
      const result = await store.queueOffer(keys, entry, {
        dedupeKey: `dedupe:{c1}:${entry}`,
        dedupeTtlMs: 60_000,
        maxLength: 10_000,
        lockTtlMs: 60_000,
        claim: false,
      });
      return result.outcome === 'queued' ? entry : null;
    } catch {
      return null;
    }
  }

  it('keeps every acknowledged message, in order, through a failover', async () => {
    const acked: string[] = [];
    for (let index = 0; index < 20; index++) acked.push((await offer(`before-${index}`))!);
    expect(acked).not.toContain(null);
    // The conversation goes on, one message after the other, while its primary is killed and
    // Sentinel promotes the replica: the kill lands mid-stream; meanwhile an offer waits for the new primary or fails.
    let failedOver = false;
    const stream = (async () => {
      for (let index = 0; !failedOver; index++) {
        const entry = await offer(`during-${index}`);
        if (entry) acked.push(entry);
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const killed = await sentinel.killPrimary();
    const promoted = await sentinel.waitForFailover(killed);
    failedOver = true;
    await stream;
    expect(promoted).not.toBe(killed);
    for (let index = 0; index < 10; index++) {
      const entry = await offer(`after-${index}`);
      expect(entry).toBe(`after-${index}`);
      acked.push(entry!);
    }
    const queued = await store.listRange(keys.queue, 0, -1);
    // Every acknowledged message is there, in the order it was offered (an unacknowledged one may be there too).
    expect(queued.filter((entry) => acked.includes(entry))).toEqual(acked);
    expect(await store.describeConnection()).toMatch(new RegExp(`primary now 127\\.0\\.0\\.1:${promoted}$`));
  }, 60_000);
});
