/**
 * Which layout of the conversation locks this process writes (state/types.ts ConversationQueueKeys): owner fields
 * alone, or kept beside the layout of versions before them (a lock string per conversation, a pending set per shard)
 * while replicas of such a version may still run, so that a rolling upgrade never has two processes answer one
 * conversation. A marker in the store says the older layout is gone: written by the first gateway on a store no gateway
 * used before, or by `chatbridge migrate-state` once no replica of an older version runs (src/cli/queue-owners.ts).
 * A process keeping the older layout looks for the marker at every sweep and stops keeping it from then on; a process
 * and one that stopped keeping it exclude each other through the owner fields both write.
 */
import type { StateStore } from '../../state/index.js';

/** The marker: `owner-fields` once no replica of a version before owner fields runs. */
export const QUEUE_LAYOUT_KEY = 'state:queue-layout';
export const OWNER_FIELDS_ONLY = 'owner-fields';

export class QueueLayout {
  private constructor(
    private readonly state: StateStore,
    private legacy: boolean,
  ) {}

  /** Owner fields alone: a store only this version uses (tests, the memory store, a layout settled before). */
  static ownerFields(state: StateStore): QueueLayout {
    return new QueueLayout(state, false);
  }

  /**
   * The layout at start: owner fields alone when the marker says so, or when no gateway used the store before (`usedBefore`
   * false; the marker is written then); the older layout kept beside them otherwise. When the store cannot be read, kept
   * beside: safe with every version, and the marker is looked for again at every sweep.
   */
  static async settle(state: StateStore, usedBefore: () => Promise<boolean>): Promise<QueueLayout> {
    try {
      if ((await state.get(QUEUE_LAYOUT_KEY)) === OWNER_FIELDS_ONLY) return new QueueLayout(state, false);
      if (await usedBefore()) return new QueueLayout(state, true);
      await state.set(QUEUE_LAYOUT_KEY, OWNER_FIELDS_ONLY);
      return new QueueLayout(state, false);
    } catch {
      return new QueueLayout(state, true);
    }
  }

  /** Whether the older layout is kept beside the owner fields. */
  get keepsLegacy(): boolean {
    return this.legacy;
  }

  /** At every sweep: a marker written since ends keeping the older layout. Throws what the store throws. */
  async refresh(): Promise<void> {
    if (this.legacy && (await this.state.get(QUEUE_LAYOUT_KEY)) === OWNER_FIELDS_ONLY) this.legacy = false;
  }

  /** After the store lost its data and was seeded again: the marker again, when this process needs no older layout. */
  async reassert(): Promise<void> {
    if (!this.legacy) await this.state.set(QUEUE_LAYOUT_KEY, OWNER_FIELDS_ONLY);
  }
}
