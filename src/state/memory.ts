import { randomUUID } from 'node:crypto';
import { Channels, type ChannelListener, type SubscribeOptions } from './channels.js';
import { assertCommandsInOneSlot } from './command-keys.js';
import { MemoryQueueSteps } from './memory-queue.js';
import {
  DEFAULT_KEY_PREFIX,
  type AtomicCommand,
  type ConversationQueueKeys,
  type HashCompareResult,
  type QueueAdvanceOptions,
  type QueueAdvanceResult,
  type QueueClaim,
  type QueueOfferOptions,
  type QueueOfferResult,
  type StateStore,
} from './types.js';

/** The commands that read or claim: not writes, so not what a compare and set runs. */
const READ_OPS: ReadonlySet<AtomicCommand['op']> = new Set([
  'get',
  'hashGetAll',
  'listLength',
  'setMembers',
  'sortedRangeByScore',
  'claimHead',
]);

type Value =
  | { type: 'string'; data: string }
  | { type: 'bytes'; data: Uint8Array }
  | { type: 'hash'; data: Map<string, string> }
  | { type: 'list'; data: string[] }
  | { type: 'set'; data: Set<string> }
  | { type: 'zset'; data: Map<string, number> };

interface Entry {
  value: Value;
  expiresAt: number | null;
}

class WrongTypeError extends Error {
  constructor(key: string, expected: string) {
    super(`state key "${key}" holds another kind of value than ${expected}`);
  }
}

/**
 * In-process state for the embedded default (no REDIS_URL). Same semantics as the
 * Redis store, lost on restart, and not shared between processes. Node runs one
 * callback at a time and every method changes the entries before its first await,
 * so each method (and `atomic`, which starts all its commands at once) is atomic.
 */
export class MemoryStateStore implements StateStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly prefix: string;
  private readonly checkSlots: boolean;
  /** In memory, "every process sharing the store" is this one: what a listener throws goes to the publisher. */
  private readonly listenerErrors: unknown[] = [];
  private readonly channels = new Channels((error) => this.listenerErrors.push(error));
  private readonly queue: MemoryQueueSteps;

  /** checkSlots: refuse atomic steps whose keys span hash slots, as a Redis Cluster would (see RedisStateOptions). */
  constructor(options: { prefix?: string; checkSlots?: boolean } = {}) {
    this.prefix = options.prefix ?? DEFAULT_KEY_PREFIX;
    this.checkSlots = options.checkSlots ?? true;
    this.queue = new MemoryQueueSteps({
      prefix: this.prefix,
      checkSlots: this.checkSlots,
      list: (key, create) => this.typed(key, 'list', create)?.data,
      hash: (key, create) => this.typed(key, 'hash', create)?.data,
      exists: (key) => this.live(key) !== undefined,
      setString: (key, value, ttlMs) => this.setString(key, value, ttlMs),
      dropIfEmpty: (key) => this.dropIfEmpty(key),
      runAll: (commands) => this.runAll(commands),
    });
  }

  private live(key: string): Entry | undefined {
    const full = this.prefix + key;
    const entry = this.entries.get(full);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      this.entries.delete(full);
      return undefined;
    }
    return entry;
  }

  private typed<T extends Value['type']>(
    key: string,
    type: T,
    create: boolean,
  ): Extract<Value, { type: T }> | undefined {
    const entry = this.live(key);
    if (entry) {
      if (entry.value.type !== type) throw new WrongTypeError(key, type);
      return entry.value as Extract<Value, { type: T }>;
    }
    if (!create) return undefined;
    const initial = {
      string: () => '',
      bytes: () => new Uint8Array(),
      hash: () => new Map(),
      list: () => [],
      set: () => new Set(),
      zset: () => new Map(),
    }[type]();
    const value = { type, data: initial } as Extract<Value, { type: T }>;
    this.entries.set(this.prefix + key, { value, expiresAt: null });
    return value;
  }

  /** Redis deletes a collection when its last element goes; so do we. */
  private dropIfEmpty(key: string): void {
    const entry = this.live(key);
    if (!entry) return;
    const v = entry.value;
    const size = v.type === 'string' || v.type === 'bytes' ? 1 : v.type === 'list' ? v.data.length : v.data.size;
    if (size === 0) this.entries.delete(this.prefix + key);
  }

  async get(key: string): Promise<string | null> {
    return this.typed(key, 'string', false)?.data ?? null;
  }
  private async getRenewing(key: string, ttlMs: number | undefined): Promise<string | null> {
    const value = await this.get(key);
    if (ttlMs && value !== null) await this.expire(key, ttlMs);
    return value;
  }
  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    return keys.map((key) => this.typed(key, 'string', false)?.data ?? null);
  }
  async set(key: string, value: string, options: { ttlMs?: number } = {}): Promise<void> {
    this.entries.set(this.prefix + key, {
      value: { type: 'string', data: value },
      expiresAt: options.ttlMs ? Date.now() + options.ttlMs : null,
    });
  }
  async getBytes(key: string): Promise<Uint8Array | null> {
    const data = this.typed(key, 'bytes', false)?.data;
    // A copy, as Redis would give: the caller may change it without changing the store.
    return data ? Uint8Array.from(data) : null;
  }
  async setBytes(key: string, value: Uint8Array, options: { ttlMs?: number } = {}): Promise<void> {
    this.entries.set(this.prefix + key, {
      value: { type: 'bytes', data: Uint8Array.from(value) },
      expiresAt: options.ttlMs ? Date.now() + options.ttlMs : null,
    });
  }
  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    if (this.live(key)) return false;
    await this.set(key, value, ttlMs ? { ttlMs } : {});
    return true;
  }
  async del(...keys: string[]): Promise<number> {
    let removed = 0;
    for (const key of keys) if (this.live(key) && this.entries.delete(this.prefix + key)) removed++;
    return removed;
  }
  async ttlMs(key: string): Promise<number> {
    const entry = this.live(key);
    if (!entry) return -2;
    return entry.expiresAt === null ? -1 : entry.expiresAt - Date.now();
  }
  async expire(key: string, ttlMs: number): Promise<boolean> {
    const entry = this.live(key);
    if (!entry) return false;
    entry.expiresAt = Date.now() + ttlMs;
    return true;
  }
  async incr(key: string, by = 1, ttlMs?: number): Promise<number> {
    const existed = this.live(key) !== undefined;
    const value = this.typed(key, 'string', true)!;
    const current = value.data === '' ? 0 : Number(value.data);
    if (!Number.isInteger(current)) throw new Error(`state key "${key}" does not hold an integer`);
    value.data = String(current + by);
    if (!existed && ttlMs) await this.expire(key, ttlMs);
    return current + by;
  }

  /** As the Redis store's SET NX of `from` and INCRBY: a counter this call creates starts at `from` (no await before the change, as runAll needs). */
  private incrFrom(key: string, from: number, by: number, ttlMs: number): Promise<number> {
    return this.incr(key, this.live(key) === undefined ? from + by : by, ttlMs);
  }

  async hashSet(key: string, fields: Record<string, string>): Promise<void> {
    const hash = this.typed(key, 'hash', true)!;
    for (const [field, value] of Object.entries(fields)) hash.data.set(field, value);
  }
  async hashGet(key: string, field: string): Promise<string | null> {
    return this.typed(key, 'hash', false)?.data.get(field) ?? null;
  }
  async hashGetAll(key: string): Promise<Record<string, string>> {
    return Object.fromEntries(this.typed(key, 'hash', false)?.data ?? []);
  }
  async hashDel(key: string, ...fields: string[]): Promise<number> {
    const hash = this.typed(key, 'hash', false);
    if (!hash) return 0;
    const removed = fields.filter((field) => hash.data.delete(field)).length;
    this.dropIfEmpty(key);
    return removed;
  }
  async hashIncr(key: string, field: string, by = 1): Promise<number> {
    const hash = this.typed(key, 'hash', true)!;
    const next = Number(hash.data.get(field) ?? '0') + by;
    hash.data.set(field, String(next));
    return next;
  }

  async listPush(
    key: string,
    values: readonly string[],
    options: { maxLength?: number; ttlMs?: number } = {},
  ): Promise<number> {
    const list = this.typed(key, 'list', true)!;
    list.data.push(...values);
    if (options.maxLength !== undefined && list.data.length > options.maxLength)
      list.data.splice(0, list.data.length - options.maxLength);
    if (options.ttlMs) await this.expire(key, options.ttlMs);
    return list.data.length;
  }
  async listPopFront(key: string): Promise<string | null> {
    const list = this.typed(key, 'list', false);
    const value = list?.data.shift() ?? null;
    this.dropIfEmpty(key);
    return value;
  }
  async listRange(key: string, start: number, stop: number): Promise<string[]> {
    const data = this.typed(key, 'list', false)?.data ?? [];
    const from = start < 0 ? Math.max(data.length + start, 0) : start;
    const to = stop < 0 ? data.length + stop : stop;
    return data.slice(from, to + 1);
  }
  async listLength(key: string): Promise<number> {
    return this.typed(key, 'list', false)?.data.length ?? 0;
  }
  async listReplace(key: string, index: number, expected: string, value: string): Promise<boolean> {
    const data = this.typed(key, 'list', false)?.data;
    if (data?.[index] !== expected) return false;
    data[index] = value;
    return true;
  }

  async listPackInto(
    list: string,
    packs: string,
    expected: { length: number; last: string },
    chunk: Uint8Array,
    options: { maxChunks: number; ttlMs: number },
  ): Promise<boolean> {
    const data = this.typed(list, 'list', false)?.data ?? [];
    if (data.length !== expected.length || data.at(-1) !== expected.last) return false;
    const left = (key: string) => {
      const entry = this.live(key);
      return entry?.expiresAt == null ? -1 : entry.expiresAt - Date.now();
    };
    // As on Redis: the list's lifetime (written after every chunk, it lives longest), else the packs' own.
    const lifetime = left(list) > 0 ? left(list) : left(packs);
    // Bytes kept as latin1 text, one character per byte: lossless, and the list stays a list of strings.
    await this.listPush(packs, [Buffer.from(chunk).toString('latin1')], { maxLength: options.maxChunks });
    await this.expire(packs, lifetime > 0 ? lifetime : options.ttlMs);
    await this.del(list);
    return true;
  }
  async listRangeBytes(key: string, start: number, stop: number): Promise<Uint8Array[]> {
    return (await this.listRange(key, start, stop)).map((text) => Uint8Array.from(Buffer.from(text, 'latin1')));
  }

  async setAdd(key: string, ...members: string[]): Promise<number> {
    const set = this.typed(key, 'set', true)!;
    const added = members.filter((m) => !set.data.has(m) && set.data.add(m)).length;
    return added;
  }
  async setRemove(key: string, ...members: string[]): Promise<number> {
    const set = this.typed(key, 'set', false);
    if (!set) return 0;
    const removed = members.filter((m) => set.data.delete(m)).length;
    this.dropIfEmpty(key);
    return removed;
  }
  async setMembers(key: string): Promise<string[]> {
    return [...(this.typed(key, 'set', false)?.data ?? [])];
  }

  async sortedAdd(key: string, score: number, member: string): Promise<void> {
    this.typed(key, 'zset', true)!.data.set(member, score);
  }
  async sortedRangeByScore(
    key: string,
    min: number,
    max: number,
    limit?: number,
  ): Promise<{ member: string; score: number }[]> {
    const zset = this.typed(key, 'zset', false);
    if (!zset) return [];
    const matches = [...zset.data]
      .filter(([, score]) => score >= min && score <= max)
      .sort(([ma, a], [mb, b]) => a - b || (ma < mb ? -1 : ma > mb ? 1 : 0))
      .map(([member, score]) => ({ member, score }));
    return limit === undefined ? matches : matches.slice(0, limit);
  }
  async sortedRemove(key: string, ...members: string[]): Promise<number> {
    const zset = this.typed(key, 'zset', false);
    if (!zset) return 0;
    const removed = members.filter((m) => zset.data.delete(m)).length;
    this.dropIfEmpty(key);
    return removed;
  }
  async sortedScore(key: string, member: string): Promise<number | null> {
    return this.typed(key, 'zset', false)?.data.get(member) ?? null;
  }

  async acquireLock(key: string, ttlMs: number): Promise<string | null> {
    const token = randomUUID();
    return (await this.setIfAbsent(key, token, ttlMs)) ? token : null;
  }
  async extendLock(key: string, token: string, ttlMs: number): Promise<boolean> {
    if ((await this.get(key)) !== token) return false;
    return this.expire(key, ttlMs);
  }
  async releaseLock(key: string, token: string): Promise<boolean> {
    if ((await this.get(key)) !== token) return false;
    return (await this.del(key)) === 1;
  }

  async atomic(commands: readonly AtomicCommand[]): Promise<unknown[]> {
    if (this.checkSlots) assertCommandsInOneSlot('atomic()', this.prefix, commands);
    return this.runAll(commands);
  }

  /** In memory a batch is atomic anyway; it may span slots (it is not a MULTI on a cluster). */
  async batch(commands: readonly AtomicCommand[]): Promise<unknown[]> {
    return this.runAll(commands);
  }

  /** In memory nothing comes between the commands: a pipeline is a batch. */
  async pipeline(commands: readonly AtomicCommand[]): Promise<unknown[]> {
    return this.runAll(commands);
  }

  private runAll(commands: readonly AtomicCommand[]): Promise<unknown[]> {
    // A claimHead is one script on Redis: its own keys share a slot even in a batch.
    if (this.checkSlots)
      for (const c of commands) if (c.op === 'claimHead') assertCommandsInOneSlot('claimHead', this.prefix, [c]);
    // Every command is started before anything is awaited: their bodies change the
    // entries synchronously, so no other caller's work can run in between.
    return Promise.all(commands.map((c) => this.runOne(c)));
  }

  async hashCompareAndRun(
    key: string,
    expected: Readonly<Record<string, string | null>>,
    writes: readonly AtomicCommand[],
  ): Promise<HashCompareResult> {
    if (this.checkSlots) assertCommandsInOneSlot('hashCompareAndRun', this.prefix, writes, [key]);
    if (writes.some((c) => READ_OPS.has(c.op))) throw new Error('hashCompareAndRun takes writes only');
    // Read and decided synchronously, and the writes started before anything is awaited: nobody comes in between.
    const hash = this.typed(key, 'hash', false)?.data;
    const holds = Object.entries(expected).every(([field, value]) => (hash?.get(field) ?? null) === value);
    if (!holds) return { applied: false, current: Object.fromEntries(hash ?? []) };
    await this.runAll(writes);
    return { applied: true };
  }

  // The queue's steps: memory-queue.ts.
  async queueOffer(keys: ConversationQueueKeys, entry: string, options: QueueOfferOptions): Promise<QueueOfferResult> {
    return this.queue.offer(keys, entry, options);
  }
  async queueClaim(
    keys: ConversationQueueKeys,
    _lockTtlMs: number,
    expectedOwner?: string,
  ): Promise<QueueClaim | null> {
    return this.queue.claim(keys, expectedOwner);
  }
  queueAdvance(
    keys: ConversationQueueKeys,
    token: string,
    _lockTtlMs: number,
    also: readonly AtomicCommand[] = [],
    options: QueueAdvanceOptions = {},
  ): Promise<QueueAdvanceResult> {
    return this.queue.advance(keys, token, also, options);
  }
  async queueRenew(keys: ConversationQueueKeys, token: string): Promise<boolean> {
    return this.queue.renew(keys, token);
  }
  async queueRelease(keys: ConversationQueueKeys, token: string): Promise<boolean> {
    return this.queue.release(keys, token);
  }

  private setString(key: string, value: string, ttlMs?: number): void {
    this.entries.set(this.prefix + key, {
      value: { type: 'string', data: value },
      expiresAt: ttlMs ? Date.now() + ttlMs : null,
    });
  }

  private runOne(c: AtomicCommand): Promise<unknown> {
    switch (c.op) {
      case 'get':
        return this.getRenewing(c.key, c.ttlMs);
      case 'set':
        return this.set(c.key, c.value, c.ttlMs ? { ttlMs: c.ttlMs } : {});
      case 'setIfAbsent':
        return this.setIfAbsent(c.key, c.value, c.ttlMs);
      case 'del':
        return this.del(c.key);
      case 'incr':
        return c.from && c.ttlMs
          ? this.incrFrom(c.key, c.from, c.by ?? 1, c.ttlMs)
          : this.incr(c.key, c.by ?? 1, c.ttlMs);
      case 'expire':
        return this.expire(c.key, c.ttlMs);
      case 'hashSet':
        return this.hashSet(c.key, c.fields);
      case 'hashDel':
        return this.hashDel(c.key, c.field);
      case 'hashGetAll':
        return this.hashGetAll(c.key);
      case 'listPush': {
        // As the Redis store: a list this push creates gets the lifetime, an existing one only when renewed.
        const ttlMs = c.ttlMs && (c.renewTtl || this.live(c.key) === undefined) ? c.ttlMs : undefined;
        return this.listPush(c.key, c.values, {
          ...(c.maxLength === undefined ? {} : { maxLength: c.maxLength }),
          ...(ttlMs ? { ttlMs } : {}),
        });
      }
      case 'listLength':
        return this.listLength(c.key);
      case 'listRange':
        return this.listRange(c.key, c.start, c.stop);
      case 'setAdd':
        return this.setAdd(c.key, c.member);
      case 'setRemove':
        return this.setRemove(c.key, c.member);
      case 'setMembers':
        return this.setMembers(c.key);
      case 'sortedAdd':
        return this.sortedAdd(c.key, c.score, c.member);
      case 'sortedRemove':
        return this.sortedRemove(c.key, c.member);
      case 'sortedRangeByScore':
        return this.sortedRangeByScore(c.key, c.min, c.max, c.limit);
      case 'claimHead':
        return Promise.resolve(this.queue.claimHead(c));
    }
  }

  async deleteByPrefix(subPrefix = ''): Promise<number> {
    let removed = 0;
    for (const full of [...this.entries.keys()])
      if (full.startsWith(this.prefix + subPrefix) && this.entries.delete(full)) removed++;
    return removed;
  }
  async ping(): Promise<void> {}
  async publish(channel: string, message: string): Promise<void> {
    // Delivered before publish resolves, as a Redis subscriber of the same server would be about then.
    this.channels.deliver(this.prefix + channel, message);
    const errors = this.listenerErrors.splice(0);
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} listener(s) of "${channel}" failed`);
  }
  async subscribe(
    channel: string,
    listener: ChannelListener,
    options?: SubscribeOptions,
  ): Promise<() => Promise<void>> {
    const { remove } = this.channels.add(this.prefix + channel, listener, options);
    return async () => void remove();
  }

  async close(): Promise<void> {}
}
