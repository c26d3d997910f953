/**
 * Every state key of the handoff (logical keys; the store adds its `cb:` prefix).
 * One place, so the README's key table and the code cannot drift.
 *
 * Where keys live (src/state/slots.ts): a conversation's keys carry its shard's hash tag
 * (`handoff:{c17}:main:telegram:42`), and the indexes are one per shard (`handoffs:paused:{c17}`,
 * `handoff:outbox:{c17}`, `handoff:dead:{c17}`), so a pause and its e-mail are written in one MULTI
 * in one Redis Cluster slot. A mail lives in the shard of its conversation, and its id says
 * which (`c17-<uuid>`), so an operator's requeue by id finds it.
 */
import { randomUUID } from 'node:crypto';
import type { ConversationRef } from '../contract.js';
import { conversationTag } from '../gateway/index.js';
import { CONVERSATION_SHARDS, conversationShard, shardTag } from '../state/slots.js';
import { formatConversationId } from './conversation-id.js';

const tagged = (c: ConversationRef): string => `${conversationTag(c)}:${formatConversationId(c)}`;

export const handoffKeys = {
  /**
   * Hash of a paused conversation: since, reason, handoffId, expiresAt, user
   * (JSON), isGroup. TTL = pauseHours + EXPIRED_PAUSE_NOTICE_MS (see policy.ts).
   * Also `upstreamFailures`, the upstream failures in a row (pause/pause-store.ts countFailure), beside a pause or
   * alone (no handoffId: no pause; then TTL FAILURE_COUNT_TTL_MS from the last failure).
   */
  pause: (c: ConversationRef) => `handoff:${tagged(c)}`,
  /** Sorted set of the paused conversations of one shard (member `<bot>:<platform>:<id>`, score expiresAt), for the admin list. */
  paused: (tag: string) => `handoffs:paused:${tag}`,
  /** HMAC key of hand-back links when handoff.secret (HANDOFF_SECRET) is not set; generated once, no expiry. No tag: global. */
  secret: 'handoff:secret',
  /** Sorted set of the mails of one shard to send (member mail id, score = when it is due, ms). */
  outbox: (tag: string) => `handoff:outbox:${tag}`,
  /** Sorted set of one shard's dead letters (member mail id, score = when it was given up, ms); the mail's JSON stays at `mail(tag, id)`. */
  dead: (tag: string) => `handoff:dead:${tag}`,
  /**
   * JSON FollowUpState of a paused conversation: the "user wrote again" mail of
   * this pause waiting in the outbox, or the last one sent. TTL = the pause's rest.
   */
  followUp: (c: ConversationRef) => `handoff:follow-up:${tagged(c)}`,
  /** JSON OutboxMail; deleted once sent (kept while it is a dead letter). `tag`: the mail's shard (mailTag). */
  mail: (tag: string, id: string) => `handoff:mail:${tag}:${id}`,
  /** A process's claim of one mail while it sends it (lock token, TTL outbox leaseMs). */
  mailLease: (tag: string, id: string) => `handoff:mail-lease:${tag}:${id}`,
  /**
   * Capped list of JSON HandBack (src/handoff/pause/hand-back-history.ts), newest last: the inbox's history of
   * handed-back conversations. No tag: one small global list, never in a MULTI with other keys.
   */
  history: 'handoff:history',
};

/** The operator doors' keys (src/handoff/threads/): a conversation's threads, and how each is found again. */
export const threadKeys = {
  /** Hash of a conversation's threads: field = the door's platform, value = JSON ThreadRecord. Kept as long as a transcript. */
  threads: (c: ConversationRef) => `handoff:threads:${tagged(c)}`,
  /** The conversation (`<bot>:<platform>:<id>`) a door's thread belongs to; no tag: read alone, by what an operator wrote in. */
  threadOf: (door: string, bot: string, thread: string) => `handoff:thread-of:${door}:${bot}:${thread}`,
  /** Sorted set of one shard's conversations whose threads are behind (member `<bot>:<platform>:<id>`, score = due, ms). */
  due: (tag: string) => `handoff:threads:due:${tag}`,
  /** One process's claim of a conversation's threads while it brings them up to date (lock token). */
  lease: (c: ConversationRef) => `handoff:threads-lease:${tagged(c)}`,
  /** A door's message or button press already handled (its platform id): a redelivery does nothing. */
  seen: (door: string, bot: string, id: string) => `handoff:thread-seen:${door}:${bot}:${id}`,
};

/** The day's digests' keys (src/handoff/digests/). */
export const digestKeys = {
  /**
   * Set of the conversations (`<bot>:<platform>:<id>`) of one chatbot that had a turn on one local day, one per
   * shard (`tag`: the conversations' own), written with a turn's queue advance. Kept as long as a transcript.
   */
  active: (tag: string, serial: string, day: string) => `digest:active:${tag}:${serial}:${day}`,
  /** Hash of a digest queued (at, mail id): once per bot, kind and day. `tag`: the digest's own shard (digestRef). */
  sent: (tag: string, bot: string, kind: string, day: string) => `digest:sent:${tag}:${bot}:${kind}:${day}`,
  /** One process's claim while it builds a digest (lock token): the others wait for its result. */
  building: (bot: string, kind: string, day: string) => `digest:building:${bot}:${kind}:${day}`,
};

/** The operator accounts' keys (src/handoff/operators/). No tags: few, read and written alone. */
export const operatorKeys = {
  /** Hash of every operator account: field = the lower-case e-mail address, value = JSON OperatorAccount. No expiry. */
  accounts: 'operators:accounts',
  /** Capped list of JSON AuditEntry, newest last: every change to operators and every sign-in. */
  audit: 'operators:audit',
};

/** The operator inbox's keys (src/handoff/inbox/). No tags: none is ever in a MULTI with another key. */
export const inboxKeys = {
  /**
   * JSON InboxSession by the SHA-256 (base64url) of its id, TTL inbox.sessionHours: the cookie holds
   * the id, Redis only its digest, so a copy of the store signs nobody in.
   */
  session: (idDigest: string) => `inbox:session:${idDigest}`,
  /** Sign-in attempts from one client address in the current window (counter, TTL the window). */
  signInAttempts: (address: string) => `inbox:sign-in:${address}`,
  /** Sign-in attempts against one account (the admin token) from every address in the current window (counter, TTL the window). */
  signInAccountAttempts: (account: string) => `inbox:sign-in-account:${account}`,
  /** Sign-in links asked for one e-mail address (its SHA-256) in the current window, from any address (counter). */
  signInEmailAttempts: (emailDigest: string) => `inbox:sign-in-email:${emailDigest}`,
  /**
   * Hash of a one-time sign-in link by the SHA-256 of its token (email, browser: the SHA-256 of the asking browser's
   * nonce), TTL the link's minutes; deleted when used. The mail holds the token, Redis only its digest.
   */
  signInLink: (tokenDigest: string) => `inbox:sign-in-link:${tokenDigest}`,
  /**
   * Hash of an operator account's sessions: field = the session id's digest, value = JSON AccountSessionInfo (device,
   * address, signed in, last seen, expiry), TTL the longest session's; so an admin lists and ends them, and a removal ends all.
   */
  accountSessions: (accountId: string) => `inbox:account-sessions:${accountId}`,
};

/** A new mail id, naming the shard of the conversation it is about: `c<shard>-<uuid>`. */
export function newMailId(conversation: ConversationRef): string {
  return `c${conversationShard(conversation.bot, conversation.platform, conversation.id)}-${randomUUID()}`;
}

/** The tag of the shard a mail id names; null for an id that names none (not one of ours, or of the layout before shards). */
export function mailTag(id: string): string | null {
  const match = /^c(\d{1,3})-/.exec(id);
  const shard = match ? Number(match[1]) : NaN;
  return Number.isInteger(shard) && shard < CONVERSATION_SHARDS ? shardTag(shard) : null;
}
