/**
 * The waiting half of a burst (turn/burst.ts): the turn's messages taken from what its first batch read
 * of the queue and, while the burst may still grow, read again once it has had time to (one more round
 * trip only then: a burst being written). Cut off meanwhile (stopping, the lock lost), the wait throws
 * the signal's reason, and every message stays queued; stopped by the user (/stop), it ends, and the
 * turn answers that it stopped.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Inbound } from '../../contract.js';
import { parseQueuedMessage, type QueuedMessage } from '../drain/index.js';
import { gatewayKeys } from '../state-keys.js';
import { BURST_READ_MAX, takeBurst, type BurstRules, type BurstTake } from './burst.js';
import type { Turn } from './turn-context.js';

/** The queue's entries a turn takes (removed with its advance); `empty` when none is left to answer (all deleted). */
export interface Gathered {
  answered: string[];
  empty: boolean;
}

/**
 * What the turn answers, set on it (`Turn.answerTogether`); undefined to answer its head alone, as it
 * came (nothing was read of the queue).
 */
export async function gatherBurst(
  turn: Turn,
  head: QueuedMessage,
  rules: BurstRules,
  restore: (message: QueuedMessage) => Inbound,
  /** Told before each wait: the turn holds no answer slot while it only waits (drain/drains.ts SlotLoan). */
  waiting: () => void = () => undefined,
): Promise<Gathered | undefined> {
  const queued = turn.prefetched.queued;
  if (!queued || queued.length === 0) return undefined;
  let take = takeBurst(queued, rules);
  if (parseQueuedMessage(take.answered[0] ?? '')?.id !== head.id) {
    turn.logger.warn('the queue holds another head than the one this turn started with; answering that head alone');
    return undefined;
  }
  while (take.openUntil !== undefined && !turn.stopSignal.aborted) {
    waiting();
    await sleep(take.openUntil - Date.now(), undefined, {
      signal: AbortSignal.any([turn.signal, turn.stopSignal]),
    }).catch((error: unknown) => {
      if (turn.signal.aborted) throw error;
    });
    if (turn.stopSignal.aborted) break;
    take = await readAgain(turn, rules);
  }
  turn.answerTogether(take.messages.map(restore));
  return { answered: take.answered, empty: take.messages.length === 0 };
}

/** Only this process takes from the queue while it holds the lock: what was first is still first, edited perhaps. */
async function readAgain(turn: Turn, rules: BurstRules): Promise<BurstTake> {
  const entries = await turn.services.state.listRange(gatewayKeys.queue(turn.conversation), 0, BURST_READ_MAX - 1);
  return takeBurst(entries, rules);
}
