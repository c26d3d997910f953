/**
 * A message the user edited or deleted (InboundSink.revise) changed where it waits in its
 * conversation's queue: an edited one is answered in its new form, a deleted one by nobody (kept
 * in its place as a tombstone, so that the queue's order and a burst's count stay what the turn
 * reading it expects: turn/burst.ts). The change is a compare and set on the entry (listReplace),
 * tried again when the queue moved between the read and the write.
 *
 * Too late is only logged: a message no longer queued was answered; one whose answer had started
 * is changed in the queue all the same, and the turn's advance finds it changed and logs that it
 * is not answered again (drain/drains.ts).
 */
import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import type { InboundRevision } from '../../contract.js';
import { parseQueuedMessage, toQueuedMessage, type LocalAttachments, type QueuedMessage } from '../drain/index.js';
import { gatewayKeys } from '../state-keys.js';

/** Tries of the compare and set: a queue moves once per answer, so a second try finds it still. */
const REVISE_TRIES = 3;

export type ReviseOutcome = 'revised' | 'not-queued' | 'moving';

export async function reviseQueued(
  state: StateStore,
  local: LocalAttachments,
  revision: InboundRevision,
  logger: Logger,
): Promise<ReviseOutcome> {
  const { conversation, platformMessageId } =
    revision.kind === 'edited'
      ? { conversation: revision.message.conversation, platformMessageId: revision.message.platformMessageId }
      : revision;
  const key = gatewayKeys.queue(conversation);
  const log = logger.child({ conversation, platformMessageId, revision: revision.kind });
  for (let tries = 1; tries <= REVISE_TRIES; tries++) {
    const entries = await state.listRange(key, 0, -1);
    const index = entries.findIndex(
      (entry) => parseQueuedMessage(entry)?.inbound.platformMessageId === platformMessageId,
    );
    const queued = index >= 0 ? parseQueuedMessage(entries[index]!) : null;
    if (!queued) {
      log.info(
        revision.kind === 'edited'
          ? 'a message was edited after it was answered; the edit is not answered'
          : 'a message was deleted after it was answered',
      );
      return 'not-queued';
    }
    const revised = revisedEntry(queued, revision, local);
    if (await state.listReplace(key, index, entries[index]!, JSON.stringify(revised))) {
      log.info(
        revision.kind === 'edited'
          ? 'a queued message was edited; it is answered as it reads now'
          : 'a queued message was deleted; it is not answered',
      );
      return 'revised';
    }
  }
  log.warn('a queued message changed while its edit was applied; the edit is not applied');
  return 'moving';
}

function revisedEntry(queued: QueuedMessage, revision: InboundRevision, local: LocalAttachments): QueuedMessage {
  if (revision.kind === 'deleted') return { ...queued, deleted: true };
  // The same queued message (its id, origin and arrival), reading as it does now.
  const edited = toQueuedMessage(revision.message, queued.id, queued.origin, queued.acceptedAt);
  if (revision.message.attachments.length > 0) local.keep(queued.id, revision.message.attachments);
  return { ...edited, edited: true };
}
