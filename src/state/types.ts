/**
 * The narrow state interface (DESIGN.md §4). Everything chatbridge keeps between
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
export interface StateStore {
  readonly kind: 'redis' | 'memory';

  get(key: string): Promise<string | null>;
  getMany(keys: readonly string[]): Promise<(string | null)[]>;
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /** SET NX: true when this call created the key (dedupe, one-time claims). */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
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

  setAdd(key: string, ...members: string[]): Promise<number>;
  setRemove(key: string, ...members: string[]): Promise<number>;
  setMembers(key: string): Promise<string[]>;

  sortedAdd(key: string, score: number, member: string): Promise<void>;
  /** Members with min ≤ score ≤ max, lowest score first. */
  sortedRangeByScore(key: string, min: number, max: number, limit?: number): Promise<{ member: string; score: number }[]>;
  sortedRemove(key: string, ...members: string[]): Promise<number>;
  sortedScore(key: string, member: string): Promise<number | null>;

  /** A lock owned by a random token; null when someone else holds it. */
  acquireLock(key: string, ttlMs: number): Promise<string | null>;
  /** Extends the lock only if `token` still owns it (heartbeat). */
  extendLock(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock only if `token` still owns it. */
  releaseLock(key: string, token: string): Promise<boolean>;

  /** Runs the commands as one unit (MULTI/EXEC) and returns each result in order. */
  atomic(commands: readonly AtomicCommand[]): Promise<unknown[]>;

  /** Deletes every key under this store's prefix (tests, `chatbridge reset-state`). */
  deleteByPrefix(subPrefix?: string): Promise<number>;
  /** Liveness check for /readyz and `chatbridge doctor`. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The commands `atomic()` accepts: a deliberately small subset, implemented by both stores. */
export type AtomicCommand =
  | { op: 'get'; key: string }
  | { op: 'set'; key: string; value: string; ttlMs?: number }
  | { op: 'setIfAbsent'; key: string; value: string; ttlMs?: number }
  | { op: 'del'; key: string }
  | { op: 'incr'; key: string; by?: number }
  | { op: 'expire'; key: string; ttlMs: number }
  | { op: 'hashSet'; key: string; fields: Record<string, string> }
  | { op: 'hashDel'; key: string; field: string }
  | { op: 'listPush'; key: string; values: string[]; maxLength?: number }
  | { op: 'listLength'; key: string }
  | { op: 'setAdd'; key: string; member: string }
  | { op: 'setRemove'; key: string; member: string }
  | { op: 'sortedAdd'; key: string; score: number; member: string }
  | { op: 'sortedRemove'; key: string; member: string };

export const DEFAULT_KEY_PREFIX = 'cb:';
