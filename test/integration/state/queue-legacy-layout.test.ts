/**
 * The conversation lock while the earlier layout is kept beside the owner fields (a rolling upgrade from a version
 * before them; src/gateway/drain/queue-layout.ts): every step writes what a replica of that version reads (its lock
 * string, its pending set) and respects what it writes. An earlier replica's own steps are written here as its scripts
 * wrote them (SET NX with a lifetime, SADD); test/e2e/gateway/rolling-upgrade.test.ts runs a real one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ConversationQueueKeys } from '../../../src/state/index.js';
import { queueOwners } from '../../../src/gateway/index.js';
import { isolatedRedisStore } from '../../support/redis.js';

const store = isolatedRedisStore('queue-legacy-layout', { checkSlots: true });
afterAll(() => store.cleanup());

let conversations = 0;
function keysOfNewConversation(): ConversationQueueKeys & { legacy: { lock: string; pending: string } } {
  const id = ++conversations;
  return {
    queue: `queue:{c9}:main:t:${id}`,
    owners: 'queues:owners:{c9}',
    member: `m${id}`,
    legacy: { lock: `lock:{c9}:main:t:${id}`, pending: 'queues:pending:{c9}' },
  };
}
const offer = (keys: ConversationQueueKeys, entry: string, claim = true) =>
  store.queueOffer(keys, entry, {
    dedupeKey: `${keys.queue}:dedupe:${entry}`,
    dedupeTtlMs: 60_000,
    maxLength: 5,
    lockTtlMs: 10_000,
    ...(claim ? {} : { claim: false }),
  });
const ownerOf = async (keys: ConversationQueueKeys) => (await store.hashGetAll(keys.owners))[keys.member];
const tokenOf = (offered: Awaited<ReturnType<typeof offer>>) =>
  offered.outcome === 'queued' && offered.claim ? offered.claim.token : '';

describe('the conversation lock with the earlier layout kept beside', () => {
  it('takes both locks and indexes both ways, so an earlier replica sees the conversation answered', async () => {
    const keys = keysOfNewConversation();
    const token = tokenOf(await offer(keys, 'a'));
    expect(token).not.toBe('');
    expect(await ownerOf(keys)).toBe(token);
    expect(await store.get(keys.legacy.lock)).toBe(token);
    expect(await store.ttlMs(keys.legacy.lock)).toBeGreaterThan(0);
    expect(await store.setMembers(keys.legacy.pending)).toContain(keys.member);
    // What an earlier replica's offer does next: its SET NX finds the lock taken, so it only queues.
    expect(await store.setIfAbsent(keys.legacy.lock, 'earlier-token', 10_000)).toBe(false);
  });

  it("does not claim a conversation an earlier replica answers, and claims it once that replica's lock is gone", async () => {
    const keys = keysOfNewConversation();
    // An earlier replica took it: its lock string and its pending set, no owner field.
    await store.listPush(keys.queue, ['a']);
    await store.setAdd(keys.legacy.pending, keys.member);
    await store.set(keys.legacy.lock, 'earlier-token', { ttlMs: 10_000 });
    // A sweep keeping the earlier layout finds it there, owned by no field.
    expect((await queueOwners(store, true)).get(keys.member)).toBeNull();

    expect(await offer(keys, 'b')).toEqual({ outcome: 'queued', length: 2, claim: null });
    // Nobody of this version holds it: the field says so, and the earlier lock is untouched.
    expect(await ownerOf(keys)).toBe('');
    expect(await store.get(keys.legacy.lock)).toBe('earlier-token');
    expect(await store.queueClaim(keys, 10_000)).toBeNull();

    // That replica stopped (its lock expired): a sweep's claim takes both, with its head.
    await store.del(keys.legacy.lock);
    const claim = await store.queueClaim(keys, 10_000);
    expect(claim).toMatchObject({ head: 'a' });
    expect(await store.get(keys.legacy.lock)).toBe(claim!.token);
    expect(await ownerOf(keys)).toBe(claim!.token);
  });

  it('renews both locks, and loses the lock when an earlier replica took the lock string over', async () => {
    const keys = keysOfNewConversation();
    const token = tokenOf(await offer(keys, 'a'));
    await store.expire(keys.legacy.lock, 1_000);
    expect(await store.queueRenew(keys, token, 10_000)).toBe(true);
    expect(await store.ttlMs(keys.legacy.lock)).toBeGreaterThan(5_000);
    expect(await ownerOf(keys)).toMatch(new RegExp(`^${token}#`));
    // Its lock string expired while it was frozen, and an earlier replica took the conversation.
    await store.set(keys.legacy.lock, 'earlier-token', { ttlMs: 10_000 });
    expect(await store.queueRenew(keys, token, 10_000)).toBe(false);
    expect(await store.queueAdvance(keys, token, 10_000)).toEqual({ owned: false });
    expect(await store.listRange(keys.queue, 0, -1)).toEqual(['a']);
  });

  it('frees both with the advance that empties the queue, and with a release', async () => {
    const keys = keysOfNewConversation();
    const token = tokenOf(await offer(keys, 'a'));
    await offer(keys, 'b');
    expect(await store.queueAdvance(keys, token, 10_000)).toEqual({ owned: true, next: 'b' });
    expect(await store.get(keys.legacy.lock)).toBe(token);
    expect(await store.queueRelease(keys, token)).toBe(true);
    expect(await store.get(keys.legacy.lock)).toBeNull();
    expect(await ownerOf(keys)).toBe('');
    const again = (await store.queueClaim(keys, 10_000))!;
    expect(await store.queueAdvance(keys, again.token, 10_000)).toEqual({ owned: true, next: null });
    expect(await store.get(keys.legacy.lock)).toBeNull();
    expect(await ownerOf(keys)).toBeUndefined();
    expect(await store.setMembers(keys.legacy.pending)).not.toContain(keys.member);
  });

  it('queues without claiming as free only when neither layout has a holder', async () => {
    const keys = keysOfNewConversation();
    await store.set(keys.legacy.lock, 'earlier-token', { ttlMs: 10_000 });
    expect(await offer(keys, 'a', false)).toEqual({ outcome: 'queued', length: 1, claim: null });
    await store.del(keys.legacy.lock);
    expect(await offer(keys, 'b', false)).toEqual({ outcome: 'queued', length: 2, claim: null, lockFree: true });
  });
});
