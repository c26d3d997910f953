/**
 * Every state key the gateway core uses (logical keys; the store adds its `cb:`
 * prefix). One place, so the README's key table and the code cannot drift.
 *
 * Where keys live (src/state/slots.ts): every per-conversation key carries the hash tag of
 * the conversation's shard right after its kind (`queue:{c17}:main:telegram:42`), and the
 * hash indexing conversations with queued messages and their owners is one per shard (`queues:owners:{c17}`),
 * so every queue step (offer, claim, advance: one script each) and every turn's MULTI touches
 * one Redis Cluster slot. Per-user and per-chatbot keys (`rate:`, `monthly:`, `settings:`) have
 * no tag: they are never written in one MULTI with a conversation's keys (`batch()` instead).
 */
import type { ConversationQueueKeys, StateStore } from '../state/index.js';
import { allShardTags, conversationShard, shardTag } from '../state/slots.js';
import type { ConversationRef } from '../contract.js';

/** The hash tag of a conversation's shard, `{cN}`: every key of the conversation carries it. */
export function conversationTag(c: ConversationRef): string {
  return shardTag(conversationShard(c.bot, c.platform, c.id));
}

/** `{cN}:<bot>:<platform>:<id>`: the tagged part of every per-conversation key. */
export function taggedConversation(c: ConversationRef): string {
  return `${conversationTag(c)}:${c.bot}:${c.platform}:${c.id}`;
}

const conv = taggedConversation;

/** The hash of the conversations with queued messages in the shard of hash tag `tag`, and who answers each. */
const ownersKey = (tag: string): string => `queues:owners:${tag}`;
/** The set of conversations with queued messages in the shard of hash tag `tag`, as versions before owner fields kept it. */
const pendingKey = (tag: string): string => `queues:pending:${tag}`;

/** The pub/sub channel of /stop requests: every process stops the turn it runs of the conversation named. */
export const STOP_CHANNEL = 'gateway:stop';

export const gatewayKeys = {
  /** SET NX marker of a platform message already accepted (TTL policy.dedupeTtlMs, or the adapter's longer capabilities.redeliveryWindowMs). */
  dedupe: (c: ConversationRef, platformMessageId: string) => `dedupe:${conv(c)}:${platformMessageId}`,
  /** FIFO list of queued messages (JSON QueuedMessage); the head is being answered. */
  queue: (c: ConversationRef) => `queue:${conv(c)}`,
  /**
   * Hash of the conversations with queued messages in the conversation's shard (fields: JSON [bot, platform, id]),
   * each field the owner of the conversation's lock: the token of the process answering it, '' for nobody.
   */
  owners: (c: ConversationRef) => ownersKey(conversationTag(c)),
  /** The same hash, by shard tag: what the sweep walks (every tag of allShardTags()). */
  ownersOfShard: ownersKey,
  /** Lock of the process answering the conversation, as versions before owner fields kept it (random token, TTL policy.lockTtlMs). */
  lock: (c: ConversationRef) => `lock:${conv(c)}`,
  /** Set of the conversations with queued messages in the conversation's shard, as versions before owner fields kept it. */
  pending: (c: ConversationRef) => pendingKey(conversationTag(c)),
  pendingOfShard: pendingKey,
  /** The Chatbot Service sessionID of a conversation (TTL policy.sessionIdleTtlMs, renewed by each message; /reset deletes it). */
  session: (c: ConversationRef) => `session:${conv(c)}`,
  /** Fixed-window counter of one user's messages (TTL RateLimitTime). No tag: per user, not per conversation. */
  rate: (c: ConversationRef, userId: string) => `rate:${c.bot}:${c.platform}:${userId}`,
  /** Messages answered for one chatbot in one calendar month of its TimeZone (TTL ~2 months). No tag: per chatbot. */
  monthly: (serialNumber: string, month: string) => `monthly:${serialNumber}:${month}`,
  /** Capped list of JSON TranscriptEntry (policy.transcriptMaxEntries, TTL policy.transcriptTtlMs). */
  transcript: (c: ConversationRef) => `transcript:${conv(c)}`,
  /**
   * List of the transcript's older entries packed as compressed chunks (src/gateway/stores/transcript-pack.ts), oldest
   * first; `transcript` then holds only the entries written since the last packing. Same lifetime as the transcript.
   */
  transcriptPacks: (c: ConversationRef) => `transcript-packs:${conv(c)}`,
  /*
   * No `failures:` any more: the upstream failures in a row are the handoff's to count, in the conversation's pause hash
   * (src/handoff/pause/pause-store.ts). A replica of an earlier version still counts in `failures:<conv>` during a rolling
   * upgrade (README, State keys); this version neither reads nor writes it, and it expires a day after its first count.
   */
  /**
   * Turns started for one queued message (cut off or not), counted in the first batch of a turn that may follow a cut-off
   * one; deleted, when the message leaves the queue, by the turn that counted (poison limit, turn/poison-limit.ts).
   */
  attempts: (c: ConversationRef, platformMessageId: string) => `attempts:${conv(c)}:${platformMessageId}`,
  /**
   * JSON: the queued message waiting for the Chatbot Service to come back, since when, tries so far; deleted, when the
   * message leaves the queue, by the turn that waited or one that followed it (turn/poison-limit.ts forgetWhenLeaving).
   */
  upstreamWait: (c: ConversationRef) => `upstream-wait:${conv(c)}`,
  /** Marks that a /stop (its platform message id) stopped an answer, written with that answer's advance, read by the /stop turn (10 minutes). */
  stopped: (c: ConversationRef, platformMessageId: string) => `stopped:${conv(c)}:${platformMessageId}`,
  /** Hash mirror of a chatbot's settings, one field per setting, values JSON-encoded. No tag: per chatbot. */
  settings: (serialNumber: string) => `settings:${serialNumber}`,
};

/** The member of the pending set for a conversation; ids may contain ':' so it is JSON. */
export function conversationMember(c: ConversationRef): string {
  return JSON.stringify([c.bot, c.platform, c.id]);
}

export function parseConversationMember(member: string): ConversationRef | null {
  try {
    const parsed: unknown = JSON.parse(member);
    if (Array.isArray(parsed) && parsed.length === 3 && parsed.every((part) => typeof part === 'string')) {
      const [bot, platform, id] = parsed as [string, string, string];
      return { bot, platform, id };
    }
  } catch {
    // not ours: fall through
  }
  return null;
}

/**
 * The keys of a conversation's queue steps: all under the conversation's tag (one slot); with `keepLegacy`, the
 * layout of versions before owner fields too (drain/queue-layout.ts).
 */
export function queueKeys(c: ConversationRef, keepLegacy = false): ConversationQueueKeys {
  const own = { queue: gatewayKeys.queue(c), owners: gatewayKeys.owners(c), member: conversationMember(c) };
  return keepLegacy ? { ...own, legacy: { lock: gatewayKeys.lock(c), pending: gatewayKeys.pending(c) } } : own;
}

/**
 * The conversations with queued messages, each with the owner of its lock (null: indexed only in the legacy set, by
 * a replica of an older version): one pipelined read of every shard (one round trip on a single Redis, one per master
 * on a cluster), not one await per shard; with `legacy`, of the legacy sets too.
 */
export async function queueOwners(state: StateStore, legacy = false): Promise<Map<string, string | null>> {
  const tags = allShardTags();
  const reads = [
    ...tags.map((tag) => ({ op: 'hashGetAll', key: ownersKey(tag) }) as const),
    ...(legacy ? tags.map((tag) => ({ op: 'setMembers', key: pendingKey(tag) }) as const) : []),
  ];
  const results = await state.batch(reads);
  const owners = new Map<string, string | null>();
  for (const members of results.slice(tags.length) as string[][])
    for (const member of members) owners.set(member, null);
  for (const fields of results.slice(0, tags.length) as Record<string, string>[])
    for (const [member, owner] of Object.entries(fields)) owners.set(member, owner);
  return owners;
}

/** The conversations with queued messages (or being answered), of every shard. */
export async function pendingMembers(state: StateStore): Promise<string[]> {
  return [...(await queueOwners(state)).keys()];
}
