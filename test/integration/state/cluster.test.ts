import { afterAll, describe, expect, it } from 'vitest';
import { allShardTags } from '../../../src/state/slots.js';
import { isolatedRedisStore, NO_CLUSTER_REASON, testRedisClusterNodes } from '../../support/redis.js';

const hasCluster = testRedisClusterNodes().length > 0;
if (!hasCluster) console.warn(`State store on a Redis Cluster: skipped (${NO_CLUSTER_REASON})`);

describe.skipIf(!hasCluster)('State store on a Redis Cluster', () => {
  const store = hasCluster ? isolatedRedisStore('state-cluster', { topology: 'cluster', checkSlots: true }) : undefined;
  afterAll(async () => store?.cleanup());

  /** How many of the store's keys each master holds, asked of the masters themselves. */
  async function keysPerMaster(): Promise<number[]> {
    return Promise.all(
      store!.clusterClient!.nodes('master').map(async (node) => {
        let count = 0;
        let cursor = '0';
        do {
          const [next, keys] = await node.scan(cursor, 'MATCH', `${store!.prefix}*`, 'COUNT', 500);
          cursor = next;
          count += keys.length;
        } while (cursor !== '0');
        return count;
      }),
    );
  }

  it('deletes the keys of every shard, on every master, by prefix', async () => {
    await store!.batch(allShardTags().map((tag) => ({ op: 'set' as const, key: `conv:${tag}:x`, value: '1' })));
    const before = await keysPerMaster();
    // The shards are spread over all masters: a delete that scanned only one would leave keys behind.
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(before.every((count) => count > 0)).toBe(true);
    expect(before.reduce((sum, count) => sum + count, 0)).toBe(256);
    expect(await store!.deleteByPrefix('conv:')).toBe(256);
    expect(await keysPerMaster()).toEqual(before.map(() => 0));
  });

  it.each([false, true])(
    'runs a conversation queue step under one shard tag as one script (older layout kept beside: %s)',
    async (keepLegacy) => {
      const tag = allShardTags()[17]!;
      const keys = {
        queue: `queue:${tag}:main:t:1`,
        owners: `queues:owners:${tag}`,
        member: 'main:t:1',
        ...(keepLegacy ? { legacy: { lock: `lock:${tag}:main:t:1`, pending: `queues:pending:${tag}` } } : {}),
      };
      const offered = await store!.queueOffer(keys, 'hello', {
        dedupeKey: `dedupe:${tag}:${keepLegacy}`,
        dedupeTtlMs: 60_000,
        maxLength: 5,
        lockTtlMs: 5_000,
      });
      expect(offered).toMatchObject({ outcome: 'queued', claim: { head: 'hello' } });
      const token = offered.outcome === 'queued' ? offered.claim!.token : '';
      expect(
        await store!.queueAdvance(keys, token, 5_000, [
          { op: 'listPush', key: `transcript:${tag}:main:t:${keepLegacy}`, values: ['hello'] },
        ]),
      ).toEqual({ owned: true, next: null });
      expect(await store!.listRange(`transcript:${tag}:main:t:${keepLegacy}`, 0, -1)).toEqual(['hello']);
      expect(await store!.hashGetAll(keys.owners)).toEqual({});
      if (keys.legacy) expect(await store!.setMembers(keys.legacy.pending)).toEqual([]);
    },
  );

  it('describes the cluster it is connected to', async () => {
    expect(await store!.describeConnection()).toMatch(/^cluster_state:ok, \d+ master\(s\): /);
  });
});
