import { randomUUID } from 'node:crypto';
import { Cluster, type ChainableCommander, type Redis } from 'ioredis';
import { assertCommandsInOneSlot, commandKeys, groupBySlot } from '../command-keys.js';
import type { ChannelListener, SubscribeOptions } from '../channels.js';
import { openClient } from './client.js';
import { RedisPubSub } from './pubsub.js';
import { execOrThrow, runOnChain } from './chain.js';
import { pairsToObject, scoredMembers } from './replies.js';
import { defineScripts, type ScriptedMulti, type ScriptedRedis } from './scripts.js';
import { encodeWrites } from './script-writes.js';
import { RedisQueueSteps } from './queue-steps.js';
import { assertOneSlot } from '../slots.js';
import { formatEndpoint, type RedisTopology } from './topology.js';
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
} from '../types.js';

/** A Redis that stays down would otherwise be reported on every reconnect attempt. */
const CONNECTION_ERROR_REPORT_INTERVAL_MS = 10_000;

interface RedisStateCommonOptions {
  prefix?: string;
  /** Name shown in CLIENT LIST, handy when several gateways share one Redis. */
  connectionName?: string;
  /** Told about connection errors (ioredis reconnects by itself; commands fail with their own error meanwhile). */
  onConnectionError?: (error: Error) => void;
  /**
   * Refuse an atomic step (atomic(), the queue scripts) whose keys span hash slots, on every
   * topology, so a layout that would fail on a cluster (CROSSSLOT) fails on one Redis too.
   * On by default (a few µs per step); off only for tests of what the check itself guards.
   */
  checkSlots?: boolean;
}

/** One server by URL (`redis://`, `rediss://`, `user:pass@`), or any topology. */
export type RedisStateOptions = RedisStateCommonOptions &
  ({ url: string; topology?: undefined } | { topology: RedisTopology; url?: undefined });

export class RedisStateStore implements StateStore {
  readonly kind = 'redis' as const;
  readonly prefix: string;
  readonly topology: RedisTopology;
  private readonly redis: ScriptedRedis;
  /** Set when the topology is a cluster: the same client as `redis`, typed as what it is. */
  private readonly cluster: Cluster | undefined;
  private readonly checkSlots: boolean;
  private readonly pubsub: RedisPubSub;
  private readonly queue: RedisQueueSteps;

  constructor(options: RedisStateOptions) {
    this.prefix = options.prefix ?? DEFAULT_KEY_PREFIX;
    this.topology = options.topology ?? { kind: 'single', url: options.url! };
    this.checkSlots = options.checkSlots ?? true;
    const client = openClient(this.topology, options.connectionName ?? 'chatbridge');
    this.cluster = client instanceof Cluster ? client : undefined;
    const redis = client as Redis;
    // Without a listener ioredis prints every reconnect failure with a stack trace.
    let lastReported = 0;
    const report = (error: Error): void => {
      if (Date.now() - lastReported < CONNECTION_ERROR_REPORT_INTERVAL_MS) return;
      lastReported = Date.now();
      options.onConnectionError?.(error);
    };
    redis.on('error', report);
    this.redis = defineScripts(redis);
    this.pubsub = new RedisPubSub(client, report);
    this.queue = new RedisQueueSteps({
      redis: this.redis,
      cluster: this.cluster,
      prefix: this.prefix,
      checkSlots: this.checkSlots,
      scriptAlone: (script, keyCount, keysAndArgs) => this.scriptAlone(script, keyCount, keysAndArgs),
    });
  }

  /**
   * The underlying connection, for callers that measure or need raw access (benchmarks,
   * the reconnect watch). On a cluster topology it is ioredis' Cluster, which answers the
   * same commands and events (see ScriptedRedis); `clusterClient` has it typed as one.
   */
  get client(): Redis {
    return this.redis;
  }
  get clusterClient(): Cluster | undefined {
    return this.cluster;
  }

  /**
   * What the store is connected to now, for `chatbridge doctor` (after describeTopology):
   * the cluster's state and masters, or the primary Sentinel gave.
   */
  async describeConnection(): Promise<string> {
    if (this.cluster) {
      const info = String(await this.cluster.cluster('INFO'));
      const state = /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown';
      const masters = this.cluster
        .nodes('master')
        .map((node) => formatEndpoint({ host: node.options.host ?? '?', port: node.options.port ?? 0 }));
      return `cluster_state:${state}, ${masters.length} master(s): ${masters.join(', ')}`;
    }
    await this.redis.ping();
    if (this.topology.kind === 'sentinel') {
      const socket = this.redis.stream as { remoteAddress?: string; remotePort?: number };
      return `primary now ${formatEndpoint({ host: socket.remoteAddress ?? '?', port: socket.remotePort ?? 0 })}`;
    }
    return 'answering';
  }

  private k(key: string): string {
    return this.prefix + key;
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.k(key));
  }
  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    const full = keys.map((key) => this.k(key));
    if (!this.cluster) return this.redis.mget(full);
    // A cluster answers MGET only for keys of one slot: one MGET per slot, sent together.
    const values: (string | null)[] = new Array<string | null>(full.length).fill(null);
    await Promise.all(
      groupBySlot(full).map(async (group) => {
        const found = await this.redis.mget(group.map((index) => full[index]!));
        group.forEach((index, at) => (values[index] = found[at] ?? null));
      }),
    );
    return values;
  }
  async set(key: string, value: string, options: { ttlMs?: number } = {}): Promise<void> {
    if (options.ttlMs) await this.redis.set(this.k(key), value, 'PX', options.ttlMs);
    else await this.redis.set(this.k(key), value);
  }
  async getBytes(key: string): Promise<Uint8Array | null> {
    return this.redis.getBuffer(this.k(key));
  }
  async setBytes(key: string, value: Uint8Array, options: { ttlMs?: number } = {}): Promise<void> {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    if (options.ttlMs) await this.redis.set(this.k(key), bytes, 'PX', options.ttlMs);
    else await this.redis.set(this.k(key), bytes);
  }
  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    const result = ttlMs
      ? await this.redis.set(this.k(key), value, 'PX', ttlMs, 'NX')
      : await this.redis.set(this.k(key), value, 'NX');
    return result === 'OK';
  }
  async del(...keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    return this.delFull(keys.map((key) => this.k(key)));
  }
  /** DEL of full keys; on a cluster one DEL per slot (a multi-key DEL must stay in one slot). */
  private async delFull(full: readonly string[]): Promise<number> {
    if (!this.cluster) return this.redis.del(...full);
    const counts = await Promise.all(
      groupBySlot(full).map((group) => this.redis.del(...group.map((index) => full[index]!))),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  }
  async ttlMs(key: string): Promise<number> {
    return this.redis.pttl(this.k(key));
  }
  async expire(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.pexpire(this.k(key), ttlMs)) === 1;
  }
  async incr(key: string, by = 1, ttlMs?: number): Promise<number> {
    if (!ttlMs) return this.redis.incrby(this.k(key), by);
    return this.redis.cbIncrWithTtl(this.k(key), by, String(ttlMs));
  }

  async hashSet(key: string, fields: Record<string, string>): Promise<void> {
    if (Object.keys(fields).length > 0) await this.redis.hset(this.k(key), fields);
  }
  async hashGet(key: string, field: string): Promise<string | null> {
    return this.redis.hget(this.k(key), field);
  }
  async hashGetAll(key: string): Promise<Record<string, string>> {
    return this.redis.hgetall(this.k(key));
  }
  async hashDel(key: string, ...fields: string[]): Promise<number> {
    if (fields.length === 0) return 0;
    return this.redis.hdel(this.k(key), ...fields);
  }
  async hashIncr(key: string, field: string, by = 1): Promise<number> {
    return this.redis.hincrby(this.k(key), field, by);
  }

  async listPush(
    key: string,
    values: readonly string[],
    options: { maxLength?: number; ttlMs?: number } = {},
  ): Promise<number> {
    if (values.length === 0) return this.listLength(key);
    const multi = this.redis.multi().rpush(this.k(key), ...values);
    if (options.maxLength !== undefined) multi.ltrim(this.k(key), -options.maxLength, -1);
    if (options.ttlMs) multi.pexpire(this.k(key), options.ttlMs);
    multi.llen(this.k(key));
    const results = await execOrThrow(multi);
    return Number(results[results.length - 1]);
  }
  async listPopFront(key: string): Promise<string | null> {
    return this.redis.lpop(this.k(key));
  }
  async listRange(key: string, start: number, stop: number): Promise<string[]> {
    return this.redis.lrange(this.k(key), start, stop);
  }
  async listLength(key: string): Promise<number> {
    return this.redis.llen(this.k(key));
  }
  async listReplace(key: string, index: number, expected: string, value: string): Promise<boolean> {
    return (await this.redis.cbListReplace(this.k(key), index, expected, value)) === 1;
  }

  async listPackInto(
    list: string,
    packs: string,
    expected: { length: number; last: string },
    chunk: Uint8Array,
    options: { maxChunks: number; ttlMs: number },
  ): Promise<boolean> {
    const [listKey, packsKey] = [this.k(list), this.k(packs)];
    if (this.checkSlots) assertOneSlot('listPackInto', [listKey, packsKey]);
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const ttlMs = Math.max(1, Math.round(options.ttlMs));
    return (
      (await this.redis.cbListPackInto(
        listKey,
        packsKey,
        expected.length,
        expected.last,
        bytes,
        options.maxChunks,
        ttlMs,
      )) === 1
    );
  }
  async listRangeBytes(key: string, start: number, stop: number): Promise<Uint8Array[]> {
    return this.redis.lrangeBuffer(this.k(key), start, stop);
  }

  async setAdd(key: string, ...members: string[]): Promise<number> {
    if (members.length === 0) return 0;
    return this.redis.sadd(this.k(key), ...members);
  }
  async setRemove(key: string, ...members: string[]): Promise<number> {
    if (members.length === 0) return 0;
    return this.redis.srem(this.k(key), ...members);
  }
  async setMembers(key: string): Promise<string[]> {
    return this.redis.smembers(this.k(key));
  }

  async sortedAdd(key: string, score: number, member: string): Promise<void> {
    await this.redis.zadd(this.k(key), score, member);
  }
  async sortedRangeByScore(
    key: string,
    min: number,
    max: number,
    limit?: number,
  ): Promise<{ member: string; score: number }[]> {
    const flat =
      limit === undefined
        ? await this.redis.zrangebyscore(this.k(key), min, max, 'WITHSCORES')
        : await this.redis.zrangebyscore(this.k(key), min, max, 'WITHSCORES', 'LIMIT', 0, limit);
    return scoredMembers(flat);
  }
  async sortedRemove(key: string, ...members: string[]): Promise<number> {
    if (members.length === 0) return 0;
    return this.redis.zrem(this.k(key), ...members);
  }
  async sortedScore(key: string, member: string): Promise<number | null> {
    const score = await this.redis.zscore(this.k(key), member);
    return score === null ? null : Number(score);
  }

  async acquireLock(key: string, ttlMs: number): Promise<string | null> {
    const token = randomUUID();
    return (await this.setIfAbsent(key, token, ttlMs)) ? token : null;
  }
  async extendLock(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.cbExtendLock(this.k(key), token, ttlMs)) === 1;
  }
  async releaseLock(key: string, token: string): Promise<boolean> {
    return (await this.redis.cbReleaseLock(this.k(key), token)) === 1;
  }

  async atomic(commands: readonly AtomicCommand[]): Promise<unknown[]> {
    if (this.checkSlots) assertCommandsInOneSlot('atomic()', this.prefix, commands);
    return this.run(this.redis.multi(), commands);
  }

  async batch(commands: readonly AtomicCommand[]): Promise<unknown[]> {
    return this.bySlot(commands, () => this.redis.multi());
  }

  async pipeline(commands: readonly AtomicCommand[]): Promise<unknown[]> {
    return this.bySlot(commands, () => this.redis.pipeline());
  }

  /**
   * One chain for all on a single Redis (any keys: one round trip, and for a MULTI the strongest
   * form of the promise); on a cluster one chain per slot (a claimHead by its lock: its keys share
   * one), the groups sent together: ioredis refuses a chain of several slots there.
   */
  private async bySlot(commands: readonly AtomicCommand[], chain: () => ChainableCommander): Promise<unknown[]> {
    if (commands.length === 0) return [];
    if (!this.cluster) return this.run(chain(), commands);
    const results: unknown[] = new Array<unknown>(commands.length);
    await Promise.all(
      groupBySlot(commands.map((c) => this.k(c.key))).map(async (group) => {
        const replies = await this.run(
          chain(),
          group.map((index) => commands[index]!),
        );
        group.forEach((index, at) => (results[index] = replies[at]));
      }),
    );
    return results;
  }

  /** Queues `commands` on a MULTI or pipeline, runs it, and gives each command's result in order. */
  private async run(chain: ChainableCommander, commands: readonly AtomicCommand[]): Promise<unknown[]> {
    if (this.checkSlots)
      for (const c of commands)
        if (c.op === 'claimHead')
          assertOneSlot(
            'claimHead',
            commandKeys(c).map((key) => this.k(key)),
          );
    return runOnChain(chain, commands, (key) => this.k(key));
  }

  queueOffer(keys: ConversationQueueKeys, entry: string, options: QueueOfferOptions): Promise<QueueOfferResult> {
    return this.queue.offer(keys, entry, options);
  }
  queueClaim(keys: ConversationQueueKeys, lockTtlMs: number, expectedOwner?: string): Promise<QueueClaim | null> {
    return this.queue.claim(keys, lockTtlMs, expectedOwner);
  }
  queueAdvance(
    keys: ConversationQueueKeys,
    token: string,
    lockTtlMs: number,
    also: readonly AtomicCommand[] = [],
    options: QueueAdvanceOptions = {},
  ): Promise<QueueAdvanceResult> {
    return this.queue.advance(keys, token, lockTtlMs, also, options);
  }
  queueRenew(keys: ConversationQueueKeys, token: string, lockTtlMs: number): Promise<boolean> {
    return this.queue.renew(keys, token, lockTtlMs);
  }
  queueRelease(keys: ConversationQueueKeys, token: string): Promise<boolean> {
    return this.queue.release(keys, token);
  }

  async hashCompareAndRun(
    key: string,
    expected: Readonly<Record<string, string | null>>,
    writes: readonly AtomicCommand[],
  ): Promise<HashCompareResult> {
    if (this.checkSlots) assertCommandsInOneSlot('hashCompareAndRun', this.prefix, writes, [key]);
    const encoded = encodeWrites(writes, (full) => this.k(full), 1);
    if (!encoded) throw new Error('hashCompareAndRun takes writes only, of at most a few thousand values each');
    const fields = Object.entries(expected);
    const keysAndArgs = [
      this.k(key),
      ...encoded.keys,
      fields.length,
      ...fields.flatMap(([field, value]) => [field, value === null ? '0' : '1', value ?? '']),
      ...encoded.args,
    ];
    const keyCount = 1 + encoded.keys.length;
    const [applied, current] = this.cluster
      ? ((await this.scriptAlone('cbHashCompareAndRun', keyCount, keysAndArgs)) as [number, string[]?])
      : await this.redis.cbHashCompareAndRun(keyCount, ...keysAndArgs);
    return applied === 1 ? { applied: true } : { applied: false, current: pairsToObject(current ?? []) };
  }

  /**
   * A script whose key count comes first, alone in a pipeline of its own: ioredis' auto-pipelining would group it by
   * the slot of that number rather than of its keys, and the group fails as soon as a command of another node joins it
   * (many conversations advancing in one tick). An explicit pipeline is sent to the node of its keys.
   */
  private async scriptAlone(
    script: 'cbQueueAdvance' | 'cbHashCompareAndRun',
    keyCount: number,
    keysAndArgs: (string | number)[],
  ): Promise<unknown> {
    const pipeline = this.redis.pipeline();
    (pipeline as unknown as ScriptedMulti)[script](keyCount, ...keysAndArgs);
    const [reply] = await execOrThrow(pipeline);
    return reply;
  }

  async deleteByPrefix(subPrefix = ''): Promise<number> {
    const pattern = `${escapeGlob(this.prefix + subPrefix)}*`;
    // SCAN walks one server's keys: on a cluster, every master's.
    const servers = this.cluster ? this.cluster.nodes('master') : [this.redis];
    const removed = await Promise.all(
      servers.map(async (server) => {
        let count = 0;
        let cursor = '0';
        do {
          const [next, keys] = await server.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
          cursor = next;
          if (keys.length > 0) count += await this.delFull(keys);
        } while (cursor !== '0');
        return count;
      }),
    );
    return removed.reduce((sum, count) => sum + count, 0);
  }
  async publish(channel: string, message: string): Promise<void> {
    await this.pubsub.publish(this.k(channel), message);
  }
  async subscribe(
    channel: string,
    listener: ChannelListener,
    options?: SubscribeOptions,
  ): Promise<() => Promise<void>> {
    return this.pubsub.subscribe(this.k(channel), listener, options);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  /** The server's version (INFO server; on a cluster, of the node ioredis asks). */
  async serverVersion(): Promise<string> {
    const info = await this.redis.info('server');
    return /^redis_version:(\S+)/m.exec(info)?.[1] ?? 'unknown';
  }
  async close(): Promise<void> {
    await this.pubsub.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
