import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { RedisStateStore } from '../../src/state/redis.js';

/** The Redis URL the global setup found or started. */
export function testRedisUrl(): string {
  return inject('redisUrl');
}

/**
 * A RedisStateStore under a private key prefix, so tests running in parallel
 * (and several helpers' runs on one machine) never see each other's keys.
 * Call `cleanup()` in afterAll/afterEach: it deletes the prefix and disconnects.
 */
export function isolatedRedisStore(label = 'test'): RedisStateStore & { cleanup(): Promise<void> } {
  const prefix = `cbtest:${label}:${randomUUID().slice(0, 8)}:`;
  const store = new RedisStateStore({ url: testRedisUrl(), prefix }) as RedisStateStore & { cleanup(): Promise<void> };
  store.cleanup = async () => {
    await store.deleteByPrefix();
    await store.close();
  };
  return store;
}
