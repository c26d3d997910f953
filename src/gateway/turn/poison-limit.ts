/**
 * The poison-message limit: a queued message whose turns keep getting cut off
 * (the process dies or stops mid-turn, or loses the conversation's lock because
 * something blocked it) would otherwise be taken up again after every restart,
 * for ever, and hold up the conversation's queue. Each turn started for a
 * message is counted in Redis; past MAX_TURN_ATTEMPTS the message leaves the
 * queue with a reply that says so.
 *
 * The count is kept by the turns that may follow a cut-off one (their first batch, turn/first-batch.ts:
 * a key absent means at most one turn started, so the common turn, of a message that just became
 * first, writes nothing), and deleted with the writes that take the message off the queue
 * (`Turn.later`) by the turn that wrote or found it (forgetWhenLeaving), so it counts the turns that
 * never finished, and the common turn deletes nothing either. One way it counts one more than
 * happened: a message that waited in line for a slot in a process that then stopped, taken over
 * before any turn of it started, is counted as if one had been cut off (a takeover cannot tell).
 * A controlled wait for the Chatbot Service (upstream-wait.ts) resets it: waiting is not failing.
 */
import type { TurnContext as Turn } from './turn-context.js';
import { gatewayKeys } from '../state-keys.js';
import { upstreamWaitKey } from './upstream-wait.js';

/** Turns a message may start without finishing; the next one gives up on it. */
export const MAX_TURN_ATTEMPTS = 3;

/** The count outlives any realistic run of restarts, and then goes, should the message vanish otherwise. */
export const ATTEMPTS_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * True when the message has used up its attempts and must leave the queue. `attempt`
 * was counted in the turn's first batch (turn/first-batch.ts), which also had the count deleted
 * with the writes that take the message off the queue (forgetWhenLeaving): a message past the
 * limit has been counted, so its count goes with it.
 */
export function hasUsedUpAttempts(turn: Turn, attempt: number): boolean {
  if (attempt <= MAX_TURN_ATTEMPTS) return false;
  turn.logger.error(
    { attempts: attempt - 1 },
    'a message was cut off in every attempt to answer it; it leaves the queue (poison-message limit)',
  );
  return true;
}

/** The turns that have asked forgetWhenLeaving already: each asks once, however often it waits. */
const forgetting = new WeakSet<Turn>();

/**
 * Has what turns of the message keep for the turn that may follow a cut-off one deleted with the
 * writes that take the message off the queue (`Turn.later`, the queue advance): its count of turns
 * and its wait for the service (upstream-wait.ts, kept by conversation, naming the message). Asked
 * by a turn that wrote or found them: a turn that counted (an `again` head's, or a `line` head's
 * that found a count: turn/first-batch.ts), and a turn that waited for the service (it wrote both).
 * Any other turn's message had no earlier turn (drain/drains.ts HeadOrigin) and wrote neither, so the
 * common answer deletes nothing. A turn cut off writes none of its `later`: the turn that takes the
 * message over counts, and deletes. Once per turn.
 */
export function forgetWhenLeaving(turn: Turn): void {
  if (forgetting.has(turn)) return;
  forgetting.add(turn);
  turn.later(
    { op: 'del', key: gatewayKeys.attempts(turn.conversation, turn.inbound.platformMessageId) },
    { op: 'del', key: upstreamWaitKey(turn) },
  );
}

/**
 * Forgets the attempts so far (the turn ended in a controlled way, and will be tried again): a count
 * of 0 rather than none, since none means "maybe one started" to the turn that takes it over.
 */
export async function resetTurnAttempts(turn: Turn): Promise<void> {
  await turn.services.state.set(gatewayKeys.attempts(turn.conversation, turn.inbound.platformMessageId), '0', {
    ttlMs: ATTEMPTS_TTL_MS,
  });
}

/** The message leaves the queue: the user is told to send it again differently. */
export async function givePoisonReply(turn: Turn): Promise<void> {
  await turn.reply((await turn.texts()).poisonMessage(MAX_TURN_ATTEMPTS));
}
