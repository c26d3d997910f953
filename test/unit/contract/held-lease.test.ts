/**
 * One holder of a lease across replicas (HeldLease in the contract's kit), as WhatsApp's browser
 * and a Telegram door's poller use it, on real Redis through the runtime's PlatformStorage: one
 * of two processes holds the lease and the other stands by; a stop gives it up and the standby
 * takes over; a holder whose lease was taken, or that cannot renew it before it may run out, is
 * told it lost it.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeldLease, type LeaseTimings, type PlatformStorage } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { platformKeyPrefix, platformStorage } from '../../../src/runtime/platform-storage.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { testRedisUrl } from '../../support/redis.js';

const NAME = 'poller';
/** Short enough that a takeover comes within a second or two. */
const QUICK: LeaseTimings = { ttlMs: 1_500, renewEveryMs: 500, retryEveryMs: 50 };
/** Outlasts any test: only a release lets another holder in. */
const LONG: LeaseTimings = { ttlMs: 120_000, renewEveryMs: 40_000, retryEveryMs: 50 };
const WAIT = { timeout: 10_000, interval: 20 };

/** Every replica's view of one Redis: stores under one private prefix (as replicas share a deployment's). */
const prefix = `cbtest:held-lease:${randomUUID().slice(0, 8)}:`;
const stores: RedisStateStore[] = [];
const leases: HeldLease[] = [];

function replicaStore(): RedisStateStore {
  const store = new RedisStateStore({ url: testRedisUrl(), prefix });
  stores.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(leases.splice(0).map((lease) => lease.stop()));
  const cleaner = new RedisStateStore({ url: testRedisUrl(), prefix });
  await cleaner.deleteByPrefix();
  await Promise.all([...stores.splice(0), cleaner].map((store) => store.close().catch(() => undefined)));
});

/** A replica's lease, writing what it is told into `log` as '<who> acquired|lost|standby'. */
function replica(who: string, log: string[], timings: LeaseTimings, storage?: PlatformStorage): HeldLease {
  const lease = new HeldLease({
    storage: storage ?? platformStorage(replicaStore(), 'test', 'main'),
    name: NAME,
    logger: silentLogger(),
    timings,
    events: {
      acquired: () => {
        log.push(`${who} acquired`);
      },
      lost: () => {
        log.push(`${who} lost`);
      },
      standby: () => {
        if (!log.includes(`${who} standby`)) log.push(`${who} standby`);
      },
    },
    words: { lease: 'the test lease', whenHeld: 'this replica holds it', whenLost: 'stopping', check: 'REDIS_URL' },
  });
  leases.push(lease);
  return lease;
}

describe('HeldLease: one holder across replicas', () => {
  it('lets one of two replicas hold the lease while the other stands by', async () => {
    const log: string[] = [];
    const first = replica('first', log, QUICK);
    first.start();
    await vi.waitFor(() => expect(first.held()).toBe(true), WAIT);
    const second = replica('second', log, QUICK);
    second.start();
    await vi.waitFor(() => expect(log).toContain('second standby'), WAIT);

    expect(second.held()).toBe(false);
    expect(log).toEqual(['first acquired', 'second standby']);
  });

  it('gives the lease up on stop, so that the standby takes over long before it would expire', async () => {
    const log: string[] = [];
    const first = replica('first', log, LONG);
    first.start();
    await vi.waitFor(() => expect(first.held()).toBe(true), WAIT);
    const second = replica('second', log, LONG);
    second.start();
    await vi.waitFor(() => expect(log).toContain('second standby'), WAIT);

    await first.stop();
    expect(first.held()).toBe(false);
    await vi.waitFor(() => expect(second.held()).toBe(true), WAIT);
    // A stop is not a loss: what the holder ran was stopped by its owner before.
    expect(log).toEqual(['first acquired', 'second standby', 'second acquired']);
  });

  it('tells the holder it lost the lease when it was deleted and taken by another replica', async () => {
    const log: string[] = [];
    const first = replica('first', log, QUICK);
    first.start();
    await vi.waitFor(() => expect(first.held()).toBe(true), WAIT);
    const second = replica('second', log, QUICK);
    second.start();
    await vi.waitFor(() => expect(log).toContain('second standby'), WAIT);

    // Someone removes the lease's key (an operator's FLUSHDB, a failover that lost it): the standby takes it.
    await replicaStore().del(`${platformKeyPrefix('test', 'main')}lease:${NAME}`);
    await vi.waitFor(() => expect(log).toContain('first lost'), WAIT);
    await vi.waitFor(() => expect(second.held()).toBe(true), WAIT);
    expect(first.held()).toBe(false);
  });

  it('tells a holder whose renewals the store does not answer that it lost the lease, before another replica can take it', async () => {
    const log: string[] = [];
    const cutOff = replicaStore();
    const first = replica('first', log, QUICK, platformStorage(cutOff, 'test', 'main'));
    first.start();
    await vi.waitFor(() => expect(first.held()).toBe(true), WAIT);
    const second = replica('second', log, QUICK);
    second.start();
    await vi.waitFor(() => expect(log).toContain('second standby'), WAIT);

    // The holder's connection is gone: its renewals fail, and the lease runs out in Redis.
    await cutOff.close();
    await vi.waitFor(() => expect(second.held()).toBe(true), WAIT);
    expect(first.held()).toBe(false);
    expect(log).toEqual(['first acquired', 'second standby', 'first lost', 'second acquired']);
  });
});
