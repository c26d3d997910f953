/**
 * The pause of a conversation handed to a person: one hash per conversation
 * plus an index for the admin list. Writes come as AtomicCommands so that the
 * pause and its e-mail enter Redis in one MULTI (never a pause without its mail).
 *
 * The same hash keeps the upstream failures in a row that lead to a handoff (handoff.failureThreshold):
 * the field `upstreamFailures`, beside a pause or alone. The turn's first batch reads the hash anyway
 * (the pause's turn read), so an answer learns there whether a count is there to forget, and the common
 * answer writes nothing for it. A hash without `handoffId` is no pause (decode); a pause starts from a
 * clean hash and its end deletes the hash, so both forget the count.
 */
import type { ConversationRef, PlatformUser } from '../../contract.js';
import type { AtomicCommand, AtomicCommandOf, AtomicResult, StateStore } from '../../state/index.js';
import { formatConversationId, parseConversationId } from '../conversation-id.js';
import { rangeEveryShard } from '../../state/shard-walk.js';
import { handoffKeys } from '../keys.js';
import { EXPIRED_PAUSE_NOTICE_MS, FAILURE_COUNT_TTL_MS } from '../policy.js';
import { conversationTag } from '../../gateway/index.js';
import type { OperatorSignature } from './operator-signature.js';

export interface PauseRecord {
  conversation: ConversationRef;
  handoffId: string;
  /** ms since epoch. */
  since: number;
  /** The bot answers again from then on. */
  expiresAt: number;
  /** Human-readable, as in the e-mail. */
  reason: string;
  user?: PlatformUser;
  isGroup: boolean;
  /**
   * The operator who claimed the conversation (their display name then; their account's id and the operators'
   * platform they claimed from, when there are), and when; unclaimed without.
   */
  claim?: { by: string; at: number; account?: string; via?: string };
}

/** The hash's field counting upstream failures in a row. */
const FAILURES_FIELD = 'upstreamFailures';

/** Tries of a count whose hash changed between its read and its write (a pause started or ended meanwhile). */
const COUNT_TRIES = 5;

/** What a read of a conversation's hash found: its pause, and what a count of upstream failures compares. */
export interface PauseHash {
  /** Null when the hash holds no pause (absent, or a count alone). */
  pause: PauseRecord | null;
  failures: FailuresSeen;
}

/** The fields a count of upstream failures is written against (a compare and set): null when absent. */
export interface FailuresSeen {
  count: string | null;
  handoffId: string | null;
}

export class PauseStore {
  constructor(private readonly state: StateStore) {}

  async read(conversation: ConversationRef): Promise<PauseRecord | null> {
    return decode(conversation, await this.state.hashGetAll(handoffKeys.pause(conversation)));
  }

  /** The same read as a command for a batch (the turn's first, src/gateway/turn/first-batch.ts); its result goes to `decode`. */
  readCommand(conversation: ConversationRef): AtomicCommandOf<'hashGetAll'> {
    return { op: 'hashGetAll', key: handoffKeys.pause(conversation) };
  }

  /** The pause from a batch's `readCommand` result. */
  decode(conversation: ConversationRef, fields: Record<string, string>): PauseRecord | null {
    return decode(conversation, fields);
  }

  /** The pause and the count of upstream failures from a batch's `readCommand` result (the turn's read). */
  decodeHash(conversation: ConversationRef, fields: Record<string, string>): PauseHash {
    return { pause: decode(conversation, fields), failures: failuresSeen(fields) };
  }

  /**
   * Counts one more upstream failure in a row; the count, this one included. `seen`: the hash as the turn's
   * read found it (read again when not given), the count written against it. A compare and set (one script on
   * Redis): a hash without a pause gets the count's lifetime (forgotten after a quiet day), a pause's keeps the
   * pause's (which it outlives, EXPIRED_PAUSE_NOTICE_MS, while a day could end it early); a hash that changed
   * meanwhile is read again from what the failed compare returned.
   */
  async countFailure(conversation: ConversationRef, seen?: FailuresSeen): Promise<number> {
    const key = handoffKeys.pause(conversation);
    let expected = seen ?? failuresSeen(await this.state.hashGetAll(key));
    for (let tries = 1; ; tries++) {
      const count = (Number(expected.count) || 0) + 1;
      const result = await this.state.hashCompareAndRun(
        key,
        { handoffId: expected.handoffId, [FAILURES_FIELD]: expected.count },
        [
          { op: 'hashSet', key, fields: { [FAILURES_FIELD]: String(count) } },
          ...(expected.handoffId === null ? [{ op: 'expire', key, ttlMs: FAILURE_COUNT_TTL_MS } as const] : []),
        ],
      );
      if (result.applied) return count;
      if (tries >= COUNT_TRIES)
        throw new Error(`the upstream failures of a conversation changed under ${tries} counts`);
      expected = failuresSeen(result.current);
    }
  }

  /**
   * Forgets the count of upstream failures (an answer came), to run with the turn's writes; null when `seen`
   * (the turn's read) found none, so that the common answer writes nothing for it. Without `seen` (a turn that
   * started before the read was added) it cannot tell, and forgets. The hash goes with its last field.
   */
  forgetFailuresCommand(conversation: ConversationRef, seen: FailuresSeen | undefined): AtomicCommand | null {
    if (seen && seen.count === null) return null;
    return { op: 'hashDel', key: handoffKeys.pause(conversation), field: FAILURES_FIELD };
  }

  writeCommands(record: PauseRecord): AtomicCommand[] {
    const key = handoffKeys.pause(record.conversation);
    const fields: Record<string, string> = {
      handoffId: record.handoffId,
      since: String(record.since),
      expiresAt: String(record.expiresAt),
      reason: record.reason,
      isGroup: record.isGroup ? '1' : '0',
      ...(record.user ? { user: JSON.stringify(record.user) } : {}),
      ...(record.claim ? claimFields({ name: record.claim.by, ...record.claim }, record.claim.at) : {}),
    };
    return [
      // A leftover expired hash may still be there: start from a clean one.
      { op: 'del', key },
      { op: 'hashSet', key, fields },
      { op: 'expire', key, ttlMs: Math.max(Math.ceil(record.expiresAt - Date.now()), 1) + EXPIRED_PAUSE_NOTICE_MS },
      {
        op: 'sortedAdd',
        key: handoffKeys.paused(conversationTag(record.conversation)),
        score: record.expiresAt,
        member: formatConversationId(record.conversation),
      },
    ];
  }

  /**
   * Marks the paused conversation as `by`'s, with `also` (its transcript entry) in the same step, only if it is still
   * the pause of `record` and still held by `holder` (null: nobody; its name and its account, so that one of two
   * operators of one name is not taken for the other): a compare and set, so that of two operators claiming at once
   * one wins and the other is told, and a double submit claims once. Otherwise nothing is written and the pause as it
   * is now comes back (null once it ended).
   */
  async claimIf(
    record: PauseRecord,
    holder: OperatorSignature | null,
    by: OperatorSignature,
    at: number,
    also: readonly AtomicCommand[],
  ): Promise<{ claimed: true } | { claimed: false; now: PauseRecord | null }> {
    const key = handoffKeys.pause(record.conversation);
    const expected = {
      handoffId: record.handoffId,
      claimedBy: holder?.name ?? null,
      claimedByAccount: holder?.account ?? null,
    };
    const result = await this.state.hashCompareAndRun(key, expected, [
      { op: 'hashSet', key, fields: claimFields(by, at) },
      // What the claimant has not must not stay from the holder before (claimedVia is not compared: it may be there).
      ...(holder?.account && !by.account ? [{ op: 'hashDel', key, field: 'claimedByAccount' } as const] : []),
      ...(by.via ? [] : [{ op: 'hashDel', key, field: 'claimedVia' } as const]),
      // The hash keeps its expiry (the pause's rest), renewed from the record the check has just confirmed.
      { op: 'expire', key, ttlMs: Math.max(Math.ceil(record.expiresAt - at), 1) + EXPIRED_PAUSE_NOTICE_MS },
      ...also,
    ]);
    return result.applied ? { claimed: true } : { claimed: false, now: decode(record.conversation, result.current) };
  }

  /**
   * Ends the pause of `record` (the hash goes, and a count of upstream failures with it); true for the one
   * caller (of any process) that actually removed it, so "the bot is back" is said once. A compare and set
   * on its handoff id: the hash may outlive a pause ended meanwhile (a count written after), or hold a newer
   * pause, and neither is this pause's to end.
   */
  async end(record: PauseRecord): Promise<boolean> {
    const { conversation } = record;
    const key = handoffKeys.pause(conversation);
    const result = await this.state.hashCompareAndRun(key, { handoffId: record.handoffId }, [
      { op: 'del', key },
      {
        op: 'sortedRemove',
        key: handoffKeys.paused(conversationTag(conversation)),
        member: formatConversationId(conversation),
      },
    ]);
    return result.applied;
  }

  /**
   * Conversations whose pause ran out by `now` and that nobody has ended yet (the user has not
   * written since), taken off the index: each caller gets them once. Their hashes stay until the
   * user's next message (which ends the pause and tells them the bot is back).
   */
  async takeExpired(now = Date.now()): Promise<ConversationRef[]> {
    const expired = await rangeEveryShard(this.state, handoffKeys.paused, 0, now);
    if (expired.length === 0) return [];
    const removed = (await this.state.batch(
      expired.map(({ tag, member }) => ({ op: 'sortedRemove', key: handoffKeys.paused(tag), member }) as const),
    )) as number[];
    return expired.flatMap(({ member }, index) =>
      Number(removed[index]) > 0 ? (parseConversationId(member) ?? []) : [],
    );
  }

  /**
   * Conversations paused now (not expired), soonest expiry first, from every shard's index: one
   * batch reads every shard (expired entries are dropped from their shard as they are found), one
   * more reads the pauses.
   */
  async listActive(now = Date.now()): Promise<PauseRecord[]> {
    const listed = await rangeEveryShard(this.state, handoffKeys.paused, 0, Number.MAX_SAFE_INTEGER);
    const expired = listed.filter((entry) => entry.score < now);
    if (expired.length > 0)
      await this.state.batch(
        expired.map(({ tag, member }) => ({ op: 'sortedRemove', key: handoffKeys.paused(tag), member }) as const),
      );
    const active = listed
      .filter((entry) => entry.score >= now)
      .flatMap(({ member }) => parseConversationId(member) ?? []);
    // Each a hashGetAll (readCommand), so each result is its hash.
    const hashes = (await this.state.batch(
      active.map((conversation) => this.readCommand(conversation)),
    )) as AtomicResult<AtomicCommandOf<'hashGetAll'>>[];
    return active.flatMap((conversation, index) => this.decode(conversation, hashes[index] ?? {}) ?? []);
  }
}

function failuresSeen(fields: Record<string, string>): FailuresSeen {
  return { count: fields[FAILURES_FIELD] ?? null, handoffId: fields.handoffId ?? null };
}

function decode(conversation: ConversationRef, fields: Record<string, string>): PauseRecord | null {
  if (!fields.handoffId || !fields.expiresAt) return null;
  let user: PlatformUser | undefined;
  try {
    user = fields.user ? (JSON.parse(fields.user) as PlatformUser) : undefined;
  } catch {
    user = undefined;
  }
  return {
    conversation,
    handoffId: fields.handoffId,
    since: Number(fields.since),
    expiresAt: Number(fields.expiresAt),
    reason: fields.reason ?? '',
    isGroup: fields.isGroup === '1',
    ...(user ? { user } : {}),
    ...(fields.claimedBy
      ? {
          claim: {
            by: fields.claimedBy,
            at: Number(fields.claimedAt),
            ...(fields.claimedByAccount ? { account: fields.claimedByAccount } : {}),
            ...(fields.claimedVia ? { via: fields.claimedVia } : {}),
          },
        }
      : {}),
  };
}

/** The hash's fields of a claim; the account and the platform only when there are (a claim before accounts has none). */
function claimFields(by: OperatorSignature, at: number): Record<string, string> {
  return {
    claimedBy: by.name,
    claimedAt: String(at),
    ...(by.account ? { claimedByAccount: by.account } : {}),
    ...(by.via ? { claimedVia: by.via } : {}),
  };
}
