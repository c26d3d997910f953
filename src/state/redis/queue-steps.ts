/**
 * The conversation queue's steps on Redis (StateStore.queueOffer … queueRelease), one script each (scripts.ts):
 * the arguments those scripts take, and their replies as the store's types. The store owns the connection and
 * hands it here with its key prefix.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Cluster } from 'ioredis';
import { assertCommandsInOneSlot, queueKeys } from '../command-keys.js';
import { execOrThrow, queueOnChain } from './chain.js';
import type { AdvanceReply, ScriptedMulti, ScriptedRedis } from './scripts.js';
import { encodeWrites } from './script-writes.js';
import type {
  AtomicCommand,
  ConversationQueueKeys,
  QueueAdvanceOptions,
  QueueAdvanceResult,
  QueueClaim,
  QueueOfferOptions,
  QueueOfferResult,
} from '../types.js';

export interface QueueStepsSite {
  readonly redis: ScriptedRedis;
  readonly cluster: Cluster | undefined;
  readonly prefix: string;
  readonly checkSlots: boolean;
  /** A script whose key count comes first, alone in a pipeline of its own (store.ts scriptAlone: a cluster's routing). */
  scriptAlone(script: 'cbQueueAdvance', keyCount: number, keysAndArgs: (string | number)[]): Promise<unknown>;
}

/** The keys every queue script takes first: queue, owners, and the legacy lock and set (the owners in their place when not kept). */
function scriptKeys(keys: ConversationQueueKeys, k: (key: string) => string): [string, string, string, string] {
  const owners = k(keys.owners);
  return [
    k(keys.queue),
    owners,
    keys.legacy ? k(keys.legacy.lock) : owners,
    keys.legacy ? k(keys.legacy.pending) : owners,
  ];
}

const dual = (keys: ConversationQueueKeys): string => (keys.legacy ? '1' : '0');

export class RedisQueueSteps {
  /** Renewals by this store: each gives the owner field a value it never had, which is what sweeps watch. */
  private renewals = 0;

  constructor(private readonly site: QueueStepsSite) {}

  private k = (key: string): string => this.site.prefix + key;

  async offer(keys: ConversationQueueKeys, entry: string, options: QueueOfferOptions): Promise<QueueOfferResult> {
    if (this.site.checkSlots)
      assertCommandsInOneSlot('queueOffer', this.site.prefix, [], queueKeys(keys, options.dedupeKey));
    const token = randomUUID();
    const [queue, owners, legacyLock, legacyPending] = scriptKeys(keys, this.k);
    const [outcome, length = 0, head] = await this.site.redis.cbQueueOffer(
      queue,
      owners,
      this.k(options.dedupeKey),
      legacyLock,
      legacyPending,
      entry,
      options.dedupeTtlMs,
      options.maxLength,
      token,
      options.lockTtlMs,
      keys.member,
      options.claim === false ? '0' : '1',
      dual(keys),
    );
    if (outcome === 'duplicate') return { outcome };
    if (outcome === 'full') return { outcome, length: Number(length) };
    if (outcome === 'free') return { outcome: 'queued', length: Number(length), claim: null, lockFree: true };
    return { outcome: 'queued', length: Number(length), claim: outcome === 'claimed' ? { token, head: head! } : null };
  }

  async claim(keys: ConversationQueueKeys, lockTtlMs: number, expectedOwner = ''): Promise<QueueClaim | null> {
    if (this.site.checkSlots) assertCommandsInOneSlot('queueClaim', this.site.prefix, [], queueKeys(keys));
    const token = randomUUID();
    const [found, head] = await this.site.redis.cbQueueClaim(
      ...scriptKeys(keys, this.k),
      token,
      lockTtlMs,
      keys.member,
      '',
      expectedOwner,
      dual(keys),
    );
    // [1] only when the head is the expected '' itself.
    return found === 1 || found === 2 ? { token, head: head ?? '' } : null;
  }

  async advance(
    keys: ConversationQueueKeys,
    token: string,
    lockTtlMs: number,
    also: readonly AtomicCommand[],
    options: QueueAdvanceOptions,
  ): Promise<QueueAdvanceResult> {
    const { redis, cluster, prefix, checkSlots } = this.site;
    if (checkSlots) assertCommandsInOneSlot('queueAdvance', prefix, also, queueKeys(keys));
    const queue = scriptKeys(keys, this.k);
    const answered = options.answered ?? [];
    const hashes = answered.map((entry) => createHash('sha1').update(entry).digest('hex')).join(',');
    const args = [
      token,
      lockTtlMs,
      keys.member,
      options.letGo ? '1' : '0',
      Math.max(answered.length, 1),
      hashes,
      dual(keys),
    ];
    const writes = encodeWrites(also, this.k);
    let reply: AdvanceReply;
    if (writes) {
      // One EVALSHA with the writes inside (ioredis sends EVAL the first time per connection).
      const keysAndArgs = [...queue, ...writes.keys, ...args, ...writes.args];
      const keyCount = queue.length + writes.keys.length;
      reply = cluster
        ? ((await this.site.scriptAlone('cbQueueAdvance', keyCount, keysAndArgs)) as AdvanceReply)
        : await redis.cbQueueAdvance(keyCount, ...keysAndArgs);
    } else {
      // A read or claim among the writes (no caller sends one today): the script with no writes, in a MULTI after them.
      const multi = redis.multi();
      for (const c of also) queueOnChain(multi, c, this.k);
      (multi as unknown as ScriptedMulti).cbQueueAdvance(queue.length, ...queue, ...args);
      const results = await execOrThrow(multi);
      reply = results[results.length - 1] as AdvanceReply;
    }
    const [owned, next, changed] = reply;
    if (owned === 0) return { owned: false };
    return {
      owned: true,
      // '' is no entry: every queued one is JSON.
      next: next || null,
      ...(owned === 2 ? { letGo: true } : {}),
      ...(answered.length > 0 ? { changed: changed ?? 0 } : {}),
    };
  }

  async renew(keys: ConversationQueueKeys, token: string, lockTtlMs: number): Promise<boolean> {
    const [, owners, legacyLock] = scriptKeys(keys, this.k);
    const renewed = `${token}#${(++this.renewals).toString(36)}`;
    const reply = await this.site.redis.cbQueueRenew(
      owners,
      legacyLock,
      token,
      keys.member,
      renewed,
      lockTtlMs,
      dual(keys),
    );
    return reply === 1;
  }

  async release(keys: ConversationQueueKeys, token: string): Promise<boolean> {
    const [, owners, legacyLock] = scriptKeys(keys, this.k);
    return (await this.site.redis.cbQueueRelease(owners, legacyLock, token, keys.member, dual(keys))) === 1;
  }
}
