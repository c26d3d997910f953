import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import type { Capabilities, ConversationRef, Outbound } from '../../contract.js';
import {
  canEdit,
  canStopStream,
  isPlatformOutage,
  isRetriedPlatformError,
  REPLY_RETRY_POLICY,
  retryPlatformCall,
  type PlatformRetryPolicy,
} from '../reply/index.js';
import { PLATFORM_OUTAGE_HORIZON_MS } from '../gateway-policy.js';
import { rangeEveryShard } from '../../state/shard-walk.js';
import { conversationTag } from '../state-keys.js';
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
import { userTexts, type UserTexts } from '../user-texts.js';

/**
 * What goes between the half-shown answer and the note on it (the interruptedNote), by an edit
 * or as the last piece of its native stream: a paragraph of its own. A note sent alone has none.
 */
export const INTERRUPTED_NOTE_SEPARATOR = '\n\n';

/** Records handled per run; a periodic run picks up the rest. */
export const RECOVERY_BATCH_SIZE = 100;

export interface RecoveryOptions {
  state: StateStore;
  /** The platform of a recorded conversation; undefined when that bot is not configured here. */
  outboundFor(conversation: ConversationRef): { outbound: Outbound; capabilities: Capabilities } | undefined;
  logger: Logger;
  /** Age after which a record whose owner cannot be checked counts as abandoned. */
  olderThanMs?: number;
  /**
   * How long a note waits for a platform that cannot take it yet (gateway.platformOutageHorizonMs,
   * the final answer's horizon; default PLATFORM_OUTAGE_HORIZON_MS). A run that cannot wait keeps
   * the record this long after the answer's last update, for the conversation's next holder.
   */
  outageHorizonMs?: number;
  /** The sentences of a conversation, in its chatbot's language (default English). */
  textsOf?(conversation: ConversationRef): Promise<Pick<UserTexts, 'interruptedNote'>>;
}

/**
 * How the holder of a conversation's lock waits for the platform to take a note: the final
 * answer's one retry rule (platform-retry.ts). `signal` ends the wait when the lock is lost or
 * the gateway stops; the record is then kept for the next holder.
 */
interface NoteWait {
  policy: PlatformRetryPolicy;
  signal?: AbortSignal | undefined;
}

/** What became of a claimed record: the note given, nothing to give (forgotten), or kept for later. */
type Resolution = 'told' | 'dropped' | 'kept';

/**
 * Finds answers whose process is gone (at startup, or periodically), tells the
 * user in each conversation that the answer was interrupted, and forgets them.
 * Safe to run from several processes at once: each record is claimed by exactly
 * one of them. Returns how many answers were recovered.
 *
 * It holds no conversation's lock, so it does not wait for a platform that cannot take
 * a note now (unreachable, a WhatsApp standby without the browser, 429): the record is
 * kept for the conversation's next holder, which waits (recoverConversation), or for a
 * later run, until the outage horizon has passed.
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
    if ((await resolveClaimed(tag, answerId, record, options)) === 'told') recovered++;
  }
  return recovered;
}

/** The answers not updated since `updatedBefore`, oldest first, at most RECOVERY_BATCH_SIZE, from every shard's index. */
async function staleCandidates(state: StateStore, updatedBefore: number): Promise<{ tag: string; answerId: string }[]> {
  const stale = await rangeEveryShard(
    state,
    inflightIndexKey,
    Number.NEGATIVE_INFINITY,
    updatedBefore,
    RECOVERY_BATCH_SIZE,
  );
  return stale.map(({ tag, member }) => ({ tag, answerId: member }));
}

/**
 * Resolves every interrupted answer of one conversation, whoever wrote it and
 * however recent: call it holding the conversation's lock, before answering its
 * queue. The lock was free, so whoever showed those answers no longer answers
 * here (it crashed, stopped, or lost the lock), and the note must come before
 * the answer given again, not after it. Returns how many were resolved.
 *
 * A platform that cannot take the note yet is waited for as the answer would be (the same
 * retry rule, up to the outage horizon), while the caller's heartbeat keeps the lock: a
 * WhatsApp standby takes a conversation over before it runs the browser. `signal` (the
 * turn's: the lock lost, the gateway stopping) ends the wait, and what is left unresolved
 * is kept for the next holder.
 */
export async function recoverConversation(
  options: RecoveryOptions,
  conversation: ConversationRef,
  signal?: AbortSignal,
): Promise<number> {
  const { state } = options;
  const tag = conversationTag(conversation);
  const wait: NoteWait = { policy: { ...REPLY_RETRY_POLICY, outageHorizonMs: horizonOf(options) }, signal };
  let recovered = 0;
  for (const answerId of await state.setMembers(inflightConversationKey(conversation))) {
    if (signal?.aborted) break;
    const record = decodeRecord(await state.hashGetAll(inflightKey(tag, answerId)));
    // The same claim as the periodic run's: a concurrent run resolves each record once.
    if ((await state.sortedRemove(inflightIndexKey(tag), answerId)) === 0 && record) continue;
    if ((await resolveClaimed(tag, answerId, record, options, wait)) === 'told') recovered++;
    // A record already gone (its TTL) leaves only its id here.
    if (!record) await state.setRemove(inflightConversationKey(conversation), answerId);
  }
  return recovered;
}

/**
 * Tells the user (when the record is readable) and forgets the record; or, when the note
 * is kept for later (keepsForLater), gives the claim back: the index entry, with the
 * record's own score, so that the conversation's next holder or a later run tells it. The
 * record, its conversation's set and the index of `tag` share the conversation's slot.
 */
async function resolveClaimed(
  tag: string,
  answerId: string,
  record: InflightRecord | null,
  options: RecoveryOptions,
  wait?: NoteWait,
): Promise<Resolution> {
  if (!record) {
    await options.state.del(inflightKey(tag, answerId));
    return 'dropped';
  }
  let resolution: Resolution;
  try {
    resolution = (await tellInterrupted(record, options, wait)) ? 'told' : 'dropped';
  } catch (error) {
    const log = { err: error, answer: answerId, conversation: record.conversation };
    if (keepsForLater(error, record, options, wait)) {
      resolution = 'kept';
      if (wait)
        options.logger.info(
          log,
          'stopped waiting to tell the user an answer was interrupted (the conversation was lost, or the gateway stops); its next holder tells it',
        );
      // Not at info: every run of every process meets it again until the platform is back.
      else
        options.logger.debug(
          log,
          "the platform cannot take the note on an interrupted answer yet; kept for the conversation's next holder, which waits for it",
        );
    } else {
      resolution = 'dropped';
      options.logger.warn(log, 'could not tell the user an answer was interrupted');
    }
  }
  if (resolution === 'kept') {
    await options.state.sortedAdd(inflightIndexKey(tag), record.updatedAt, answerId);
  } else {
    await options.state.atomic([
      { op: 'del', key: inflightKey(tag, answerId) },
      { op: 'setRemove', key: inflightConversationKey(record.conversation), member: answerId },
    ]);
  }
  return resolution;
}

/**
 * Whether a note that did not get through is kept rather than given up. A holder that waited
 * gives up when the retry rule did (past the horizon, or a refusal of another kind) and keeps
 * it only when its wait was cut short. A run that could not wait keeps what the rule would
 * have tried again, until the horizon has passed since the answer was last shown.
 */
function keepsForLater(
  error: unknown,
  record: InflightRecord,
  options: RecoveryOptions,
  wait: NoteWait | undefined,
): boolean {
  if (wait) return wait.signal?.aborted === true;
  return isRetriedPlatformError(error) && Date.now() - record.updatedAt < horizonOf(options);
}

function horizonOf(options: RecoveryOptions): number {
  return options.outageHorizonMs ?? PLATFORM_OUTAGE_HORIZON_MS;
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

/** How the note's platform calls are made: waiting by the retry rule when the caller holds the conversation, once otherwise. */
interface NoteCalls {
  attempt<T>(call: () => Promise<T>): Promise<T>;
  /**
   * The failure refuses this place (a stream no longer open, a message no longer editable): the
   * note goes in a message instead. Not so for an unreachable platform (a message would not get
   * through either) nor a wait cut short: those are thrown.
   */
  placeRefused(error: unknown): boolean;
  logger: Logger;
}

function noteCalls(record: InflightRecord, logger: Logger, wait: NoteWait | undefined): NoteCalls {
  return {
    attempt: (call) =>
      wait
        ? retryPlatformCall(call, {
            ...wait,
            onUnreachable: (error, tries) => {
              if (tries === 1)
                logger.warn(
                  { err: error, conversation: record.conversation },
                  'the platform is unreachable; the note on an interrupted answer waits for it, before the answer is given again',
                );
            },
          })
        : call(),
    placeRefused: (error) => !isPlatformOutage(error) && wait?.signal?.aborted !== true,
    logger,
  };
}

async function tellInterrupted(
  record: InflightRecord,
  options: RecoveryOptions,
  wait: NoteWait | undefined,
): Promise<boolean> {
  const target = options.outboundFor(record.conversation);
  if (!target) {
    options.logger.warn(
      { conversation: record.conversation },
      'an interrupted answer belongs to a bot not configured here; dropping it',
    );
    return false;
  }
  const { outbound, capabilities } = target;
  const calls = noteCalls(record, options.logger, wait);
  const { interruptedNote } = (await options.textsOf?.(record.conversation)) ?? userTexts;
  // The note goes where the answer stopped: the stream, unless messages followed it (the answer fell back to edits).
  if (await endOpenStream(record, outbound, record.messageIds.length === 0, calls, interruptedNote)) return true;
  const note = renderFinal(interruptedNote, capabilities)[0] ?? interruptedNote;
  const lastMessageId = record.messageIds.at(-1);
  const annotated = `${record.lastText}${INTERRUPTED_NOTE_SEPARATOR}${note}`;
  if (lastMessageId && record.lastText && canEdit(outbound) && fitsOneMessage(annotated, capabilities)) {
    try {
      await calls.attempt(() => outbound.edit(record.conversation, { id: lastMessageId }, annotated));
      return true;
    } catch (error) {
      if (!calls.placeRefused(error)) throw error;
      options.logger.info(
        { err: error, message: lastMessageId },
        'could not edit the interrupted message; sending the note instead',
      );
    }
  }
  await calls.attempt(() => outbound.send(record.conversation, { text: note }));
  return true;
}

/**
 * Ends the native stream the record names, if the platform can from here: left open, it would
 * stay "writing…" with what it showed. True when it took the note (standard Markdown, as the
 * stream takes it). A stream no longer open (the answer had ended it, or the platform expired it)
 * is refused: the note then goes in a message.
 */
async function endOpenStream(
  record: InflightRecord,
  outbound: Outbound,
  withNote: boolean,
  calls: NoteCalls,
  interruptedNote: string,
): Promise<boolean> {
  const { streamId } = record;
  if (!streamId || !canStopStream(outbound)) return false;
  try {
    await calls.attempt(() =>
      outbound.stopStream(
        record.conversation,
        streamId,
        withNote ? `${INTERRUPTED_NOTE_SEPARATOR}${interruptedNote}` : '',
      ),
    );
    return withNote;
  } catch (error) {
    if (!calls.placeRefused(error)) throw error;
    calls.logger.info(
      { err: error, stream: streamId },
      'could not end the interrupted native stream (no longer open?); the note goes elsewhere',
    );
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
