/**
 * AtomicCommands on an ioredis MULTI or pipeline (StateStore.atomic/batch/pipeline, and the
 * rare advance whose writes go the MULTI way): each command queued as the Redis commands it
 * takes, and its one result picked out of the replies, in the shapes AtomicResults names.
 */
import type { ChainableCommander } from 'ioredis';
import { normalize } from './replies.js';
import type { ScriptedMulti } from './scripts.js';
import type { AtomicCommand } from '../types.js';

/** Runs the chain; throws the first command's error, or when a transaction was aborted. */
export async function execOrThrow(chain: ChainableCommander): Promise<unknown[]> {
  const results = await chain.exec();
  if (!results) throw new Error('Redis transaction was aborted');
  return results.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

/** Queues `commands` on `chain`, runs it, and gives each command's result in order. `fullKey` adds the store's prefix. */
export async function runOnChain(
  chain: ChainableCommander,
  commands: readonly AtomicCommand[],
  fullKey: (key: string) => string,
): Promise<unknown[]> {
  // Some commands expand to several Redis commands; one reply of each group is its result.
  const groupEnds = commands.map((c) => queueOnChain(chain, c, fullKey));
  const raw = await execOrThrow(chain);
  let cursor = 0;
  return commands.map((c, i) => {
    const first = cursor;
    cursor += groupEnds[i]!;
    // A trimmed push answers with its RPUSH (first of its group); everything else with its last reply.
    return normalize(c, raw[c.op === 'listPush' ? first : cursor - 1]);
  });
}

/** Queues one command and returns how many Redis commands it took. */
export function queueOnChain(chain: ChainableCommander, c: AtomicCommand, fullKey: (key: string) => string): number {
  const key = fullKey(c.key);
  switch (c.op) {
    case 'get':
      if (c.ttlMs) chain.getex(key, 'PX', c.ttlMs);
      else chain.get(key);
      return 1;
    case 'set':
      if (c.ttlMs) chain.set(key, c.value, 'PX', c.ttlMs);
      else chain.set(key, c.value);
      return 1;
    case 'setIfAbsent':
      if (c.ttlMs) chain.set(key, c.value, 'PX', c.ttlMs, 'NX');
      else chain.set(key, c.value, 'NX');
      return 1;
    case 'del':
      chain.del(key);
      return 1;
    case 'incr':
      if (!c.ttlMs) {
        chain.incrby(key, c.by ?? 1);
        return 1;
      }
      // Creates the counter with its window only when absent; INCRBY keeps an existing expiry.
      chain.set(key, String(c.from ?? 0), 'PX', c.ttlMs, 'NX').incrby(key, c.by ?? 1);
      return 2;
    case 'expire':
      chain.pexpire(key, c.ttlMs);
      return 1;
    case 'hashSet':
      chain.hset(key, c.fields);
      return 1;
    case 'hashDel':
      chain.hdel(key, c.field);
      return 1;
    case 'hashGetAll':
      chain.hgetall(key);
      return 1;
    case 'listPush': {
      // No LLEN: the length after the trim is RPUSH's reply capped at maxLength (see normalize).
      chain.rpush(key, ...c.values);
      if (c.maxLength !== undefined) chain.ltrim(key, -c.maxLength, -1);
      // A chain cannot tell whether the push created the list: it renews the lifetime whenever one is given (the
      // scripted advance, script-writes.ts, does only what renewTtl asks).
      if (c.ttlMs) chain.pexpire(key, c.ttlMs);
      return 1 + (c.maxLength !== undefined ? 1 : 0) + (c.ttlMs ? 1 : 0);
    }
    case 'listLength':
      chain.llen(key);
      return 1;
    case 'listRange':
      chain.lrange(key, c.start, c.stop);
      return 1;
    case 'setAdd':
      chain.sadd(key, c.member);
      return 1;
    case 'setRemove':
      chain.srem(key, c.member);
      return 1;
    case 'setMembers':
      chain.smembers(key);
      return 1;
    case 'sortedAdd':
      chain.zadd(key, c.score, c.member);
      return 1;
    case 'sortedRangeByScore':
      if (c.limit === undefined) chain.zrangebyscore(key, c.min, c.max, 'WITHSCORES');
      else chain.zrangebyscore(key, c.min, c.max, 'WITHSCORES', 'LIMIT', 0, c.limit);
      return 1;
    case 'sortedRemove':
      chain.zrem(key, c.member);
      return 1;
    case 'claimHead':
      // The legacy keys when kept beside (queue-steps.ts scriptKeys), the owners in their place when not.
      (chain as unknown as ScriptedMulti).cbQueueClaim(
        fullKey(c.queue),
        key,
        c.legacy ? fullKey(c.legacy.lock) : key,
        c.legacy ? fullKey(c.legacy.pending) : key,
        c.token,
        c.ttlMs,
        c.member,
        c.head,
        '',
        c.legacy ? '1' : '0',
      );
      return 1;
  }
}
