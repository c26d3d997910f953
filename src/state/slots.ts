/**
 * Where keys live in a Redis Cluster. One command, MULTI or Lua script may only touch
 * keys of one hash slot, so a conversation's keys and its entry in the global sets
 * (pending queues, in-flight answers, handoff outbox) share a hash tag: the tag of the
 * conversation's shard. Every queue step stays one atomic script, and a sweeper finds
 * all conversations by walking the shards.
 */
import { createHash } from 'node:crypto';
import keySlot from 'cluster-key-slot';

/**
 * Number of shards conversations are spread over. It fixes where every conversation's
 * keys live: changing it moves them all, so it never changes on a running deployment.
 * 256 tags spread evenly over a cluster of up to a few dozen masters, and walking them
 * costs a sweeper 256 small commands (one pipelined round trip on a single Redis).
 */
export const CONVERSATION_SHARDS = 256;

/** The hash tag of shard `n`: every key containing it hashes to the same slot. */
export function shardTag(shard: number): string {
  return `{c${shard}}`;
}

/**
 * Shards of the conversations seen lately: a turn builds a dozen keys of its conversation, and a
 * SHA-1 each time would cost a share of the gateway's CPU per answer. Bounded:
 * when full it starts over (a miss costs one hash).
 */
const SHARD_CACHE_SIZE = 10_000;
const shardCache = new Map<string, number>();

/** The shard of a conversation, from its identity (stable across processes and versions). */
export function conversationShard(bot: string, platform: string, id: string): number {
  const identity = `${bot}:${platform}:${id}`;
  const cached = shardCache.get(identity);
  if (cached !== undefined) return cached;
  // The first 4 bytes of a SHA-1: stable, evenly spread, and already in Node (no hand-rolled hash).
  const shard = createHash('sha1').update(identity).digest().readUInt32BE(0) % CONVERSATION_SHARDS;
  if (shardCache.size >= SHARD_CACHE_SIZE) shardCache.clear();
  shardCache.set(identity, shard);
  return shard;
}

/** Every shard's tag, in order: what a sweeper walks. */
export function allShardTags(): string[] {
  return Array.from({ length: CONVERSATION_SHARDS }, (_, shard) => shardTag(shard));
}

/** The cluster slot of a full key (prefix included), as Redis computes it (CRC16 of the hash tag, mod 16384). */
export function slotOf(fullKey: string): number {
  return keySlot(fullKey);
}

/**
 * Throws when `fullKeys` do not all hash to one slot. Both stores call it for every
 * MULTI and script, so a key layout that would fail on a cluster (CROSSSLOT) fails in
 * every test, on a single Redis and in memory too.
 */
export function assertOneSlot(what: string, fullKeys: readonly string[]): void {
  if (fullKeys.length < 2) return;
  const first = keySlot(fullKeys[0]!);
  for (const key of fullKeys) {
    const slot = keySlot(key);
    if (slot !== first) {
      throw new Error(
        `${what} keys span slots: ${fullKeys[0]} (slot ${first}), ${key} (slot ${slot}) — ` +
          'keys of one atomic step must share a hash tag (see src/state/slots.ts)',
      );
    }
  }
}
