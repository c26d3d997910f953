import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStateStore, type AtomicCommand, type StateStore } from '../../../src/state/index.js';
import { slotOf } from '../../../src/state/slots.js';
import { isolatedRedisStore, NO_CLUSTER_REASON, testRedisClusterNodes } from '../../support/redis.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/*
 * Keys of one atomic step share a hash tag (`{t}` here), as on a Redis Cluster: every store
 * below refuses an atomic step across slots (checkSlots), so the specification itself keeps
 * to the rule it states.
 */

/** One specification, three stores: the memory store and a Redis Cluster must behave like one Redis. */
function stateContract(name: string, make: () => StateStore & { cleanup?: () => Promise<void> }) {
  describe(`StateStore contract: ${name}`, () => {
    const store = make();
    beforeEach(async () => {
      await store.deleteByPrefix();
    });
    afterAll(async () => {
      if (store.cleanup) await store.cleanup();
      else await store.close();
    });

    it('stores, reads and deletes strings, with getMany keeping order', async () => {
      await store.set('a', '1');
      await store.set('b', '2');
      expect(await store.get('a')).toBe('1');
      expect(await store.getMany(['b', 'missing', 'a'])).toEqual(['2', null, '1']);
      expect(await store.del('a', 'missing')).toBe(1);
      expect(await store.get('a')).toBeNull();
    });

    it('expires keys after their ttl and reports the remaining ttl', async () => {
      await store.set('short', 'x', { ttlMs: 60 });
      await store.set('forever', 'y');
      const ttl = await store.ttlMs('short');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60);
      expect(await store.ttlMs('forever')).toBe(-1);
      expect(await store.ttlMs('none')).toBe(-2);
      await sleep(100);
      expect(await store.get('short')).toBeNull();
    });

    it('setIfAbsent creates once (dedupe)', async () => {
      expect(await store.setIfAbsent('dedupe', '1', 10_000)).toBe(true);
      expect(await store.setIfAbsent('dedupe', '2', 10_000)).toBe(false);
      expect(await store.get('dedupe')).toBe('1');
    });

    it('keeps bytes as they are, every byte value included, and gives back a copy', async () => {
      const bytes = Uint8Array.from({ length: 512 }, (_, index) => index % 256);
      await store.setBytes('blob', bytes);
      const back = await store.getBytes('blob');
      expect(back && Array.from(back)).toEqual(Array.from(bytes));
      back![0] = 99;
      expect((await store.getBytes('blob'))![0]).toBe(0);
      expect(await store.getBytes('no-blob')).toBeNull();
      expect(await store.del('blob')).toBe(1);
      expect(await store.getBytes('blob')).toBeNull();
    });

    it('lets bytes expire after their ttl', async () => {
      await store.setBytes('short-blob', new Uint8Array([1, 2]), { ttlMs: 60 });
      await store.setBytes('kept-blob', new Uint8Array([3]));
      expect(await store.ttlMs('kept-blob')).toBe(-1);
      await sleep(120);
      expect(await store.getBytes('short-blob')).toBeNull();
      expect(Array.from((await store.getBytes('kept-blob'))!)).toEqual([3]);
    });

    it('incr counts and gives a fresh counter its window, not an existing one', async () => {
      expect(await store.incr('count')).toBe(1);
      expect(await store.incr('count', 5)).toBe(6);
      expect(await store.incr('window', 1, 5_000)).toBe(1);
      const first = await store.ttlMs('window');
      expect(first).toBeGreaterThan(0);
      expect(await store.incr('window', 1, 60_000)).toBe(2);
      expect(await store.ttlMs('window')).toBeLessThanOrEqual(5_000);
    });

    it('keeps hashes', async () => {
      await store.hashSet('h', { a: '1', b: '2' });
      expect(await store.hashGet('h', 'a')).toBe('1');
      expect(await store.hashGetAll('h')).toEqual({ a: '1', b: '2' });
      expect(await store.hashIncr('h', 'n', 3)).toBe(3);
      expect(await store.hashDel('h', 'a', 'zz')).toBe(1);
      expect(await store.hashGetAll('missing')).toEqual({});
    });

    it('keeps lists in FIFO order and caps them to the newest entries', async () => {
      expect(await store.listPush('q', ['1', '2'])).toBe(2);
      expect(await store.listPush('q', ['3'])).toBe(3);
      expect(await store.listPopFront('q')).toBe('1');
      expect(await store.listRange('q', 0, -1)).toEqual(['2', '3']);
      expect(await store.listPush('capped', ['a', 'b', 'c', 'd'], { maxLength: 3 })).toBe(3);
      expect(await store.listRange('capped', 0, -1)).toEqual(['b', 'c', 'd']);
      expect(await store.listRange('capped', -2, -1)).toEqual(['c', 'd']);
      expect(await store.listLength('capped')).toBe(3);
      expect(await store.listPopFront('empty')).toBeNull();
    });

    it('keeps sets', async () => {
      expect(await store.setAdd('s', 'x', 'y', 'x')).toBe(2);
      expect((await store.setMembers('s')).sort()).toEqual(['x', 'y']);
      expect(await store.setRemove('s', 'x')).toBe(1);
      expect(await store.setMembers('s')).toEqual(['y']);
    });

    it('orders sorted sets by score and ranges by score', async () => {
      await store.sortedAdd('z', 30, 'c');
      await store.sortedAdd('z', 10, 'a');
      await store.sortedAdd('z', 20, 'b');
      expect(await store.sortedRangeByScore('z', 0, 25)).toEqual([
        { member: 'a', score: 10 },
        { member: 'b', score: 20 },
      ]);
      expect(await store.sortedRangeByScore('z', 0, 100, 1)).toEqual([{ member: 'a', score: 10 }]);
      expect(await store.sortedScore('z', 'c')).toBe(30);
      expect(await store.sortedRemove('z', 'a')).toBe(1);
      expect(await store.sortedScore('z', 'a')).toBeNull();
    });

    it('gives a lock to one owner, extends and releases it only for its token', async () => {
      const token = await store.acquireLock('lock', 5_000);
      expect(token).toBeTypeOf('string');
      expect(await store.acquireLock('lock', 5_000)).toBeNull();
      expect(await store.extendLock('lock', 'not-the-owner', 5_000)).toBe(false);
      expect(await store.extendLock('lock', token!, 10_000)).toBe(true);
      expect(await store.ttlMs('lock')).toBeGreaterThan(5_000);
      expect(await store.releaseLock('lock', 'not-the-owner')).toBe(false);
      expect(await store.releaseLock('lock', token!)).toBe(true);
      expect(await store.acquireLock('lock', 5_000)).toBeTypeOf('string');
    });

    it('lets an expired lock be taken over', async () => {
      const first = await store.acquireLock('lease', 50);
      expect(first).not.toBeNull();
      await sleep(100);
      const second = await store.acquireLock('lease', 5_000);
      expect(second).not.toBeNull();
      expect(await store.releaseLock('lease', first!)).toBe(false);
    });

    it('runs atomic batches with the same result shapes as single commands', async () => {
      const results = await store.atomic([
        { op: 'setIfAbsent', key: '{t}once', value: '1', ttlMs: 5_000 },
        { op: 'setIfAbsent', key: '{t}once', value: '2' },
        { op: 'listPush', key: '{t}l', values: ['a', 'b', 'c'], maxLength: 2 },
        { op: 'incr', key: '{t}n', by: 2 },
        { op: 'set', key: '{t}s', value: 'v' },
        { op: 'get', key: '{t}s' },
        { op: 'expire', key: '{t}missing', ttlMs: 1000 },
        { op: 'del', key: '{t}s' },
      ]);
      expect(results).toEqual([true, false, 2, 2, undefined, 'v', false, 1]);
      expect(await store.listRange('{t}l', 0, -1)).toEqual(['b', 'c']);
    });

    it('packs a list into a bytes entry of another while it is as read, keeping the newest chunks and the longer lifetime', async () => {
      const chunk = (first: number) => Uint8Array.from({ length: 300 }, (_, index) => (first + index) % 256);
      await store.listPush('{t}entries', ['a', 'b', 'c'], { ttlMs: 60_000 });
      // Read as 2 entries ending in 'b', or ending in another entry: the list moved on since, nothing is written.
      expect(
        await store.listPackInto('{t}entries', '{t}packs', { length: 2, last: 'b' }, chunk(0), {
          maxChunks: 2,
          ttlMs: 1000,
        }),
      ).toBe(false);
      expect(
        await store.listPackInto('{t}entries', '{t}packs', { length: 3, last: 'b' }, chunk(0), {
          maxChunks: 2,
          ttlMs: 1000,
        }),
      ).toBe(false);
      expect(await store.listRangeBytes('{t}packs', 0, -1)).toEqual([]);

      expect(
        await store.listPackInto('{t}entries', '{t}packs', { length: 3, last: 'c' }, chunk(0), {
          maxChunks: 2,
          ttlMs: 1000,
        }),
      ).toBe(true);
      expect(await store.listRange('{t}entries', 0, -1)).toEqual([]);
      expect((await store.listRangeBytes('{t}packs', 0, -1)).map((bytes) => Array.from(bytes))).toEqual([
        Array.from(chunk(0)),
      ]);
      // The list's lifetime, not the 1 s given for keys that have none.
      expect(await store.ttlMs('{t}packs')).toBeGreaterThan(30_000);

      for (const first of [1, 2]) {
        await store.listPush('{t}entries', ['d']);
        expect(
          await store.listPackInto('{t}entries', '{t}packs', { length: 1, last: 'd' }, chunk(first), {
            maxChunks: 2,
            ttlMs: 1000,
          }),
        ).toBe(true);
      }
      const kept = await store.listRangeBytes('{t}packs', 0, -1);
      expect(kept.map((bytes) => bytes[0])).toEqual([1, 2]);
      expect((await store.listRangeBytes('{t}packs', -1, -1))[0]![299]).toBe((2 + 299) % 256);
    });

    it('reads whole hashes and sets in an atomic batch, empty when absent, and a trimmed push answers the trimmed length', async () => {
      await store.hashSet('{t}h', { since: '1', reason: 'asked' });
      await store.setAdd('{t}members', 'x', 'y');
      await store.listPush('{t}capped', ['1', '2', '3']);
      const [hash, none, members, noMembers, length] = await store.atomic([
        { op: 'hashGetAll', key: '{t}h' },
        { op: 'hashGetAll', key: '{t}no-hash' },
        { op: 'setMembers', key: '{t}members' },
        { op: 'setMembers', key: '{t}no-set' },
        { op: 'listPush', key: '{t}capped', values: ['4'], maxLength: 3 },
      ]);
      expect(hash).toEqual({ since: '1', reason: 'asked' });
      expect(none).toEqual({});
      expect((members as string[]).sort()).toEqual(['x', 'y']);
      expect(noMembers).toEqual([]);
      expect(length).toBe(3);
      expect(await store.listRange('{t}capped', 0, -1)).toEqual(['2', '3', '4']);
    });

    it('atomic incr with a ttl gives a fresh counter its window and keeps an existing one', async () => {
      expect(
        await store.atomic([
          { op: 'incr', key: 'w', ttlMs: 5_000 },
          { op: 'incr', key: 'w', by: 2, ttlMs: 60_000 },
        ]),
      ).toEqual([1, 3]);
      const ttl = await store.ttlMs('w');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(5_000);
    });

    it('incr with `from` starts a counter it creates there, and counts an existing one on from its value', async () => {
      expect(
        await store.atomic([
          { op: 'incr', key: '{t}from', ttlMs: 5_000, from: 1 },
          { op: 'incr', key: '{t}from', ttlMs: 5_000, from: 1 },
        ]),
      ).toEqual([2, 3]);
      await store.set('{t}from-0', '0');
      expect(await store.batch([{ op: 'incr', key: '{t}from-0', ttlMs: 5_000, from: 1 }])).toEqual([1]);
      expect(await store.ttlMs('{t}from')).toBeGreaterThan(0);
    });

    it('atomic get with a ttl renews the lifetime of a key it finds, and creates none', async () => {
      await store.set('{t}s', '7', { ttlMs: 100 });
      expect(
        await store.atomic([
          { op: 'get', key: '{t}s', ttlMs: 60_000 },
          { op: 'get', key: '{t}none', ttlMs: 60_000 },
        ]),
      ).toEqual(['7', null]);
      expect(await store.ttlMs('{t}s')).toBeGreaterThan(100);
      expect(await store.ttlMs('{t}none')).toBe(-2);
    });

    it('hashCompareAndRun writes only while the hash holds what is expected, and answers the hash otherwise', async () => {
      await store.hashSet('{t}pause', { handoffId: 'h1' });
      const claim = (by: string): AtomicCommand[] => [
        { op: 'hashSet', key: '{t}pause', fields: { claimedBy: by } },
        { op: 'listPush', key: '{t}log', values: [`${by} claimed`], maxLength: 10, ttlMs: 60_000 },
      ];
      const [first, second] = await Promise.all([
        store.hashCompareAndRun('{t}pause', { handoffId: 'h1', claimedBy: null }, claim('Bruno')),
        store.hashCompareAndRun('{t}pause', { handoffId: 'h1', claimedBy: null }, claim('Carla')),
      ]);
      expect(first).toEqual({ applied: true });
      expect(second).toEqual({ applied: false, current: { handoffId: 'h1', claimedBy: 'Bruno' } });
      expect(await store.listRange('{t}log', 0, -1)).toEqual(['Bruno claimed']);
      expect(await store.hashCompareAndRun('{t}pause', { claimedBy: 'Bruno' }, claim('Carla'))).toEqual({
        applied: true,
      });
      expect(await store.hashCompareAndRun('{t}gone', { handoffId: 'h1' }, claim('Dana'))).toEqual({
        applied: false,
        current: {},
      });
      expect(await store.listRange('{t}log', 0, -1)).toEqual(['Bruno claimed', 'Carla claimed']);
      await expect(
        store.hashCompareAndRun('{t}pause', {}, [{ op: 'set', key: '{other}x', value: '1' }]),
      ).rejects.toThrow();
    });

    describe('conversation queue', () => {
      const keys = { queue: 'cq:{q}:queue', owners: 'cq:{q}:owners', member: 'conv-1' };
      const owner = async () => (await store.hashGetAll(keys.owners))[keys.member];
      const offer = (entry: string, dedupeKey = `cq:{q}:dedupe:${entry}`, maxLength = 3) =>
        store.queueOffer(keys, entry, { dedupeKey, dedupeTtlMs: 60_000, maxLength, lockTtlMs: 5_000 });

      it('queues an offer, indexes the conversation and hands the lock and head to the first offer only', async () => {
        const first = await offer('a');
        expect(first).toMatchObject({ outcome: 'queued', length: 1, claim: { head: 'a' } });
        const second = await offer('b');
        expect(second).toEqual({ outcome: 'queued', length: 2, claim: null });
        expect(await store.listRange(keys.queue, 0, -1)).toEqual(['a', 'b']);
        // The conversation's field indexes it and names its owner: the first offer's token.
        expect(await store.hashGetAll(keys.owners)).toEqual({
          'conv-1': first.outcome === 'queued' ? first.claim!.token : '',
        });
      });

      it('drops a redelivered offer and refuses one beyond the cap without queueing it', async () => {
        await offer('a', 'cq:{q}:same');
        expect(await offer('a-again', 'cq:{q}:same')).toEqual({ outcome: 'duplicate' });
        await offer('b');
        await offer('c');
        expect(await offer('d')).toEqual({ outcome: 'full', length: 3 });
        expect(await store.listRange(keys.queue, 0, -1)).toEqual(['a', 'b', 'c']);
      });

      it('advances only for the lock owner, returning the next head, then releases and unindexes when empty', async () => {
        const first = await offer('a');
        await offer('b');
        const token = first.outcome === 'queued' ? first.claim!.token : '';
        expect(await store.queueAdvance(keys, 'someone-else', 5_000)).toEqual({ owned: false });
        expect(
          await store.queueAdvance(keys, token, 5_000, [{ op: 'listPush', key: 'cq:{q}:log', values: ['answered a'] }]),
        ).toEqual({ owned: true, next: 'b' });
        expect(await store.listRange('cq:{q}:log', 0, -1)).toEqual(['answered a']);
        expect(await store.queueAdvance(keys, token, 5_000)).toEqual({ owned: true, next: null });
        expect(await store.hashGetAll(keys.owners)).toEqual({});
        // The next offer finds the lock free and claims it: nothing is stranded after a release.
        expect(await offer('c')).toMatchObject({ outcome: 'queued', claim: { head: 'c' } });
      });

      it('runs the writes beside an advance in their order, every kind, even when the lock was lost', async () => {
        const first = await offer('a');
        const token = first.outcome === 'queued' ? first.claim!.token : '';
        await store.set('cq:{q}:b', '1');
        await store.sortedAdd('cq:{q}:z', 1, 'gone');
        const writes: AtomicCommand[] = [
          { op: 'set', key: 'cq:{q}:a', value: '1' },
          { op: 'del', key: 'cq:{q}:b' },
          { op: 'set', key: 'cq:{q}:c', value: 'x' },
          // c was written after the first delete: deleting it there would undo nothing.
          { op: 'del', key: 'cq:{q}:c' },
          { op: 'set', key: 'cq:{q}:d', value: 'y', ttlMs: 60_000 },
          { op: 'del', key: 'cq:{q}:a' },
          { op: 'set', key: 'cq:{q}:b', value: '2' },
          { op: 'setIfAbsent', key: 'cq:{q}:d', value: 'not this' },
          { op: 'incr', key: 'cq:{q}:n', ttlMs: 5_000 },
          { op: 'incr', key: 'cq:{q}:n', by: 2, ttlMs: 60_000 },
          { op: 'hashSet', key: 'cq:{q}:h', fields: { one: '1', two: '2' } },
          { op: 'hashDel', key: 'cq:{q}:h', field: 'one' },
          { op: 'listPush', key: 'cq:{q}:log', values: ['1', '2', '3'], maxLength: 2 },
          { op: 'listPush', key: 'cq:{q}:short', values: ['1', '2'], maxLength: 3 },
          { op: 'expire', key: 'cq:{q}:log', ttlMs: 60_000 },
          { op: 'setAdd', key: 'cq:{q}:s', member: 'in' },
          { op: 'setAdd', key: 'cq:{q}:s', member: 'out' },
          { op: 'setRemove', key: 'cq:{q}:s', member: 'out' },
          { op: 'sortedAdd', key: 'cq:{q}:z', score: 2.5, member: 'kept' },
          { op: 'sortedRemove', key: 'cq:{q}:z', member: 'gone' },
        ];
        expect(await store.queueAdvance(keys, 'someone-else', 5_000, writes)).toEqual({ owned: false });
        expect(await store.getMany(['cq:{q}:a', 'cq:{q}:b', 'cq:{q}:c', 'cq:{q}:d', 'cq:{q}:n'])).toEqual([
          null,
          '2',
          null,
          'y',
          '3',
        ]);
        const ttl = await store.ttlMs('cq:{q}:n');
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(5_000);
        expect(await store.hashGetAll('cq:{q}:h')).toEqual({ two: '2' });
        expect(await store.listRange('cq:{q}:log', 0, -1)).toEqual(['2', '3']);
        expect(await store.listRange('cq:{q}:short', 0, -1)).toEqual(['1', '2']);
        expect(await store.ttlMs('cq:{q}:log')).toBeGreaterThan(0);
        expect(await store.setMembers('cq:{q}:s')).toEqual(['in']);
        expect(await store.sortedRangeByScore('cq:{q}:z', 0, 10)).toEqual([{ member: 'kept', score: 2.5 }]);
        // A read among them (no caller sends one) runs too, and the owner's advance goes on.
        expect(
          await store.queueAdvance(keys, token, 5_000, [
            { op: 'get', key: 'cq:{q}:a' },
            { op: 'del', key: 'cq:{q}:d' },
          ]),
        ).toEqual({ owned: true, next: null });
        expect(await store.get('cq:{q}:d')).toBeNull();
        expect(await owner()).toBeUndefined();
      });

      it('gives a list a push beside an advance creates its lifetime, and renews an existing one only when asked', async () => {
        await store.listPush('cq:{q}:kept', ['old'], { ttlMs: 10_000 });
        await store.listPush('cq:{q}:renewed', ['old'], { ttlMs: 10_000 });
        const first = await offer('a');
        const token = first.outcome === 'queued' ? first.claim!.token : '';
        expect(
          await store.queueAdvance(keys, token, 5_000, [
            { op: 'listPush', key: 'cq:{q}:created', values: ['1', '2'], maxLength: 5, ttlMs: 60_000 },
            { op: 'listPush', key: 'cq:{q}:kept', values: ['1'], maxLength: 5, ttlMs: 60_000 },
            {
              op: 'listPush',
              key: 'cq:{q}:renewed',
              values: ['1', '2', '3', '4', '5'],
              maxLength: 3,
              ttlMs: 60_000,
              renewTtl: true,
            },
          ]),
        ).toEqual({ owned: true, next: null });
        expect(await store.ttlMs('cq:{q}:created')).toBeGreaterThan(10_000);
        expect(await store.ttlMs('cq:{q}:kept')).toBeLessThanOrEqual(10_000);
        expect(await store.ttlMs('cq:{q}:renewed')).toBeGreaterThan(10_000);
        expect(await store.listRange('cq:{q}:kept', 0, -1)).toEqual(['old', '1']);
        expect(await store.listRange('cq:{q}:renewed', 0, -1)).toEqual(['3', '4', '5']);
      });

      it('takes a push of more values than one Lua call unpacks beside an advance', async () => {
        const first = await offer('a');
        const token = first.outcome === 'queued' ? first.claim!.token : '';
        const values = Array.from({ length: 10_000 }, (_, i) => String(i));
        expect(
          await store.queueAdvance(keys, token, 5_000, [
            { op: 'listPush', key: 'cq:{q}:many', values, maxLength: 9_000 },
          ]),
        ).toEqual({ owned: true, next: null });
        expect(await store.listLength('cq:{q}:many')).toBe(9_000);
      });

      it('queues without claiming when asked, saying whether the lock is free, so nothing is taken only to be let go', async () => {
        const noClaim = (entry: string) =>
          store.queueOffer(keys, entry, {
            dedupeKey: `cq:{q}:dedupe:${entry}`,
            dedupeTtlMs: 60_000,
            maxLength: 5,
            lockTtlMs: 5_000,
            claim: false,
          });
        expect(await noClaim('a')).toEqual({ outcome: 'queued', length: 1, claim: null, lockFree: true });
        // Indexed, owned by nobody.
        expect(await store.hashGetAll(keys.owners)).toEqual({ 'conv-1': '' });
        const claim = await store.queueClaim(keys, 5_000);
        expect(claim).toMatchObject({ head: 'a' });
        expect(await noClaim('b')).toEqual({ outcome: 'queued', length: 2, claim: null });
        expect(await owner()).toBe(claim!.token);
      });

      it('advances many conversations at once, each with its writes (on a cluster: conversations of every node, in one tick)', async () => {
        // ioredis auto-pipelines what is sent in one tick; an advance grouped by the wrong slot failed on a cluster once others joined it.
        const conversations = Array.from({ length: 24 }, (_, i) => ({
          queue: `many:{m${i}}:queue`,
          owners: `many:{m${i}}:owners`,
          member: `m${i}`,
        }));
        const tokens = await Promise.all(
          conversations.map(async (k) => {
            const offered = await store.queueOffer(k, 'entry', {
              dedupeKey: `${k.queue}:dedupe`,
              dedupeTtlMs: 60_000,
              maxLength: 3,
              lockTtlMs: 5_000,
            });
            if (offered.outcome !== 'queued' || !offered.claim) throw new Error('the offer should have claimed');
            return offered.claim.token;
          }),
        );
        const advanced = await Promise.all(
          conversations.map((k, i) =>
            Promise.all([
              store.queueAdvance(k, tokens[i]!, 5_000, [
                { op: 'listPush', key: `many:{m${i}}:transcript`, values: ['answered'] },
              ]),
              store.incr(`month:${i}`),
            ]),
          ),
        );
        expect(advanced.map(([result]) => result)).toEqual(conversations.map(() => ({ owned: true, next: null })));
        expect(await store.listRange('many:{m23}:transcript', 0, -1)).toEqual(['answered']);
      });

      it('lets the lock go with an advance when asked, keeping the rest queued and indexed for the next claim', async () => {
        const first = await offer('a');
        await offer('b');
        const token = first.outcome === 'queued' ? first.claim!.token : '';
        expect(await store.queueAdvance(keys, token, 5_000, [], { letGo: true })).toEqual({
          owned: true,
          next: 'b',
          letGo: true,
        });
        expect(await store.hashGetAll(keys.owners)).toEqual({ 'conv-1': '' });
        const again = await store.queueClaim(keys, 5_000);
        expect(again).toMatchObject({ head: 'b' });
        // With nothing left there is nothing to yield: the lock goes as always, and the conversation leaves the index.
        expect(await store.queueAdvance(keys, again!.token, 5_000, [], { letGo: true })).toEqual({
          owned: true,
          next: null,
        });
        expect(await store.hashGetAll(keys.owners)).toEqual({});
      });

      it('claims a lock inside a batch for an expected head: taken with it, with another head, or not at all', async () => {
        const noClaim = (entry: string) =>
          store.queueOffer(keys, entry, {
            dedupeKey: `cq:{q}:dedupe:${entry}`,
            dedupeTtlMs: 60_000,
            maxLength: 5,
            lockTtlMs: 5_000,
            claim: false,
          });
        const claimHead = (token: string, head: string) =>
          ({
            op: 'claimHead',
            key: keys.owners,
            queue: keys.queue,
            member: keys.member,
            token,
            ttlMs: 5_000,
            head,
          }) as const;
        await noClaim('a');
        await noClaim('b');
        // The rest of the batch runs whatever the claim finds; the caller undoes it when it missed.
        expect(await store.atomic([claimHead('t1', 'a'), { op: 'incr', key: 'cq:{q}:attempts' }])).toEqual([
          { outcome: 'claimed' },
          1,
        ]);
        expect(await owner()).toBe('t1');
        expect(await store.atomic([claimHead('t2', 'a')])).toEqual([{ outcome: 'taken' }]);
        expect(await owner()).toBe('t1');
        // Another holder answered 'a' meanwhile: the lock is taken all the same, and 'b' is first.
        expect(await store.queueAdvance(keys, 't1', 5_000, [], { letGo: true })).toEqual({
          owned: true,
          next: 'b',
          letGo: true,
        });
        expect(await store.atomic([claimHead('t3', 'a')])).toEqual([{ outcome: 'other-head', head: 'b' }]);
        expect(await owner()).toBe('t3');
        expect(await store.queueAdvance(keys, 't3', 5_000)).toEqual({ owned: true, next: null });
        // Nothing queued: no lock is taken, and the conversation leaves the index.
        await store.hashSet(keys.owners, { [keys.member]: '' });
        expect(await store.atomic([claimHead('t4', 'b')])).toEqual([{ outcome: 'empty' }]);
        expect(await store.hashGetAll(keys.owners)).toEqual({});
      });

      it('renews a lock by changing its owner, only for its token, and lets it go without removing anything', async () => {
        const first = await offer('a');
        const token = first.outcome === 'queued' ? first.claim!.token : '';
        expect(await store.queueRenew(keys, 'someone-else', 5_000)).toBe(false);
        expect(await owner()).toBe(token);
        expect(await store.queueRenew(keys, token, 5_000)).toBe(true);
        const renewed = await owner();
        expect(renewed).not.toBe(token);
        expect(await store.queueRenew(keys, token, 5_000)).toBe(true);
        // Every renewal gives a value never seen, which is what a sweep watches.
        expect(await owner()).not.toBe(renewed);
        expect(await store.queueRelease(keys, 'someone-else')).toBe(false);
        expect(await store.queueRelease(keys, token)).toBe(true);
        expect(await store.hashGetAll(keys.owners)).toEqual({ 'conv-1': '' });
        expect(await store.listRange(keys.queue, 0, -1)).toEqual(['a']);
        expect(await store.queueRenew(keys, token, 5_000)).toBe(false);
        expect(await store.queueAdvance(keys, token, 5_000)).toEqual({ owned: false });
      });

      it('lets a queue be claimed over the owner a sweep saw stop renewing, never over a renewed one, and forgets an empty one', async () => {
        const first = await offer('a');
        const token = first.outcome === 'queued' ? first.claim!.token : '';
        // Held: a claim that expects nobody gets nothing.
        expect(await store.queueClaim(keys, 5_000)).toBeNull();
        const seen = (await owner())!;
        // Renewed since it was seen: alive, not taken over.
        await store.queueRenew(keys, token, 5_000);
        expect(await store.queueClaim(keys, 5_000, seen)).toBeNull();
        const stopped = (await owner())!;
        const claim = await store.queueClaim(keys, 5_000, stopped);
        expect(claim).toMatchObject({ head: 'a' });
        // The holder that stopped has lost it: its late advance removes nothing.
        expect(await store.queueAdvance(keys, token, 5_000)).toEqual({ owned: false });
        expect(await store.queueAdvance(keys, claim!.token, 5_000)).toEqual({ owned: true, next: null });
        await store.hashSet(keys.owners, { [keys.member]: '' });
        expect(await store.queueClaim(keys, 5_000)).toBeNull();
        expect(await store.hashGetAll(keys.owners)).toEqual({});
      });
    });

    describe('hash slots', () => {
      // Two tags in different slots (checked, so the tests below cannot pass by chance).
      const [a, b] = ['{a}x', '{b}y'];
      it('uses tags that hash to different slots', () => {
        expect(slotOf(a)).not.toBe(slotOf(b));
      });

      it('refuses an atomic step whose keys span slots, naming both keys, and changes nothing', async () => {
        await expect(
          store.atomic([
            { op: 'set', key: a, value: '1' },
            { op: 'set', key: b, value: '2' },
          ]),
        ).rejects.toThrow(/atomic\(\) keys span slots: \S*\{a\}x \(slot \d+\), \S*\{b\}y \(slot \d+\)/);
        expect(await store.getMany([a, b])).toEqual([null, null]);
      });

      it('refuses queue steps whose keys span slots', async () => {
        const keys = { queue: '{a}queue', owners: '{b}owners', member: 'conv' };
        await expect(
          store.queueOffer(keys, 'm', { dedupeKey: '{a}dedupe', dedupeTtlMs: 1000, maxLength: 5, lockTtlMs: 1000 }),
        ).rejects.toThrow(/queueOffer keys span slots: .*\{b\}owners/);
        await expect(store.queueClaim(keys, 1000)).rejects.toThrow(/queueClaim keys span slots/);
        await expect(
          store.queueAdvance({ ...keys, owners: '{a}owners' }, 'token', 1000, [{ op: 'incr', key: b }]),
        ).rejects.toThrow(/queueAdvance keys span slots: .*\{b\}y/);
        expect(await store.listLength('{a}queue')).toBe(0);
        expect(await store.get(b)).toBeNull();
      });

      it('runs a batch across slots, results in order, with the same shapes as atomic()', async () => {
        await store.hashSet('{b}h', { f: 'v' });
        const results = await store.batch([
          { op: 'incr', key: '{a}n', by: 2, ttlMs: 5_000 },
          { op: 'hashGetAll', key: '{b}h' },
          { op: 'setIfAbsent', key: '{c}once', value: '1' },
          { op: 'listPush', key: '{d}l', values: ['1', '2', '3'], maxLength: 2 },
          { op: 'incr', key: '{a}n' },
          { op: 'get', key: '{e}none' },
        ]);
        expect(results).toEqual([2, { f: 'v' }, true, 2, 3, null]);
        expect(await store.batch([])).toEqual([]);
      });

      it('runs a pipeline across slots, results in order, with the same shapes as batch()', async () => {
        await store.hashSet('{b}ph', { f: 'v' });
        await store.set('{e}ps', 'kept', { ttlMs: 100 });
        const results = await store.pipeline([
          { op: 'incr', key: '{a}pn', by: 2, ttlMs: 5_000 },
          { op: 'hashGetAll', key: '{b}ph' },
          { op: 'setMembers', key: '{c}none' },
          { op: 'incr', key: '{a}pn' },
          { op: 'get', key: '{e}ps', ttlMs: 60_000 },
        ]);
        expect(results).toEqual([2, { f: 'v' }, [], 3, 'kept']);
        expect(await store.ttlMs('{e}ps')).toBeGreaterThan(100);
        expect(await store.pipeline([])).toEqual([]);
      });

      it('reads sorted ranges of several slots in one batch, lowest score first, as sortedRangeByScore does', async () => {
        await store.sortedAdd('{a}z', 3, 'a3');
        await store.sortedAdd('{a}z', 1, 'a1');
        await store.sortedAdd('{b}z', 2, 'b2');
        await store.sortedAdd('{b}z', 9, 'b9');
        const results = await store.batch([
          { op: 'sortedRangeByScore', key: '{a}z', min: 0, max: 5 },
          { op: 'sortedRangeByScore', key: '{b}z', min: Number.NEGATIVE_INFINITY, max: 100, limit: 1 },
          { op: 'sortedRangeByScore', key: '{c}none', min: 0, max: 5 },
        ]);
        expect(results).toEqual([
          [
            { member: 'a1', score: 1 },
            { member: 'a3', score: 3 },
          ],
          [{ member: 'b2', score: 2 }],
          [],
        ]);
      });

      it('reads and deletes keys of many slots at once', async () => {
        const keys = Array.from({ length: 40 }, (_, index) => `{k${index}}v`);
        for (const key of keys) await store.set(key, key);
        expect(await store.getMany([...keys, '{none}'])).toEqual([...keys, null]);
        expect(await store.del(...keys, '{none}')).toBe(40);
        expect(await store.getMany(keys)).toEqual(keys.map(() => null));
      });
    });

    it('deletes only keys under its own prefix', async () => {
      await store.set('p:one', '1');
      await store.set('p:two', '2');
      await store.set('q:three', '3');
      expect(await store.deleteByPrefix('p:')).toBe(2);
      expect(await store.get('q:three')).toBe('3');
    });
  });
}

stateContract('memory', () => new MemoryStateStore({ prefix: 'test:', checkSlots: true }));
stateContract('redis', () => isolatedRedisStore('state-contract', { checkSlots: true }));
if (testRedisClusterNodes().length > 0) {
  stateContract('redis cluster', () => isolatedRedisStore('state-contract', { topology: 'cluster', checkSlots: true }));
} else {
  console.warn(`StateStore contract: redis cluster skipped (${NO_CLUSTER_REASON})`);
  describe.skip(`StateStore contract: redis cluster (${NO_CLUSTER_REASON})`, () => {
    it('runs against a Redis Cluster', () => undefined);
  });
}
