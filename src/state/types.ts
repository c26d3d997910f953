/**
 * The narrow state interface (docs/architecture.md §5). Everything chatbridge keeps between
 * messages goes through it: the gateway's sessions, queues, locks, windows and
 * transcripts, and the embedded service's own data.
 *
 * Keys passed in are logical (`session:telegram:main:42`); the store adds its
 * namespace prefix (`cb:` by default), so two deployments or two test runs can
 * share one Redis without seeing each other.
 *
 * Every method is one round trip on Redis. Steps that must happen together go
 * through `atomic()` (MULTI/EXEC on Redis) or one of the lock methods (Lua).
 */
import type { ChannelListener, SubscribeOptions } from './channels.js';

export interface StateStore {
  readonly kind: 'redis' | 'memory';

  get(key: string): Promise<string | null>;
  getMany(keys: readonly string[]): Promise<(string | null)[]>;
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /** SET NX: true when this call created the key (dedupe, one-time claims). */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
  /** A binary value as it is (no text encoding): WhatsApp's zipped browser profile. */
  getBytes(key: string): Promise<Uint8Array | null>;
  setBytes(key: string, value: Uint8Array, options?: { ttlMs?: number }): Promise<void>;
  del(...keys: string[]): Promise<number>;
  /** Remaining lifetime in ms; -1 when the key has no expiry, -2 when it does not exist. */
  ttlMs(key: string): Promise<number>;
  expire(key: string, ttlMs: number): Promise<boolean>;
  /** INCRBY; when the counter is created by this call and ttlMs is given, it expires after ttlMs. */
  incr(key: string, by?: number, ttlMs?: number): Promise<number>;

  hashSet(key: string, fields: Record<string, string>): Promise<void>;
  hashGet(key: string, field: string): Promise<string | null>;
  hashGetAll(key: string): Promise<Record<string, string>>;
  hashDel(key: string, ...fields: string[]): Promise<number>;
  hashIncr(key: string, field: string, by?: number): Promise<number>;

  /** RPUSH, then keep only the newest `maxLength` entries when given. Returns the new length. */
  listPush(key: string, values: readonly string[], options?: { maxLength?: number; ttlMs?: number }): Promise<number>;
  listPopFront(key: string): Promise<string | null>;
  /** Inclusive range with Redis semantics (negative indexes count from the end). */
  listRange(key: string, start: number, stop: number): Promise<string[]>;
  listLength(key: string): Promise<number>;
  /**
   * LSET at `index` only while it still holds `expected` (a compare and set: a Lua script on Redis); false when
   * the entry there changed or the list is shorter. A queued message edited in place (gateway/intake/revise.ts).
   */
  listReplace(key: string, index: number, expected: string, value: string): Promise<boolean>;
  /**
   * Moves a list into one bytes entry of another list (a transcript's packed chunks), atomically: when `list` still
   * holds `expected.length` entries, the last being `expected.last`, appends `chunk` to `packs`, keeps its newest
   * `maxChunks`, gives it the list's remaining lifetime (the packs' own when the list has none, `ttlMs` when neither has one) and deletes
   * `list`; true. Otherwise writes nothing; false. Both keys in one Cluster slot.
   */
  listPackInto(
    list: string,
    packs: string,
    expected: { length: number; last: string },
    chunk: Uint8Array,
    options: { maxChunks: number; ttlMs: number },
  ): Promise<boolean>;
  /** LRANGE of a list whose entries are bytes (listPackInto's). */
  listRangeBytes(key: string, start: number, stop: number): Promise<Uint8Array[]>;

  setAdd(key: string, ...members: string[]): Promise<number>;
  setRemove(key: string, ...members: string[]): Promise<number>;
  setMembers(key: string): Promise<string[]>;

  sortedAdd(key: string, score: number, member: string): Promise<void>;
  /** Members with min ≤ score ≤ max, lowest score first. */
  sortedRangeByScore(
    key: string,
    min: number,
    max: number,
    limit?: number,
  ): Promise<{ member: string; score: number }[]>;
  sortedRemove(key: string, ...members: string[]): Promise<number>;
  sortedScore(key: string, member: string): Promise<number | null>;

  /** A lock owned by a random token; null when someone else holds it. */
  acquireLock(key: string, ttlMs: number): Promise<string | null>;
  /** Extends the lock only if `token` still owns it (heartbeat). */
  extendLock(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock only if `token` still owns it. */
  releaseLock(key: string, token: string): Promise<boolean>;

  /**
   * Runs the commands as one unit (MULTI/EXEC) and returns each result in order. Every key
   * must hash to one slot (share a hash tag, see slots.ts): a Redis Cluster refuses a MULTI
   * across slots, and a store made with `checkSlots` refuses it everywhere.
   */
  atomic(commands: readonly AtomicCommand[]): Promise<unknown[]>;
  /**
   * Runs the commands and returns each result in order, in one round trip, with keys in any
   * slots. The commands of one slot run as one unit (one MULTI per slot on a cluster, the
   * groups sent at once; one MULTI for all on a single Redis), but there is no atomicity
   * across slots: on a cluster one slot's group may fail while another's is applied. For a
   * step whose conversation keys must change together and whose per-user or per-chatbot
   * counters only ride along (turn/first-batch.ts).
   */
  batch(commands: readonly AtomicCommand[]): Promise<unknown[]>;
  /**
   * As batch(), with no unit at all: each command applied as if sent alone, in order, all in one
   * round trip. For reads and counters that need no atomicity with one another (a turn's first
   * batch when no claim rides on it): Redis runs no MULTI/EXEC around them.
   */
  pipeline(commands: readonly AtomicCommand[]): Promise<unknown[]>;

  /**
   * Compare and set on a hash: when every field of `expected` holds the value given in the hash at `key` (null: the
   * field is absent), runs `writes` in the same atomic step (a Lua script on Redis) and answers `{ applied: true }`;
   * otherwise writes nothing and answers the hash as it is. The writes are writes only (no reads, no claimHead), and
   * share `key`'s slot. For a decision two processes may take at once on the same record (an operator's claim).
   */
  hashCompareAndRun(
    key: string,
    expected: Readonly<Record<string, string | null>>,
    writes: readonly AtomicCommand[],
  ): Promise<HashCompareResult>;

  /*
   * The conversation queue (src/gateway/drain/conversation-queue.ts): a FIFO list, and a hash per shard whose field of
   * the conversation says who answers it (the owner: the holder's token, `''` for nobody) while it has queued messages.
   * Each step is one atomic round trip, so no message can slip in between "the queue looked empty" and "the lock was
   * released" (the Vercel Chat SDK's github.com/vercel/chat/issues/928). An owner field has no lifetime: a holder
   * renews it by changing it (`queueRenew`), and a holder that stopped renewing is told by a sweep seeing the same
   * owner for longer than the lock's lifetime (src/gateway/drain/owner-watch.ts), which then claims it with that owner
   * as `expectedOwner`.
   */

  /**
   * Dedupe + capped push + claim, atomically: drops the entry when `dedupeKey`
   * exists (a redelivery), refuses it when the queue already holds `maxLength`
   * entries, otherwise appends it, indexes the conversation in `owners`, and takes
   * the lock when nobody holds it (`claim` then carries the token and the queue's head).
   */
  queueOffer(keys: ConversationQueueKeys, entry: string, options: QueueOfferOptions): Promise<QueueOfferResult>;
  /**
   * Takes the lock of a queue that has entries (orphan takeover) when nobody holds it or its owner is still
   * `expectedOwner` (a holder seen to stop renewing); null when someone else holds it or nothing is queued.
   */
  queueClaim(keys: ConversationQueueKeys, lockTtlMs: number, expectedOwner?: string): Promise<QueueClaim | null>;
  /**
   * Runs `also` (e.g. transcript and counter updates) and then, if `token` still
   * owns the lock: removes the head (the first `options.answered.length` entries when
   * given: a burst answered as one), and either keeps the lock and returns the
   * next head, or releases the lock and unindexes the conversation when the queue
   * is empty. `owned: false` when the lock was lost (nothing was removed).
   */
  queueAdvance(
    keys: ConversationQueueKeys,
    token: string,
    lockTtlMs: number,
    also?: readonly AtomicCommand[],
    options?: QueueAdvanceOptions,
  ): Promise<QueueAdvanceResult>;
  /** Heartbeat: changes the owner of a lock `token` still owns, so that sweeps see it alive; false when it is not ours. */
  queueRenew(keys: ConversationQueueKeys, token: string, lockTtlMs: number): Promise<boolean>;
  /** Lets go of a lock `token` still owns without removing anything (stopping): the next claim answers the head. */
  queueRelease(keys: ConversationQueueKeys, token: string): Promise<boolean>;

  /**
   * Publish/subscribe (the inbox's live updates): a message published on `channel` (under the
   * store's prefix) reaches the listeners of that channel in every process sharing this store, this
   * one included; on a Redis Cluster too (PUBLISH is broadcast to every node). At most once: a
   * subscriber whose connection is down misses what is published meanwhile (onResubscribed tells it
   * when it is back, where the store can know). Not ordered across messages on a Cluster: each
   * PUBLISH may enter at another node, so two published in turn may arrive swapped. One subscriber
   * connection per store, however many listeners. A listener must not throw: its exception is
   * reported as a connection error would be.
   */
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once Redis confirmed the subscription; the function returned removes this listener. */
  subscribe(channel: string, listener: ChannelListener, options?: SubscribeOptions): Promise<() => Promise<void>>;

  /** Deletes every key under this store's prefix (tests, `chatbridge reset-state`). */
  deleteByPrefix(subPrefix?: string): Promise<number>;
  /** Liveness check for /readyz and `chatbridge doctor`. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The commands `atomic()` accepts: a deliberately small subset, implemented by both stores. */
export type AtomicCommand =
  /** With ttlMs: an existing key's lifetime is renewed to ttlMs as it is read (GETEX: one command for a read and its renewal). */
  | { op: 'get'; key: string; ttlMs?: number }
  | { op: 'set'; key: string; value: string; ttlMs?: number }
  | { op: 'setIfAbsent'; key: string; value: string; ttlMs?: number }
  | { op: 'del'; key: string }
  /**
   * With ttlMs: a counter created by this command expires after ttlMs (an existing one keeps its expiry).
   * `from` (with ttlMs): what a counter this command creates counts from before `by` is added (default 0).
   */
  | { op: 'incr'; key: string; by?: number; ttlMs?: number; from?: number }
  | { op: 'expire'; key: string; ttlMs: number }
  | { op: 'hashSet'; key: string; fields: Record<string, string> }
  | { op: 'hashDel'; key: string; field: string }
  /** The whole hash ({} when absent), as hashGetAll. */
  | { op: 'hashGetAll'; key: string }
  /** RPUSH, then keep only the newest `maxLength` entries; the result is the length after the trim. */
  /**
   * With ttlMs: a list this push creates expires after ttlMs; an existing one's lifetime is set to ttlMs
   * too only with `renewTtl` (the transcript renews its lifetime once a day, not at every push).
   */
  | { op: 'listPush'; key: string; values: string[]; maxLength?: number; ttlMs?: number; renewTtl?: boolean }
  | { op: 'listLength'; key: string }
  /** As listRange: inclusive, negative indexes count from the end. */
  | { op: 'listRange'; key: string; start: number; stop: number }
  | { op: 'setAdd'; key: string; member: string }
  | { op: 'setRemove'; key: string; member: string }
  | { op: 'setMembers'; key: string }
  | { op: 'sortedAdd'; key: string; score: number; member: string }
  | { op: 'sortedRemove'; key: string; member: string }
  /** As sortedRangeByScore: `{ member, score }[]`, lowest score first, at most `limit`. */
  | { op: 'sortedRangeByScore'; key: string; min: number; max: number; limit?: number }
  /**
   * Takes the free lock of a conversation queue (its field in `key`, the shard's owners) expected to start with
   * `head`, with the token the caller chose: the claim of a conversation back from the line rides on its turn's
   * first batch (drains.ts) instead of costing a round trip of its own. The result is a HeadClaim.
   */
  | {
      op: 'claimHead';
      key: string;
      queue: string;
      member: string;
      token: string;
      ttlMs: number;
      head: string;
      legacy?: LegacyQueueKeys;
    };

/** A command of `atomic()` / `batch()` by its op. */
export type AtomicCommandOf<Op extends AtomicCommand['op']> = Extract<AtomicCommand, { op: Op }>;

/** The lock claim that rides on a turn's first batch (conversation-queue.ts `headClaim`). */
export type ClaimHeadCommand = AtomicCommandOf<'claimHead'>;

/**
 * What each command answers in `atomic()` and `batch()`, by its op: both stores give these
 * shapes (src/state/redis/replies.ts normalizes Redis's replies to them).
 */
export interface AtomicResults {
  get: string | null;
  set: undefined;
  setIfAbsent: boolean;
  del: number;
  incr: number;
  expire: boolean;
  hashSet: undefined;
  hashDel: number;
  hashGetAll: Record<string, string>;
  listPush: number;
  listLength: number;
  listRange: string[];
  setAdd: number;
  setRemove: number;
  setMembers: string[];
  sortedAdd: undefined;
  sortedRemove: number;
  sortedRangeByScore: { member: string; score: number }[];
  claimHead: HeadClaim;
}

/** The result of one command in `atomic()` / `batch()`. */
export type AtomicResult<C extends AtomicCommand> = AtomicResults[C['op']];

/** What `hashCompareAndRun` found: its writes applied, or the hash as it was instead ({} when absent). */
export type HashCompareResult = { applied: true } | { applied: false; current: Record<string, string> };

export const DEFAULT_KEY_PREFIX = 'cb:';

export interface ConversationQueueKeys {
  /** The FIFO list; its head is the message being answered. */
  queue: string;
  /**
   * The hash of the shard's conversations with queued messages (or being answered): the conversation's field
   * (`member`) holds its owner, the token of the process answering it (`<token>` or `<token>#<renewal>`), or `''`
   * while nobody does.
   */
  owners: string;
  member: string;
  /** Present while replicas of a version before owner fields may run (gateway/drain/queue-layout.ts): kept beside. */
  legacy?: LegacyQueueKeys;
}

/**
 * The layout of versions before owner fields: a lock string per conversation (its token, a lifetime renewed by the
 * holder) and a set per shard indexing the conversations with queued messages. While it is kept beside the owners,
 * a claim takes both (an older replica sees the lock), a renewal renews both, a release or an empty queue frees both.
 */
export interface LegacyQueueKeys {
  lock: string;
  pending: string;
}

export interface QueueOfferOptions {
  dedupeKey: string;
  dedupeTtlMs: number;
  /** Most entries the queue may hold; an offer beyond it is refused with `full`. */
  maxLength: number;
  lockTtlMs: number;
  /**
   * false: append without taking the lock, and say whether it is free (`lockFree`), for a
   * caller that cannot answer now (no free slot) and would only let the lock go again.
   */
  claim?: boolean;
}

export interface QueueAdvanceOptions {
  /**
   * The entries the turn answered, as it read them (default: the head alone). As many are removed, and the
   * result counts those that changed since (`changed`: a message edited or deleted after its answer started).
   */
  answered?: readonly string[];
  /**
   * Let the lock go even when entries remain (the holder yields to conversations waiting for
   * a slot); the conversation stays indexed in `owners`, owned by nobody. The result then says `letGo: true`.
   */
  letGo?: boolean;
}

export interface QueueClaim {
  token: string;
  head: string;
}

export type QueueOfferResult =
  | { outcome: 'duplicate' }
  | { outcome: 'full'; length: number }
  /** `lockFree` only with `claim: false`: nobody holds the lock (nobody answers this conversation now). */
  | { outcome: 'queued'; length: number; claim: QueueClaim | null; lockFree?: boolean };

/**
 * What a `claimHead` command found. `claimed`: the lock is the caller's and the head is the one
 * expected. `other-head`: the lock is the caller's, but the expected head was answered meanwhile
 * (by another process) and `head` is first now. `taken`: someone else holds the lock. `empty`:
 * nothing is queued any more (the lock is not taken, and the conversation leaves `owners`).
 */
export type HeadClaim =
  { outcome: 'claimed' } | { outcome: 'other-head'; head: string } | { outcome: 'taken' } | { outcome: 'empty' };

/** `changed`: how many of the entries removed differ from those the turn answered (QueueAdvanceOptions.answered). */
export type QueueAdvanceResult =
  { owned: false } | { owned: true; next: string | null; letGo?: boolean; changed?: number };
