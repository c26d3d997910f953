/**
 * The layout of the conversation locks a process writes (src/gateway/drain/queue-layout.ts): owner fields alone on a
 * store no gateway used before, and the earlier layout kept beside them on one an earlier version may still use, until
 * the marker `chatbridge migrate-state` writes says no such replica runs.
 */
import { describe, expect, it } from 'vitest';
import { OWNER_FIELDS_ONLY, QUEUE_LAYOUT_KEY, QueueLayout } from '../../../../src/gateway/index.js';
import { MemoryStateStore } from '../../../../src/state/index.js';

const usedBefore = (used: boolean) => async () => used;

describe('QueueLayout', () => {
  it('writes owner fields alone on a store no gateway used, and marks it so for the replicas that start after', async () => {
    const state = new MemoryStateStore();
    const layout = await QueueLayout.settle(state, usedBefore(false));
    expect(layout.keepsLegacy).toBe(false);
    expect(await state.get(QUEUE_LAYOUT_KEY)).toBe(OWNER_FIELDS_ONLY);
    // A replica starting later sees a used store, and the marker.
    expect((await QueueLayout.settle(state, usedBefore(true))).keepsLegacy).toBe(false);
  });

  it('keeps the earlier layout on a store an earlier version used, until the marker appears, then never again', async () => {
    const state = new MemoryStateStore();
    const layout = await QueueLayout.settle(state, usedBefore(true));
    expect(layout.keepsLegacy).toBe(true);
    expect(await state.get(QUEUE_LAYOUT_KEY)).toBeNull();
    await layout.refresh();
    expect(layout.keepsLegacy).toBe(true);
    await state.set(QUEUE_LAYOUT_KEY, OWNER_FIELDS_ONLY);
    await layout.refresh();
    expect(layout.keepsLegacy).toBe(false);
    await state.del(QUEUE_LAYOUT_KEY);
    await layout.refresh();
    expect(layout.keepsLegacy).toBe(false);
  });

  it('keeps the earlier layout when the store cannot be read at start: safe with every version', async () => {
    const state = new MemoryStateStore();
    const layout = await QueueLayout.settle(state, async () => {
      throw new Error('Connection is closed.');
    });
    expect(layout.keepsLegacy).toBe(true);
  });

  it('writes the marker again after the store lost its data, unless the earlier layout is kept', async () => {
    const state = new MemoryStateStore();
    const fields = await QueueLayout.settle(state, usedBefore(false));
    await state.del(QUEUE_LAYOUT_KEY);
    await fields.reassert();
    expect(await state.get(QUEUE_LAYOUT_KEY)).toBe(OWNER_FIELDS_ONLY);
    const other = new MemoryStateStore();
    const kept = await QueueLayout.settle(other, usedBefore(true));
    await kept.reassert();
    expect(await other.get(QUEUE_LAYOUT_KEY)).toBeNull();
  });
});
