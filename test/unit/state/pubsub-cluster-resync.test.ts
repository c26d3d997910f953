/**
 * After its subscription was lost, a subscriber on a Redis Cluster is told to read again (onResubscribed), as on
 * one Redis: messages published meanwhile were missed. So the inbox's open pages catch up after a Redis outage on
 * a Cluster too (the feed's resync). Against the real test cluster; the subscriber's connection is cut by CLIENT KILL
 * on the node that holds it (its name is the store's, so other tests' connections are never touched).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onFeedResync, startInboxFeed } from '../../../src/handoff/inbox/live/feed.js';
import { silentLogger } from '../../../src/logger.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { NO_CLUSTER_REASON, testRedisClusterNodes } from '../../support/redis.js';

const skip = testRedisClusterNodes().length === 0;

describe.skipIf(skip)(
  `pub/sub on a Redis Cluster after its subscription was lost${skip ? ` — skipped: ${NO_CLUSTER_REASON}` : ''}`,
  () => {
    const stores: RedisStateStore[] = [];
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((store) => store.close()));
    });

    /** This process's store and another's, on the test cluster under one private prefix; `name` names their connections. */
    const pair = () => {
      const name = `resync-${randomUUID().slice(0, 8)}`;
      const where = {
        topology: { kind: 'cluster' as const, nodes: testRedisClusterNodes() },
        prefix: `cbtest:${name}:`,
      };
      const store = new RedisStateStore({ ...where, connectionName: name });
      const peer = new RedisStateStore({ ...where, connectionName: `${name}-peer` });
      stores.push(store, peer);
      return { store, peer, name };
    };

    /** A CLIENT LIST line of the store's subscriber: its own connection, or the ioredis Cluster's subscriber named after it. */
    const isSubscriberOf = (name: string, entry: string) =>
      entry.includes(` name=${name}:subscriber `) || entry.includes(` name=ioredis-cluster(subscriber):${name} `);

    /** Kills the store's subscriber connection wherever in the cluster it is; how many were killed. */
    const killSubscriber = async (name: string): Promise<number> => {
      let killed = 0;
      for (const node of testRedisClusterNodes()) {
        const admin = new Redis({ host: node.host, port: node.port });
        try {
          const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
          for (const line of list.split('\n').filter((entry) => isSubscriberOf(name, entry))) {
            await admin.client('KILL', 'ID', /\bid=(\d+)/.exec(line)![1]!);
            killed++;
          }
        } finally {
          admin.disconnect();
        }
      }
      return killed;
    };

    it('tells the subscriber to read again once subscribed again, and delivers what is published after', async () => {
      const { store, peer, name } = pair();
      const heard: string[] = [];
      let resubscribed = 0;
      await store.subscribe('changes', (message) => heard.push(message), { onResubscribed: () => resubscribed++ });
      await vi.waitFor(async () => {
        await peer.publish('changes', 'before');
        expect(heard).toContain('before');
      });
      expect(resubscribed).toBe(0);

      expect(await killSubscriber(name)).toBe(1);
      await vi.waitFor(() => expect(resubscribed).toBe(1), { timeout: 10_000 });
      await vi.waitFor(
        async () => {
          await peer.publish('changes', 'after');
          expect(heard).toContain('after');
        },
        { timeout: 10_000, interval: 100 },
      );
      expect(resubscribed).toBe(1);
    });

    it('resyncs the inbox feed, so that every open inbox page reads again', async () => {
      const { store, name } = pair();
      const feed = await startInboxFeed({ state: store, logger: silentLogger() });
      let resyncs = 0;
      onFeedResync(feed, () => resyncs++);
      try {
        expect(await killSubscriber(name)).toBe(1);
        await vi.waitFor(() => expect(resyncs).toBe(1), { timeout: 10_000 });
      } finally {
        await feed.close();
      }
    });
  },
);
