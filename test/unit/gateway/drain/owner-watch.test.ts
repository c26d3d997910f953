/**
 * Which conversation locks a sweep may take over (src/gateway/drain/owner-watch.ts): those nobody holds at once, and
 * a held one only once this process has seen its owner unchanged for the lock's lifetime. A holder renews by changing
 * its owner, so a live one is never taken over, however long its answer; only this process's clock is read.
 */
import { describe, expect, it } from 'vitest';
import { OwnerWatch } from '../../../../src/gateway/drain/owner-watch.js';

const LOCK_TTL_MS = 30_000;

function watchAt(start = 1_000): { watch: OwnerWatch; advance(ms: number): void } {
  let now = start;
  return { watch: new OwnerWatch(LOCK_TTL_MS, () => now), advance: (ms) => (now += ms) };
}

describe('OwnerWatch', () => {
  it('offers a conversation nobody holds at once, whether its field is empty or only the earlier layout indexes it', () => {
    const { watch } = watchAt();
    expect(
      watch.claimable(
        new Map([
          ['a', ''],
          ['b', null],
        ]),
      ),
    ).toEqual(
      new Map([
        ['a', ''],
        ['b', ''],
      ]),
    );
  });

  it('offers a held conversation only after seeing the same owner for the lock lifetime, and with that owner', () => {
    const { watch, advance } = watchAt();
    const owners = new Map([['a', 'token-1']]);
    expect(watch.claimable(owners)).toEqual(new Map());
    advance(LOCK_TTL_MS - 1);
    expect(watch.claimable(owners)).toEqual(new Map());
    advance(1);
    expect(watch.claimable(owners)).toEqual(new Map([['a', 'token-1']]));
  });

  it('never offers a holder that keeps renewing, however long it answers', () => {
    const { watch, advance } = watchAt();
    for (let renewal = 0; renewal < 20; renewal++) {
      expect(watch.claimable(new Map([['a', `token-1#${renewal}`]]))).toEqual(new Map());
      advance(LOCK_TTL_MS / 2);
    }
  });

  it('counts again from a new holder, and forgets a conversation that left the index', () => {
    const { watch, advance } = watchAt();
    watch.claimable(new Map([['a', 'token-1']]));
    advance(LOCK_TTL_MS);
    // Taken over meanwhile by a claim elsewhere: its new owner has not been seen for long.
    expect(watch.claimable(new Map([['a', 'token-2']]))).toEqual(new Map());
    // Answered and gone, then queued again under the same owner name: seen anew, not from before.
    expect(watch.claimable(new Map())).toEqual(new Map());
    expect(watch.claimable(new Map([['a', 'token-2']]))).toEqual(new Map());
    advance(LOCK_TTL_MS);
    expect(watch.claimable(new Map([['a', 'token-2']]))).toEqual(new Map([['a', 'token-2']]));
  });
});
