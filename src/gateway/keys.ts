/**
 * Every state key the gateway core uses (logical keys; the store adds its `cb:`
 * prefix). One place, so the README's key table and the code cannot drift.
 */
import type { ConversationQueueKeys } from '../state/index.js';
import type { ConversationRef } from '../contract.js';

const conv = (c: ConversationRef) => `${c.bot}:${c.platform}:${c.id}`;

export const gatewayKeys = {
  /** SET NX marker of a platform message already accepted (TTL policy.dedupeTtlMs). */
  dedupe: (c: ConversationRef, platformMessageId: string) => `dedupe:${c.platform}:${c.bot}:${c.id}:${platformMessageId}`,
  /** FIFO list of queued messages (JSON QueuedMessage); the head is being answered. */
  queue: (c: ConversationRef) => `queue:${conv(c)}`,
  /** Lock of the process answering the conversation (random token, TTL policy.lockTtlMs). */
  lock: (c: ConversationRef) => `lock:${conv(c)}`,
  /** Set of conversations with queued messages (members: JSON [bot, platform, id]). */
  pending: 'queues:pending',
  /** The Chatbot Service sessionID of a conversation (TTL policy.sessionIdleTtlMs, renewed by each message; /reset deletes it). */
  session: (c: ConversationRef) => `session:${conv(c)}`,
  /** Fixed-window counter of one user's messages (TTL RateLimitTime). */
  rate: (c: ConversationRef, userId: string) => `rate:${c.bot}:${c.platform}:${userId}`,
  /** Messages answered for one chatbot in one calendar month of its TimeZone (TTL ~2 months). */
  monthly: (serialNumber: string, month: string) => `monthly:${serialNumber}:${month}`,
  /** Capped list of JSON TranscriptEntry (policy.transcriptMaxEntries, TTL policy.transcriptTtlMs). */
  transcript: (c: ConversationRef) => `transcript:${conv(c)}`,
  /** Consecutive upstream failures of a conversation; deleted by the next answer. */
  failures: (c: ConversationRef) => `failures:${conv(c)}`,
  /** Turns started for one queued message (cut off or not), counted in the turn's first batch; deleted when it leaves the queue (poison limit). */
  attempts: (c: ConversationRef, platformMessageId: string) => `attempts:${conv(c)}:${platformMessageId}`,
  /** JSON: the queued message waiting for the Chatbot Service to come back, since when, tries so far. */
  upstreamWait: (c: ConversationRef) => `upstream-wait:${conv(c)}`,
  /** Hash mirror of a chatbot's settings, one field per setting, values JSON-encoded. */
  settings: (serialNumber: string) => `settings:${serialNumber}`,
};

/** The member of `queues:pending` for a conversation; ids may contain ':' so it is JSON. */
export function conversationMember(c: ConversationRef): string {
  return JSON.stringify([c.bot, c.platform, c.id]);
}

export function parseConversationMember(member: string): ConversationRef | null {
  try {
    const parsed: unknown = JSON.parse(member);
    if (Array.isArray(parsed) && parsed.length === 3 && parsed.every((part) => typeof part === 'string')) {
      const [bot, platform, id] = parsed as [string, string, string];
      return { bot, platform, id };
    }
  } catch {
    // not ours: fall through
  }
  return null;
}

export function queueKeys(c: ConversationRef): ConversationQueueKeys {
  return { queue: gatewayKeys.queue(c), lock: gatewayKeys.lock(c), pending: gatewayKeys.pending, member: conversationMember(c) };
}
