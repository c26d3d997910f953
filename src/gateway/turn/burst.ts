/**
 * A burst: messages one user writes in quick succession ("hi", "I'm looking for", "a 3 bedroom in
 * Austin") answered as one question, counted once against the chatbot's limits. The conversation's
 * queue in Redis decides what a burst holds, not a timer in one process: the turn waits until its
 * head is `burstMs` old (showing "typing…"), reads the queue's first entries in its first batch
 * (turn/first-batch.ts), and takes the head with the entries after it that continue it; while the
 * newest of those is younger than `burstMs` it waits and reads again, for at most `burstMaxWaitMs`
 * from the head. The entries stay queued until the turn's advance removes them all at once
 * (drain/drains.ts), so a crash in the middle loses none: whoever takes the conversation over reads
 * and merges them again. Messages queued while an answer was written are taken together by the
 * next turn the same way.
 *
 * What never joins a burst: a command or a button press (they stand alone, `standsAlone`), another
 * user's message (a group), files that would make one question of mixed media (media/media-policy.ts),
 * and text past what ClientAsk takes. A message deleted before its answer (a tombstone,
 * intake/revise.ts) is taken with the burst and answered by nobody.
 */
import { isClientAskContentTooLong } from '../../upstream/limits.js';
import { MEDIA_LIMITS } from '../media/index.js';
import { parseQueuedMessage, type QueuedMessage } from '../drain/index.js';
import type { GatewayPolicy } from '../gateway-policy.js';
import { questionText } from './question.js';

/** Most queued entries a turn reads to find its burst: the queue's cap (gateway-policy.ts QUEUE_CAP) at its default. */
export const BURST_READ_MAX = 20;

export type BurstPolicy = Pick<GatewayPolicy, 'burstMs' | 'burstMaxWaitMs' | 'quoteMaxChars'>;

export interface BurstRules {
  policy: BurstPolicy;
  /** A message answered on its own: a command, a button press (the commands registry knows them). */
  standsAlone(message: QueuedMessage['inbound']): boolean;
}

/** What of the queue one turn answers. */
export interface BurstTake {
  /** The queue's first entries as read, all removed with the turn's advance. */
  answered: string[];
  /** Those to answer, in order: without the deleted ones and the unreadable. */
  messages: QueuedMessage[];
  /** The burst may still grow: its newest message is younger than `burstMs`. Wait until then and read again. */
  openUntil?: number;
}

/** Whether the head may be the start of a burst: the turn waits for it to settle before its first batch. */
export function mayBurst(head: QueuedMessage, rules: BurstRules): boolean {
  return rules.policy.burstMs > 0 && !head.deleted && !rules.standsAlone(head.inbound);
}

/** When a head that may burst has waited long enough to be read with what followed it. */
export function settledAt(head: QueuedMessage, rules: BurstRules, now = Date.now()): number {
  return Math.min(head.acceptedAt, now) + rules.policy.burstMs;
}

/**
 * The burst at the queue's front (`entries`, read from index 0). Without bursts (burstMs 0) the
 * head alone; a head that stands alone, alone too.
 */
export function takeBurst(entries: readonly string[], rules: BurstRules, now = Date.now()): BurstTake {
  const { policy } = rules;
  const answered: string[] = [];
  const messages: QueuedMessage[] = [];
  for (const entry of entries) {
    const message = parseQueuedMessage(entry);
    if (messages.length === 0) {
      answered.push(entry);
      if (!message || message.deleted) {
        if (policy.burstMs === 0) break;
        continue;
      }
      messages.push(message);
      if (policy.burstMs === 0 || rules.standsAlone(message.inbound)) break;
      continue;
    }
    if (!message) break;
    if (message.deleted) {
      answered.push(entry);
      continue;
    }
    if (!continues(messages, message, rules)) break;
    answered.push(entry);
    messages.push(message);
  }
  const first = messages[0];
  const newest = messages.at(-1);
  if (!first || !newest || policy.burstMs === 0 || rules.standsAlone(first.inbound)) return { answered, messages };
  const openUntil = Math.min(
    Math.min(newest.acceptedAt, now) + policy.burstMs,
    Math.min(first.acceptedAt, now) + policy.burstMaxWaitMs,
  );
  return openUntil > now ? { answered, messages, openUntil } : { answered, messages };
}

function continues(burst: readonly QueuedMessage[], next: QueuedMessage, rules: BurstRules): boolean {
  const first = burst[0]!;
  if (rules.standsAlone(next.inbound) || next.inbound.user.id !== first.inbound.user.id) return false;
  if (!filesFit(burst, next)) return false;
  const text = questionText(
    [...burst, next].map((message) => message.inbound),
    rules.policy.quoteMaxChars,
  );
  return !isClientAskContentTooLong(text);
}

/** One ClientAsk takes several images, or one video, or one audio: files of two messages join only as images. */
function filesFit(burst: readonly QueuedMessage[], next: QueuedMessage): boolean {
  const files = burst.flatMap((message) => message.inbound.attachments);
  if (next.inbound.attachments.length === 0 || files.length === 0) return true;
  const all = [...files, ...next.inbound.attachments];
  return all.every((file) => file.kind === 'image') && all.length <= MEDIA_LIMITS.imagesPerMessage;
}
