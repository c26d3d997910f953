import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MemoryStateStore, RedisStateStore, type StateStore } from '../../../src/state/index.js';
import { NO_CLUSTER_REASON, testRedisClusterNodes, testRedisUrl, type TestTopology } from '../../support/redis.js';

/** Every message a listener heard, in order. */
function recorder(): { heard: string[]; listener: (message: string) => void } {
  const heard: string[] = [];
  return { heard, listener: (message) => heard.push(message) };
}

/**
 * One specification of publish/subscribe for every store. `peer` is another process's store on
 * the same state (for memory, the same store: memory state is not shared between processes).
 */
function pubsubContract(
  name: string,
  make: () => { store: StateStore; peer: StateStore; cleanup: () => Promise<void> },
) {
  describe(`StateStore pub/sub: ${name}`, () => {
    const { store, peer, cleanup } = make();
    afterAll(cleanup);

    // Not in order: on a Cluster each PUBLISH may enter at another node, so two in a row may arrive swapped.
    it('delivers a message to every listener of its channel, this process and the others', async () => {
      const here = recorder();
      const there = recorder();
      const unsubscribeHere = await store.subscribe('news', here.listener);
      const unsubscribeThere = await peer.subscribe('news', there.listener);
      await store.publish('news', 'one');
      await peer.publish('news', 'two');
      await vi.waitFor(() => expect(there.heard.toSorted()).toEqual(['one', 'two']));
      await vi.waitFor(() => expect(here.heard.toSorted()).toEqual(['one', 'two']));
      await unsubscribeHere();
      await unsubscribeThere();
    });

    it('keeps channels apart, and channels under another prefix', async () => {
      const news = recorder();
      const other = recorder();
      const stop = [
        await store.subscribe('apart:news', news.listener),
        await store.subscribe('apart:other', other.listener),
      ];
      await peer.publish('apart:other', 'for other');
      await vi.waitFor(() => expect(other.heard).toEqual(['for other']));
      await peer.publish('apart:news', 'for news');
      await vi.waitFor(() => expect(news.heard).toEqual(['for news']));
      // Both listen on one connection: had other heard news, it would have come with it.
      expect(other.heard).toEqual(['for other']);
      await Promise.all(stop.map((unsubscribe) => unsubscribe()));
    });

    it('stops telling a listener once it unsubscribed, and keeps telling the others', async () => {
      const leaving = recorder();
      const staying = recorder();
      const leave = await store.subscribe('leave', leaving.listener);
      const stay = await store.subscribe('leave', staying.listener);
      await peer.publish('leave', 'before');
      await vi.waitFor(() => expect(leaving.heard).toEqual(['before']));
      await leave();
      await leave();
      await peer.publish('leave', 'after');
      await peer.publish('leave', 'last');
      await vi.waitFor(() => expect(staying.heard.toSorted()).toEqual(['after', 'before', 'last']));
      expect(leaving.heard).toEqual(['before']);
      await stay();
    });

    it('subscribes again after the last listener left', async () => {
      const first = recorder();
      await (
        await store.subscribe('again', first.listener)
      )();
      const second = recorder();
      const stop = await store.subscribe('again', second.listener);
      await peer.publish('again', 'back');
      await vi.waitFor(() => expect(second.heard).toEqual(['back']));
      expect(first.heard).toEqual([]);
      await stop();
    });

    it('tells the other listeners when one throws', async () => {
      const heard = recorder();
      const stop = [
        await store.subscribe('throws', () => {
          throw new Error('listener broke');
        }),
        await store.subscribe('throws', heard.listener),
      ];
      // Memory: the publisher is the only one to tell; Redis: the store's connection-error report.
      await peer.publish('throws', 'still delivered').catch((error: unknown) => {
        expect(store.kind).toBe('memory');
        expect(String((error as AggregateError).errors[0])).toContain('listener broke');
      });
      await vi.waitFor(() => expect(heard.heard).toEqual(['still delivered']));
      await Promise.all(stop.map((unsubscribe) => unsubscribe()));
    });
  });
}

pubsubContract('memory', () => {
  const store = new MemoryStateStore({ prefix: 'test:' });
  return { store, peer: store, cleanup: () => store.close() };
});

/** Two processes' stores on one state: their own connections (named, to be found in CLIENT LIST), one prefix. */
function redisPair(topology: TestTopology): {
  store: RedisStateStore;
  peer: RedisStateStore;
  name: string;
  cleanup: () => Promise<void>;
} {
  const name = `pubsub-${randomUUID().slice(0, 8)}`;
  const prefix = `cbtest:${name}:`;
  const where =
    topology === 'cluster'
      ? { topology: { kind: 'cluster' as const, nodes: testRedisClusterNodes() } }
      : { url: testRedisUrl() };
  const store = new RedisStateStore({ ...where, prefix, connectionName: name });
  const peer = new RedisStateStore({ ...where, prefix, connectionName: `${name}-peer` });
  return { store, peer, name, cleanup: async () => void (await Promise.all([store.close(), peer.close()])) };
}

pubsubContract('redis', () => redisPair('single'));

describe('StateStore pub/sub on one Redis: the subscriber connection', () => {
  const { store, peer, name, cleanup } = redisPair('single');
  afterAll(cleanup);

  /** The ids of this store's subscriber connections (the pair is named uniquely: other tests' are never touched). */
  async function subscriberIds(admin: Redis): Promise<{ id: string; channels: number }[]> {
    const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
    return list
      .split('\n')
      .filter((line) => line.includes(` name=${name}:subscriber `))
      .map((line) => ({
        id: /\bid=(\d+)/.exec(line)![1]!,
        channels: Number(/\bsub=(\d+)/.exec(line)![1]),
      }));
  }

  it('reconnects, subscribes again and says so after its connection was killed', async () => {
    const heard = recorder();
    let resubscribed = 0;
    const stop = await store.subscribe('reconnect', heard.listener, { onResubscribed: () => resubscribed++ });
    const admin = new Redis(testRedisUrl());
    try {
      const before = await subscriberIds(admin);
      expect(before).toHaveLength(1);
      await admin.client('KILL', 'ID', before[0]!.id);
      await vi.waitFor(() => expect(resubscribed).toBe(1), { timeout: 10_000 });
      // The SUBSCRIBE sent on reconnect may still be on its way when ready is told: publish until it is heard.
      await vi.waitFor(
        async () => {
          await peer.publish('reconnect', 'after');
          expect(heard.heard).toContain('after');
        },
        { timeout: 10_000, interval: 100 },
      );
      expect((await subscriberIds(admin)).map((client) => client.id)).not.toContain(before[0]!.id);
    } finally {
      admin.disconnect();
      await stop();
    }
  });

  it('uses one subscriber connection however many channels and listeners', async () => {
    const stops = await Promise.all(
      Array.from({ length: 20 }, (_, index) => store.subscribe(`many:${index % 4}`, () => {})),
    );
    const admin = new Redis(testRedisUrl());
    try {
      expect((await subscriberIds(admin)).map((client) => client.channels)).toEqual([4]);
    } finally {
      admin.disconnect();
      await Promise.all(stops.map((stop) => stop()));
    }
  });
});

if (testRedisClusterNodes().length > 0) {
  pubsubContract('redis cluster', () => redisPair('cluster'));

  describe('StateStore pub/sub on a Redis Cluster: the subscriber connection', () => {
    const { store, peer, name, cleanup } = redisPair('cluster');
    afterAll(cleanup);

    it('hears the channel again after its subscriber connection was killed', async () => {
      const heard = recorder();
      const stop = await store.subscribe('moved', heard.listener);
      const admins = testRedisClusterNodes().map((node) => new Redis({ host: node.host, port: node.port }));
      try {
        let killed = 0;
        for (const admin of admins) {
          const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
          for (const line of list.split('\n').filter((entry) => entry.includes(` name=${name}:subscriber `))) {
            await admin.client('KILL', 'ID', /\bid=(\d+)/.exec(line)![1]!);
            killed++;
          }
        }
        expect(killed).toBe(1);
        await vi.waitFor(
          async () => {
            await peer.publish('moved', 'after');
            expect(heard.heard).toContain('after');
          },
          { timeout: 10_000, interval: 100 },
        );
      } finally {
        admins.forEach((admin) => admin.disconnect());
        await stop();
      }
    });
  });
} else {
  console.warn(`StateStore pub/sub: redis cluster skipped (${NO_CLUSTER_REASON})`);
  describe.skip(`StateStore pub/sub: redis cluster (${NO_CLUSTER_REASON})`, () => {
    it('runs against a Redis Cluster', () => undefined);
  });
}
