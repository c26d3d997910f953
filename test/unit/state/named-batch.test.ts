/**
 * A batch read back by name: each command's result comes back under the handle `add` gave,
 * in the shape its op promises (AtomicResults), on the memory store and on a real Redis.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryStateStore, NamedBatch, type StateStore } from '../../../src/state/index.js';
import { isolatedRedisStore } from '../../support/redis.js';

const redis = isolatedRedisStore('named-batch');
afterAll(() => redis.cleanup());

describe.each<[string, () => StateStore]>([
  ['memory', () => new MemoryStateStore()],
  ['redis', () => redis],
])('NamedBatch on the %s store', (_, store) => {
  it('gives each read its own result, whatever was added before or after it', async () => {
    const state = store();
    await state.set('nb:session', 'session-7');
    await state.hashSet('nb:pause', { since: '12' });
    await state.setAdd('nb:inflight', 'a1', 'a2');

    const batch = new NamedBatch();
    const counted = batch.add({ op: 'incr', key: 'nb:attempts', ttlMs: 60_000 });
    const session = batch.add({ op: 'get', key: 'nb:session' });
    const renewed = batch.add({ op: 'expire', key: 'nb:session', ttlMs: 60_000 });
    const missing = batch.add({ op: 'get', key: 'nb:nothing-here' });
    const inflight = batch.add({ op: 'setMembers', key: 'nb:inflight' });
    const pause = batch.add({ op: 'hashGetAll', key: 'nb:pause' });
    const absentHash = batch.add({ op: 'hashGetAll', key: 'nb:no-pause' });
    const results = await batch.run(state);

    expect(results.of(counted)).toBe(1);
    expect(results.of(session)).toBe('session-7');
    expect(results.of(renewed)).toBe(true);
    expect(results.of(missing)).toBeNull();
    expect([...results.of(inflight)].sort()).toEqual(['a1', 'a2']);
    expect(results.of(pause)).toEqual({ since: '12' });
    expect(results.of(absentHash)).toEqual({});
  });
});
