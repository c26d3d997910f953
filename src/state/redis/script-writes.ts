/**
 * The writes that ride on a queue advance, encoded as arguments of its Lua script
 * (scripts.ts QUEUE_ADVANCE; the writes of a hash's compare and set too), so the whole advance is one EVALSHA: no MULTI/EXEC
 * around it, and no reply per write for the gateway to parse (every command sent costs the
 * gateway CPU). Consecutive DELs become one multi-key DEL (the keys share a slot).
 *
 * Each call is: its key count, its other argument count, its name, its keys as indexes into
 * KEYS (the script's first keys are its own: the queue's four), its other arguments.
 */
import type { AtomicCommand } from '../types.js';

/** The queue's keys come first in KEYS (queue, owners, legacy lock, legacy pending). */
const QUEUE_KEY_COUNT = 4;
/**
 * Not a Redis command: RPUSH, then PEXPIRE when a lifetime is given and the push created the list
 * or renewal is asked, then LTRIM only when the list grew past the cap. Its arguments: the cap, the
 * lifetime ('' for none of either), '1' to renew, the values. scripts.ts runs it.
 */
export const LIST_PUSH = 'cb-rpush';
/** Redis's Lua unpacks at most about 8,000 values into one call: writes with more go the MULTI way. */
const MOST_ARGUMENTS_PER_CALL = 4_000;

interface Call {
  name: string;
  keys: string[];
  args: (string | number)[];
}

export interface EncodedWrites {
  /** The full keys the writes touch, after the queue's in KEYS. */
  keys: string[];
  args: (string | number)[];
}

/** The Redis calls of one command; null when the script does not take it (the caller falls back to MULTI). */
function callsOf(c: AtomicCommand, key: string): Call[] | null {
  const one = (name: string, ...args: (string | number)[]): Call[] => [{ name, keys: [key], args }];
  switch (c.op) {
    case 'set':
      return c.ttlMs ? one('SET', c.value, 'PX', c.ttlMs) : one('SET', c.value);
    case 'setIfAbsent':
      return c.ttlMs ? one('SET', c.value, 'PX', c.ttlMs, 'NX') : one('SET', c.value, 'NX');
    case 'del':
      return one('DEL');
    case 'incr':
      if (!c.ttlMs) return one('INCRBY', c.by ?? 1);
      // As in a MULTI (store.ts): the window only for a counter this call creates.
      return [...one('SET', String(c.from ?? 0), 'PX', c.ttlMs, 'NX'), ...one('INCRBY', c.by ?? 1)];
    case 'expire':
      return one('PEXPIRE', c.ttlMs);
    case 'hashSet': {
      const fields = Object.entries(c.fields).flat();
      return fields.length === 0 ? [] : one('HSET', ...fields);
    }
    case 'hashDel':
      return one('HDEL', c.field);
    case 'listPush':
      if (c.values.length === 0) return [];
      if (c.maxLength === undefined && !c.ttlMs) return one('RPUSH', ...c.values);
      // The script trims only a list that grew past the cap (an LTRIM under it changes nothing), and renews a lifetime only
      // when asked or when the push created the list: a command or two less per answer.
      return one(LIST_PUSH, c.maxLength ?? '', c.ttlMs ?? '', c.renewTtl ? '1' : '0', ...c.values);
    case 'setAdd':
      return one('SADD', c.member);
    case 'setRemove':
      return one('SREM', c.member);
    case 'sortedAdd':
      return one('ZADD', c.score, c.member);
    case 'sortedRemove':
      return one('ZREM', c.member);
    // Reads and claims give results nobody reads beside an advance: not taken (the MULTI path runs them).
    case 'get':
    case 'hashGetAll':
    case 'listLength':
    case 'listRange':
    case 'setMembers':
    case 'sortedRangeByScore':
    case 'claimHead':
      return null;
  }
}

/** Whether a DEL of `key` may join `group` although calls came between: none of those touched it. */
function untouchedSince(calls: readonly Call[], from: number, key: string): boolean {
  for (let i = from; i < calls.length; i++) if (calls[i]!.keys.includes(key)) return false;
  return true;
}

/**
 * `fullKey` gives the store's prefixed key; `leadingKeys`, how many keys of the script come before the writes' (the
 * queue's three by default). Null when a command is not one the script takes, or too long for it.
 */
export function encodeWrites(
  commands: readonly AtomicCommand[],
  fullKey: (key: string) => string,
  leadingKeys = QUEUE_KEY_COUNT,
): EncodedWrites | null {
  const calls: Call[] = [];
  let delAt = -1;
  for (const c of commands) {
    const key = fullKey(c.key);
    const found = callsOf(c, key);
    if (!found || found.some((call) => call.args.length > MOST_ARGUMENTS_PER_CALL)) return null;
    if (c.op === 'del' && delAt >= 0 && untouchedSince(calls, delAt + 1, key)) {
      // Deleting earlier is the same when nothing after the first DEL touched the key.
      calls[delAt]!.keys.push(key);
      continue;
    }
    if (c.op === 'del') delAt = calls.length;
    calls.push(...found);
  }
  const keys: string[] = [];
  const indexes = new Map<string, number>();
  const args: (string | number)[] = [];
  for (const call of calls) {
    args.push(call.keys.length, call.args.length, call.name);
    for (const key of call.keys) {
      let index = indexes.get(key);
      if (index === undefined) {
        index = leadingKeys + keys.push(key);
        indexes.set(key, index);
      }
      args.push(index);
    }
    args.push(...call.args);
  }
  return { keys, args };
}
