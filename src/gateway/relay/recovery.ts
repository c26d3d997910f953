import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import type { Capabilities, ConversationRef, Outbound } from '../../contract.js';
import { canEdit, canStopStream } from '../outbound-methods.js';
import { rangeEveryShard } from '../../state/shard-walk.js';
import { conversationTag } from '../keys.js';
import {
  INFLIGHT_MIN_SILENCE_MS,
  INFLIGHT_STALE_AFTER_MS,
  THIS_PROCESS,
  decodeRecord,
  inflightConversationKey,
  inflightIndexKey,
  inflightKey,
  type InflightRecord,
  type ProcessIdentity,
} from './inflight-record.js';
import { fitsOneMessage, renderFinal } from './rendering.js';

/** Appended to the half-shown answer: by an edit, or as the last piece of its native stream (or sent alone when neither can take it). */
export const INTERRUPTED_NOTE = '\n\n(This answer was interrupted. It will be answered again.)';

/** Records handled per run; a periodic run picks up the rest. */
export const RECOVERY_BATCH_SIZE = 100;

export interface RecoveryOptions {
  state: StateStore;
  /** The platform of a recorded conversation; undefined when that bot is not configured here. */
  outboundFor(conversation: ConversationRef): { outbound: Outbound; capabilities: Capabilities } | undefined;
  logger: Logger;
  /** Age after which a record whose owner cannot be checked counts as abandoned. */
  olderThanMs?: number;
}

/**
 * Finds answers whose process is gone (at startup, or periodically), tells the
 * user in each conversation that the answer was interrupted, and forgets them.
 * Safe to run from several processes at once: each record is claimed by exactly
 * one of them. Returns how many answers were recovered.
 */
export async function recoverInterruptedAnswers(options: RecoveryOptions): Promise<number> {
  const { state } = options;
  const olderThanMs = options.olderThanMs ?? INFLIGHT_STALE_AFTER_MS;
  const now = Date.now();
  let recovered = 0;
  for (const { tag, answerId } of await staleCandidates(state, now - olderThanMs)) {
    const record = decodeRecord(await state.hashGetAll(inflightKey(tag, answerId)));
    if (record && !isAbandoned(record, now, olderThanMs, THIS_PROCESS)) continue;
    // Removing the index entry is the claim: only the process whose ZREM removed it goes on.
    if ((await state.sortedRemove(inflightIndexKey(tag), answerId)) === 0) continue;
    if (await resolveClaimed(tag, answerId, record, options)) recovered++;
  }
  return recovered;
}

/** The answers not updated since `updatedBefore`, oldest first, at most RECOVERY_BATCH_SIZE, from every shard's index. */
async function staleCandidates(state: StateStore, updatedBefore: number): Promise<{ tag: string; answerId: string }[]> {
  const stale = await rangeEveryShard(state, inflightIndexKey, Number.NEGATIVE_INFINITY, updatedBefore, RECOVERY_BATCH_SIZE);
  return stale.map(({ tag, member }) => ({ tag, answerId: member }));
}

/**
 * Resolves every interrupted answer of one conversation, whoever wrote it and
 * however recent: call it holding the conversation's lock, before answering its
 * queue. The lock was free, so whoever showed those answers no longer answers
 * here (it crashed, stopped, or lost the lock), and the note must come before
 * the answer given again, not after it. Returns how many were resolved.
 */
export async function recoverConversation(options: RecoveryOptions, conversation: ConversationRef): Promise<number> {
  const { state } = options;
  const tag = conversationTag(conversation);
  let recovered = 0;
  for (const answerId of await state.setMembers(inflightConversationKey(conversation))) {
    const record = decodeRecord(await state.hashGetAll(inflightKey(tag, answerId)));
    // The same claim as the periodic run's: a concurrent run resolves each record once.
    if ((await state.sortedRemove(inflightIndexKey(tag), answerId)) === 0 && record) continue;
    if (await resolveClaimed(tag, answerId, record, options)) recovered++;
    // A record already gone (its TTL) leaves only its id here.
    if (!record) await state.setRemove(inflightConversationKey(conversation), answerId);
  }
  return recovered;
}

/**
 * Tells the user (when the record is readable) and forgets the record. True when told. The
 * record, its conversation's set and the index of `tag` share the conversation's slot.
 */
async function resolveClaimed(tag: string, answerId: string, record: InflightRecord | null, options: RecoveryOptions): Promise<boolean> {
  let told = false;
  if (record) {
    try {
      told = await tellInterrupted(record, options);
    } catch (error) {
      options.logger.warn({ err: error, answer: answerId, conversation: record.conversation }, 'could not tell the user an answer was interrupted');
    }
  }
  await options.state.atomic([
    { op: 'del', key: inflightKey(tag, answerId) },
    ...(record ? [{ op: 'setRemove', key: inflightConversationKey(record.conversation), member: answerId } as const] : []),
  ]);
  return told;
}

/** Whether the record's process has stopped working on it. */
export function isAbandoned(record: InflightRecord, now: number, olderThanMs: number, self: ProcessIdentity): boolean {
  if (record.abandoned) return true;
  // Ours and not abandoned: still being written by this very process.
  if (record.owner.boot === self.boot) return false;
  if (record.owner.host === self.host) {
    // Same pid, other boot: a previous run of this process (pid 1 in a restarted container).
    if (record.owner.pid === self.pid || !processIsAlive(record.owner.pid)) return true;
  }
  return now - record.updatedAt >= Math.max(olderThanMs, INFLIGHT_MIN_SILENCE_MS);
}

async function tellInterrupted(record: InflightRecord, options: RecoveryOptions): Promise<boolean> {
  const target = options.outboundFor(record.conversation);
  if (!target) {
    options.logger.warn({ conversation: record.conversation }, 'an interrupted answer belongs to a bot not configured here; dropping it');
    return false;
  }
  const { outbound, capabilities } = target;
  // The note goes where the answer stopped: the stream, unless messages followed it (the answer fell back to edits).
  if (await endOpenStream(record, outbound, record.messageIds.length === 0, options.logger)) return true;
  const note = renderFinal(INTERRUPTED_NOTE.trim(), capabilities)[0] ?? INTERRUPTED_NOTE.trim();
  const lastMessageId = record.messageIds.at(-1);
  const separator = INTERRUPTED_NOTE.slice(0, INTERRUPTED_NOTE.length - INTERRUPTED_NOTE.trimStart().length);
  const annotated = `${record.lastText}${separator}${note}`;
  if (lastMessageId && record.lastText && canEdit(outbound) && fitsOneMessage(annotated, capabilities)) {
    try {
      await outbound.edit(record.conversation, { id: lastMessageId }, annotated);
      return true;
    } catch (error) {
      options.logger.info({ err: error, message: lastMessageId }, 'could not edit the interrupted message; sending the note instead');
    }
  }
  await outbound.send(record.conversation, { text: note });
  return true;
}

/**
 * Ends the native stream the record names, if the platform can from here: left open, it would
 * stay "writing…" with what it showed. True when it took the note (standard Markdown, as the
 * stream takes it). A stream no longer open (the answer had ended it, or the platform expired it)
 * is refused: the note then goes in a message.
 */
async function endOpenStream(record: InflightRecord, outbound: Outbound, withNote: boolean, logger: Logger): Promise<boolean> {
  if (!record.streamId || !canStopStream(outbound)) return false;
  try {
    await outbound.stopStream(record.conversation, record.streamId, withNote ? INTERRUPTED_NOTE : '');
    return withNote;
  } catch (error) {
    logger.info({ err: error, stream: record.streamId }, 'could not end the interrupted native stream (no longer open?); the note goes elsewhere');
    return false;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
