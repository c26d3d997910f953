/**
 * The Lua scripts of the Redis store and the typed commands ioredis defines for them. Each
 * script touches the keys of one slot (src/state/slots.ts), so it runs on a cluster too.
 */
import type { Redis } from 'ioredis';

/** Compare-and-act scripts: a lock is only touched by the token that owns it. */
const EXTEND_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
/** INCRBY that gives a fresh counter its window; PEXPIRE NX would need Redis ≥ 7. */
const INCR_WITH_TTL = `local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if ARGV[2] ~= '' and redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return v`;

/*
 * The conversation queue's three steps (StateStore.queueOffer/queueClaim/queueAdvance).
 * KEYS: 1 queue, 2 lock, 3 pending set (+ 4 dedupe for the offer).
 */
/*
 * RPUSH's reply is the length (no LLEN first: an entry beyond the cap is popped again, inside the
 * script, so nobody sees it); a queue of one has the entry itself as its head (no LINDEX).
 */
const QUEUE_OFFER = `if not redis.call('SET', KEYS[4], '1', 'PX', ARGV[2], 'NX') then return {'duplicate'} end
local length = redis.call('RPUSH', KEYS[1], ARGV[1])
if length > tonumber(ARGV[3]) then
  redis.call('RPOP', KEYS[1])
  return {'full', length - 1}
end
redis.call('SADD', KEYS[3], ARGV[6])
if ARGV[7] ~= '1' then
  if redis.call('EXISTS', KEYS[2]) == 0 then return {'free', length} end
  return {'queued', length}
end
if redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[5], 'NX') then
  if length == 1 then return {'claimed', length, ARGV[1]} end
  return {'claimed', length, redis.call('LINDEX', KEYS[1], 0)}
end
return {'queued', length}`;
/*
 * The claim also checks the head the caller expects (ARGV[4], '' for none): {1} when it is
 * first, {2, head} when another is, {0} when the lock is taken, {3} when the queue is empty.
 */
const QUEUE_CLAIM = `if not redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2], 'NX') then return {0} end
local head = redis.call('LINDEX', KEYS[1], 0)
if not head then
  redis.call('DEL', KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[3])
  return {3}
end
if head == ARGV[4] then return {1} end
return {2, head}`;

/**
 * The writes script-writes.ts encodes, run from ARGV[first] on (a Lua expression): each call its key count, its other
 * argument count, its name, its keys as indexes into KEYS, its arguments. A write that fails does not stop the others;
 * `failure` holds the first error for the script to answer with.
 */
const runWrites = (first: string): string => `local failure
local i = ${first}
while i <= #ARGV do
  local nkeys, nargs = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  local call = { ARGV[i + 2] }
  for j = 1, nkeys do call[j + 1] = KEYS[tonumber(ARGV[i + 2 + j])] end
  for j = 1, nargs do call[nkeys + 1 + j] = ARGV[i + 2 + nkeys + j] end
  local reply
  if call[1] == 'cb-rpush' then
    local cap, ttl = tonumber(call[3]), tonumber(call[4])
    reply = redis.pcall('RPUSH', call[2], unpack(call, 6))
    if type(reply) == 'number' then
      local length = reply
      if ttl and (call[5] == '1' or length == #call - 5) then reply = redis.pcall('PEXPIRE', call[2], ttl) end
      if cap and length > cap and not (type(reply) == 'table' and reply.err) then reply = redis.pcall('LTRIM', call[2], -cap, -1) end
    end
  else
    reply = redis.pcall(unpack(call))
  end
  if type(reply) == 'table' and reply.err and not failure then failure = reply.err end
  i = i + 3 + nkeys + nargs
end
`;

/*
 * The advance with the turn's writes before it (script-writes.ts encodes them): KEYS 4… are the
 * writes' keys; ARGV 1-4 token, lock TTL, member, letGo; 5 how many entries were answered, 6 their SHA-1s joined
 * by commas ('' to compare none); ARGV 7… the calls. The reply: {owned (0 lost, 1 kept, 2 let go), the next head or
 * '', how many answered entries changed}. A write that fails does not stop the others nor the advance, as
 * in the MULTI this replaces; the script then answers with the first failure. 'cb-rpush' is
 * script-writes.ts's LIST_PUSH: RPUSH; PEXPIRE when a lifetime is given and the push created the list
 * or renewal is asked; LTRIM only when the list grew past the cap. LPOP with a
 * count needs Redis ≥ 6.2 (chatbridge requires 6.2: GETEX).
 */
const QUEUE_ADVANCE = `${runWrites('7')}local result
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  result = {0}
else
  -- The answered entries and the next in one pop; the next goes back (a queue of one, the usual, costs no second command).
  local count = tonumber(ARGV[5])
  local popped = redis.call('LPOP', KEYS[1], count + 1)
  local head = popped and popped[count + 1]
  -- ARGV[6]: the SHA-1 of each entry as the turn answered it; one that differs was edited or deleted since.
  local changed = 0
  local i = 1
  for hash in string.gmatch(ARGV[6], '[^,]+') do
    if popped and popped[i] and redis.sha1hex(popped[i]) ~= hash then changed = changed + 1 end
    i = i + 1
  end
  if head then redis.call('LPUSH', KEYS[1], head) end
  if head and ARGV[4] == '1' then
    redis.call('DEL', KEYS[2])
    result = {2, head, changed}
  elseif head then
    redis.call('PEXPIRE', KEYS[2], ARGV[2])
    result = {1, head, changed}
  else
    redis.call('DEL', KEYS[2])
    redis.call('SREM', KEYS[3], ARGV[3])
    result = {1, '', changed}
  end
end
if failure then return redis.error_reply(failure) end
return result`;

/** LSET only while the entry at the index is the one expected (StateStore.listReplace). KEYS: 1 the list. */
const LIST_REPLACE = `if redis.call('LINDEX', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('LSET', KEYS[1], ARGV[1], ARGV[3])
return 1`;

/**
 * A list moved into one bytes entry of another while it is as the caller read it (StateStore.listPackInto). KEYS: 1 the
 * list, 2 the packs. ARGV: 1 the list's length, 2 its last entry, 3 the chunk, 4 the chunks kept, 5 the lifetime when
 * neither key has one.
 */
const LIST_PACK_INTO = `if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
if redis.call('LINDEX', KEYS[1], -1) ~= ARGV[2] then return 0 end
local ttl = math.max(redis.call('PTTL', KEYS[1]), redis.call('PTTL', KEYS[2]))
if ttl <= 0 then ttl = tonumber(ARGV[5]) end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[4]), -1)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('DEL', KEYS[1])
return 1`;

/*
 * Compare and set on a hash (StateStore.hashCompareAndRun). KEYS: 1 the hash, 2… the writes' keys. ARGV: 1 the count
 * of expected fields, then per field its name, '1' (must hold the value) or '0' (must be absent) and the value; then the
 * writes. {1} once written; {0, the hash's fields and values} when a field differs, nothing written.
 */
const HASH_COMPARE_AND_RUN = `local n = tonumber(ARGV[1])
for f = 0, n - 1 do
  local found = redis.call('HGET', KEYS[1], ARGV[2 + 3 * f])
  local present, value = ARGV[3 + 3 * f], ARGV[4 + 3 * f]
  if (present == '1' and found ~= value) or (present == '0' and found) then return {0, redis.call('HGETALL', KEYS[1])} end
end
${runWrites('2 + 3 * n')}
if failure then return redis.error_reply(failure) end
return {1}`;

/** QUEUE_ADVANCE's reply: [0] lost, or [1 kept | 2 let go, the next head or '', how many answered entries changed]. */
export type AdvanceReply = [number, string?, number?];

/** QUEUE_CLAIM's reply: [0] taken, [1] claimed with the expected head, [2, head] claimed with another head, [3] empty. */
export type ClaimReply = [number, string?];

/*
 * The store drives a single Redis, a Sentinel-managed primary and a Cluster through one
 * field typed as Redis: every command it sends (get/set/…, multi, pipeline, defined
 * scripts) exists with the same signature on ioredis' Cluster, whose typings are a
 * separate class; the cluster-only steps (per-slot splits, scanning every master) go
 * through `this.cluster`.
 */
export type ScriptedRedis = Redis & {
  cbExtendLock(key: string, token: string, ttlMs: number): Promise<number>;
  cbReleaseLock(key: string, token: string): Promise<number>;
  cbIncrWithTtl(key: string, by: number, ttlMs: string): Promise<number>;
  cbQueueOffer(
    queue: string,
    lock: string,
    pending: string,
    dedupe: string,
    entry: string,
    dedupeTtlMs: number,
    maxLength: number,
    token: string,
    lockTtlMs: number,
    member: string,
    claim: string,
  ): Promise<[string, number?, string?]>;
  cbQueueClaim(
    queue: string,
    lock: string,
    pending: string,
    token: string,
    lockTtlMs: number,
    member: string,
    expectedHead: string,
  ): Promise<ClaimReply>;
  /** The key count first (3 + the writes' keys), then the keys, then token, lock TTL, member, letGo, count, hashes and the writes. */
  cbQueueAdvance(keyCount: number, ...keysAndArgs: (string | number)[]): Promise<AdvanceReply>;
  cbListReplace(key: string, index: number, expected: string, value: string): Promise<number>;
  cbListPackInto(
    list: string,
    packs: string,
    length: number,
    last: string,
    chunk: Buffer,
    maxChunks: number,
    ttlMs: number,
  ): Promise<number>;
  /** The key count first (1 + the writes' keys), then the keys, then the expected fields and the writes. */
  cbHashCompareAndRun(keyCount: number, ...keysAndArgs: (string | number)[]): Promise<[number, string[]?]>;
};

/** Defined commands are available on MULTI too; ioredis' typings do not know them. */
export interface ScriptedMulti {
  cbQueueClaim(...args: (string | number)[]): unknown;
  cbQueueAdvance(...args: (string | number)[]): unknown;
  cbHashCompareAndRun(...args: (string | number)[]): unknown;
}

/** Defines every script on the connection (on a Cluster too: it has the same defineCommand). */
export function defineScripts(redis: Redis): ScriptedRedis {
  redis.defineCommand('cbExtendLock', { numberOfKeys: 1, lua: EXTEND_LOCK });
  redis.defineCommand('cbReleaseLock', { numberOfKeys: 1, lua: RELEASE_LOCK });
  redis.defineCommand('cbIncrWithTtl', { numberOfKeys: 1, lua: INCR_WITH_TTL });
  redis.defineCommand('cbQueueOffer', { numberOfKeys: 4, lua: QUEUE_OFFER });
  redis.defineCommand('cbQueueClaim', { numberOfKeys: 3, lua: QUEUE_CLAIM });
  // No numberOfKeys: the writes' keys vary, so the count is the first argument.
  redis.defineCommand('cbQueueAdvance', { lua: QUEUE_ADVANCE });
  redis.defineCommand('cbHashCompareAndRun', { lua: HASH_COMPARE_AND_RUN });
  redis.defineCommand('cbListReplace', { numberOfKeys: 1, lua: LIST_REPLACE });
  redis.defineCommand('cbListPackInto', { numberOfKeys: 2, lua: LIST_PACK_INTO });
  return redis as ScriptedRedis;
}
