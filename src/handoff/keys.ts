/**
 * Every state key of the handoff (logical keys; the store adds its `cb:` prefix).
 * One place, so the README's key table and the code cannot drift.
 */
import type { ConversationRef } from '../contract.js';
import { formatConversationId } from './conversation-id.js';

export const handoffKeys = {
  /**
   * Hash of a paused conversation: since, reason, handoffId, expiresAt, user
   * (JSON), isGroup. TTL = pauseHours + EXPIRED_PAUSE_NOTICE_MS (see policy.ts).
   */
  pause: (c: ConversationRef) => `handoff:${formatConversationId(c)}`,
  /** Sorted set of paused conversations (member `<bot>:<platform>:<id>`, score expiresAt), for the admin list. */
  paused: 'handoffs:paused',
  /** HMAC key of hand-back links when handoff.secret (HANDOFF_SECRET) is not set; generated once, no expiry. */
  secret: 'handoff:secret',
  /** Sorted set of mails to send (member mail id, score = when it is due, ms). */
  outbox: 'handoff:outbox',
  /** Sorted set of dead letters (member mail id, score = when it was given up, ms); the mail's JSON stays at `mail(id)`. */
  dead: 'handoff:dead',
  /**
   * JSON FollowUpState of a paused conversation: the "user wrote again" mail of
   * this pause waiting in the outbox, or the last one sent. TTL = the pause's rest.
   */
  followUp: (c: ConversationRef) => `handoff:follow-up:${formatConversationId(c)}`,
  /** JSON OutboxMail; deleted once sent (kept while it is a dead letter). */
  mail: (id: string) => `handoff:mail:${id}`,
  /** A process's claim of one mail while it sends it (lock token, TTL outbox leaseMs). */
  mailLease: (id: string) => `handoff:mail-lease:${id}`,
};
