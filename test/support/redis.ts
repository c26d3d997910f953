import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { parseEndpoint, RedisStateStore, type RedisEndpoint } from '../../src/state/index.js';

/** The Redis URL the global setup found or started. */
export function testRedisUrl(): string {
  return inject('redisUrl');
}

/** The test cluster's nodes (REDIS_CLUSTER_NODES, or the one the global setup started); [] when there is none. */
export function testRedisClusterNodes(): RedisEndpoint[] {
  const nodes = inject('redisClusterNodes');
  return nodes
    ? nodes
        .split(',')
        .map((node) => parseEndpoint(node)!)
        .filter(Boolean)
    : [];
}

/** Why the cluster suites are skipped when the global setup has no cluster. */
export const NO_CLUSTER_REASON =
  'no Redis Cluster: set REDIS_CLUSTER_NODES or install redis-server with cluster support';

/** The topologies a suite can run against: one Redis, and a Redis Cluster when the global setup has one. */
export type TestTopology = 'single' | 'cluster';

export interface IsolatedRedisStoreOptions {
  topology?: TestTopology;
  /** Refuse atomic steps across slots (RedisStateOptions.checkSlots). */
  checkSlots?: boolean;
}

/**
 * A RedisStateStore under a private key prefix, so tests running in parallel
 * (and several helpers' runs on one machine) never see each other's keys.
 * Call `cleanup()` in afterAll/afterEach: it deletes the prefix and disconnects.
 */
export function isolatedRedisStore(
  label = 'test',
  options: IsolatedRedisStoreOptions = {},
): RedisStateStore & { cleanup(): Promise<void> } {
  const prefix = `cbtest:${label}:${randomUUID().slice(0, 8)}:`;
  const common = { prefix, ...(options.checkSlots !== undefined ? { checkSlots: options.checkSlots } : {}) };
  let store: RedisStateStore;
  if (options.topology === 'cluster') {
    const nodes = testRedisClusterNodes();
    if (nodes.length === 0) throw new Error(NO_CLUSTER_REASON);
    store = new RedisStateStore({ topology: { kind: 'cluster', nodes }, ...common });
  } else {
    store = new RedisStateStore({ url: testRedisUrl(), ...common });
  }
  const isolated = store as RedisStateStore & { cleanup(): Promise<void> };
  isolated.cleanup = async () => {
    await store.deleteByPrefix();
    await store.close();
  };
  return isolated;
}
