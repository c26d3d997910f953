/**
 * The keys each state step touches, for the one-slot rule (slots.ts) and for splitting
 * non-atomic work by slot on a Redis Cluster.
 */
import { assertOneSlot, slotOf } from './slots.js';
import type { AtomicCommand, ConversationQueueKeys } from './types.js';

/** Every key an atomic command touches (a claimHead touches the queue and the legacy keys kept beside too). */
export function commandKeys(c: AtomicCommand): string[] {
  if (c.op !== 'claimHead') return [c.key];
  return c.legacy ? [c.key, c.queue, c.legacy.lock, c.legacy.pending] : [c.key, c.queue];
}

/** The keys of one queue step (the offer's dedupe key included when given). */
export function queueKeys(keys: ConversationQueueKeys, dedupeKey?: string): string[] {
  const own = keys.legacy
    ? [keys.queue, keys.owners, keys.legacy.lock, keys.legacy.pending]
    : [keys.queue, keys.owners];
  return dedupeKey === undefined ? own : [...own, dedupeKey];
}

/**
 * Throws unless every key of `commands` (and `extra`) hashes to one slot. `prefix` is the
 * store's namespace: slots are computed on the full keys, as the server does.
 */
export function assertCommandsInOneSlot(
  what: string,
  prefix: string,
  commands: readonly AtomicCommand[],
  extra: readonly string[] = [],
): void {
  const keys = [...extra];
  for (const c of commands) keys.push(...commandKeys(c));
  assertOneSlot(
    what,
    keys.map((key) => prefix + key),
  );
}

/** Indexes of `fullKeys` grouped by their slot, groups in order of first appearance. */
export function groupBySlot(fullKeys: readonly string[]): number[][] {
  const groups = new Map<number, number[]>();
  fullKeys.forEach((key, index) => {
    const slot = slotOf(key);
    const group = groups.get(slot);
    if (group) group.push(index);
    else groups.set(slot, [index]);
  });
  return [...groups.values()];
}
