/**
 * Reading one index per conversation shard (slots.ts): the pending queues, the in-flight
 * answers, the handoff outbox and paused list are each split into CONVERSATION_SHARDS sorted
 * sets or sets, and whoever lists them walks every shard.
 */
import { allShardTags } from './slots.js';
import type { StateStore } from './types.js';

export interface ShardMember {
  tag: string;
  member: string;
  score: number;
}

/**
 * The members with min ≤ score ≤ max of every shard's sorted set (`index(tag)`), lowest score
 * first, at most `limit` of them: one `batch()` (one MULTI on a single Redis, one per slot sent
 * at once on a cluster). Each shard is asked for `limit`, since one shard may hold all of them.
 */
export async function rangeEveryShard(
  state: StateStore,
  index: (tag: string) => string,
  min: number,
  max: number,
  limit?: number,
): Promise<ShardMember[]> {
  const tags = allShardTags();
  const replies = await state.batch(
    tags.map(
      (tag) =>
        ({ op: 'sortedRangeByScore', key: index(tag), min, max, ...(limit === undefined ? {} : { limit }) }) as const,
    ),
  );
  const all = tags
    .flatMap((tag, at) =>
      (replies[at] as { member: string; score: number }[]).map(({ member, score }) => ({ tag, member, score })),
    )
    .sort((a, b) => a.score - b.score);
  return limit === undefined ? all : all.slice(0, limit);
}
