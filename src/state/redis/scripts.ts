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
 * The conversation queue's steps (StateStore.queueOffer/queueClaim/queueAdvance/queueRenew/queueRelease). The lock is
 * the conversation's field in its shard's owners hash: the holder's token (`<token>#<renewal>` once renewed), '' for
 * nobody, absent when nothing is queued. With `dual` ('1') the older layout is kept beside it (types.ts
 * LegacyQueueKeys): a lock string with a lifetime and a pending set, which replicas of an older version read.
 * Every script takes the legacy keys (the owners key in their place when not dual: never touched).
 */
/** Whether the owner field `owner` is `token`'s (renewals append `#<n>`). */
const OWNS = `local function owns(owner, token)
  return owner == token or (owner ~= false and string.sub(owner, 1, #token + 1) == token .. '#')
end
`;
/*
 * KEYS: 1 queue, 2 owners, 3 dedupe, 4 legacy lock, 5 legacy pending. ARGV: 1 entry, 2 dedupe TTL, 3 cap, 4 token,
 * 5 lock TTL, 6 member, 7 claim ('1') or only index ('0'), 8 dual.
 * RPUSH's reply is the length (no LLEN first: an entry beyond the cap is popped again, inside the script, so nobody
 * sees it); a queue of one has the entry itself as its head (no LINDEX). A conversation with nothing queued has no
 * field, so the common arrival indexes it and takes its lock in one HSETNX.
 */
const QUEUE_OFFER = `if not redis.call('SET', KEYS[3], '1', 'PX', ARGV[2], 'NX') then return {'duplicate'} end
local length = redis.call('RPUSH', KEYS[1], ARGV[1])
if length > tonumber(ARGV[3]) then
  redis.call('RPOP', KEYS[1])
  return {'full', length - 1}
end
local dual = ARGV[8] == '1'
if dual then redis.call('SADD', KEYS[5], ARGV[6]) end
if ARGV[7] ~= '1' then
  local owner = ''
  if redis.call('HSETNX', KEYS[2], ARGV[6], '') == 0 then owner = redis.call('HGET', KEYS[2], ARGV[6]) end
  if owner == '' and not (dual and redis.call('EXISTS', KEYS[4]) == 1) then return {'free', length} end
  return {'queued', length}
end
local claimed = redis.call('HSETNX', KEYS[2], ARGV[6], ARGV[4]) == 1
if not claimed and redis.call('HGET', KEYS[2], ARGV[6]) == '' then
  redis.call('HSET', KEYS[2], ARGV[6], ARGV[4])
  claimed = true
end
if claimed and dual and not redis.call('SET', KEYS[4], ARGV[4], 'PX', ARGV[5], 'NX') then
  -- An older replica answers it: nobody of this version does, and a sweep claims it once that one let go.
  redis.call('HSET', KEYS[2], ARGV[6], '')
  claimed = false
end
if not claimed then return {'queued', length} end
if length == 1 then return {'claimed', length, ARGV[1]} end
return {'claimed', length, redis.call('LINDEX', KEYS[1], 0)}`;
/*
 * KEYS: 1 queue, 2 owners, 3 legacy lock, 4 legacy pending. ARGV: 1 token, 2 lock TTL, 3 member, 4 the head the
 * caller expects ('' for none), 5 the owner it may take over ('' for none), 6 dual.
 * {1} claimed with the expected head first, {2, head} claimed with another head, {0} held by someone else, {3} empty.
 */
const QUEUE_CLAIM = `local dual = ARGV[6] == '1'
local owner = redis.call('HGET', KEYS[2], ARGV[3])
if owner and owner ~= '' and owner ~= ARGV[5] then return {0} end
if dual and not redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2], 'NX') then return {0} end
local head = redis.call('LINDEX', KEYS[1], 0)
if not head then
  if owner then redis.call('HDEL', KEYS[2], ARGV[3]) end
  if dual then
    redis.call('DEL', KEYS[3])
    redis.call('SREM', KEYS[4], ARGV[3])
  end
  return {3}
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
if head == ARGV[4] then return {1} end
return {2, head}`;
/* KEYS: 1 owners, 2 legacy lock. ARGV: 1 token, 2 member, 3 the renewed owner, 4 lock TTL, 5 dual. 1 renewed, 0 not ours. */
const QUEUE_RENEW = `${OWNS}if not owns(redis.call('HGET', KEYS[1], ARGV[2]), ARGV[1]) then return 0 end
if ARGV[5] == '1' then
  if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
return 1`;
/* KEYS: 1 owners, 2 legacy lock. ARGV: 1 token, 2 member, 3 dual. 1 let go, 0 not ours. */
const QUEUE_RELEASE = `${OWNS}if not owns(redis.call('HGET', KEYS[1], ARGV[2]), ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], '')
if ARGV[3] == '1' and redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1`;

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
 * The advance with the turn's writes before it (script-writes.ts encodes them): KEYS 1 queue, 2 owners, 3 legacy lock,
 * 4 legacy pending, 5… the writes' keys; ARGV 1-4 token, lock TTL, member, letGo; 5 how many entries were answered, 6
 * their SHA-1s joined by commas ('' to compare none); 7 dual; ARGV 8… the calls. The reply: {owned (0 lost, 1 kept,
 * 2 let go), the next head or '', how many answered entries changed}. A write that fails does not stop the others nor
 * the advance, as in the MULTI this replaces; the script then answers with the first failure. 'cb-rpush' is
 * script-writes.ts's LIST_PUSH: RPUSH; PEXPIRE when a lifetime is given and the push created the list or renewal is
 * asked; LTRIM only when the list grew past the cap. LPOP with a count needs Redis ≥ 6.2 (chatbridge requires 6.2:
 * GETEX). The usual answer (a queue of one, not dual) runs HGET, LPOP and HDEL after its writes.
 */
const QUEUE_ADVANCE = `${OWNS}${runWrites('8')}local result
local dual = ARGV[7] == '1'
local ours = owns(redis.call('HGET', KEYS[2], ARGV[3]), ARGV[1])
if ours and dual and redis.call('GET', KEYS[3]) ~= ARGV[1] then ours = false end
if not ours then
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
    redis.call('HSET', KEYS[2], ARGV[3], '')
    if dual then redis.call('DEL', KEYS[3]) end
    result = {2, head, changed}
  elseif head then
    if dual then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
    result = {1, head, changed}
  else
    redis.call('HDEL', KEYS[2], ARGV[3])
    if dual then
      redis.call('DEL', KEYS[3])
      redis.call('SREM', KEYS[4], ARGV[3])
    end
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
 * neither has one. The packs take the list's lifetime (the list was written after every chunk, so it lives longest),
 * the packs' own when the list has none: six commands, LTRIM only when the packs outgrow what is kept.
 */
const LIST_PACK_INTO = `if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
if redis.call('LINDEX', KEYS[1], -1) ~= ARGV[2] then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then ttl = redis.call('PTTL', KEYS[2]) end
if ttl <= 0 then ttl = tonumber(ARGV[5]) end
if redis.call('RPUSH', KEYS[2], ARGV[3]) > tonumber(ARGV[4]) then redis.call('LTRIM', KEYS[2], -tonumber(ARGV[4]), -1) end
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
    owners: string,
    dedupe: string,
    legacyLock: string,
    legacyPending: string,
    entry: string,
    dedupeTtlMs: number,
    maxLength: number,
    token: string,
    lockTtlMs: number,
    member: string,
    claim: string,
    dual: string,
  ): Promise<[string, number?, string?]>;
  cbQueueClaim(
    queue: string,
    owners: string,
    legacyLock: string,
    legacyPending: string,
    token: string,
    lockTtlMs: number,
    member: string,
    expectedHead: string,
    expectedOwner: string,
    dual: string,
  ): Promise<ClaimReply>;
  cbQueueRenew(
    owners: string,
    legacyLock: string,
    token: string,
    member: string,
    renewed: string,
    lockTtlMs: number,
    dual: string,
  ): Promise<number>;
  cbQueueRelease(owners: string, legacyLock: string, token: string, member: string, dual: string): Promise<number>;
  /** The key count first (4 + the writes' keys), then the keys, then token, lock TTL, member, letGo, count, hashes, dual and the writes. */
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
  redis.defineCommand('cbQueueOffer', { numberOfKeys: 5, lua: QUEUE_OFFER });
  redis.defineCommand('cbQueueClaim', { numberOfKeys: 4, lua: QUEUE_CLAIM });
  redis.defineCommand('cbQueueRenew', { numberOfKeys: 2, lua: QUEUE_RENEW });
  redis.defineCommand('cbQueueRelease', { numberOfKeys: 2, lua: QUEUE_RELEASE });
  // No numberOfKeys: the writes' keys vary, so the count is the first argument.
  redis.defineCommand('cbQueueAdvance', { lua: QUEUE_ADVANCE });
  redis.defineCommand('cbHashCompareAndRun', { lua: HASH_COMPARE_AND_RUN });
  redis.defineCommand('cbListReplace', { numberOfKeys: 1, lua: LIST_REPLACE });
  redis.defineCommand('cbListPackInto', { numberOfKeys: 2, lua: LIST_PACK_INTO });
  return redis as ScriptedRedis;
}
