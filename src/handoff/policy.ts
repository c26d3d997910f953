/**
 * The handoff's fixed numbers (what it says in a chat is in the core's catalogues, the `handoff`
 * sentences of each language). Durations that an operator tunes live in the configuration (`handoff.*`); these are the ones
 * only a developer should change, plus the outbox timings tests may shorten.
 */

import { backoffDelay } from '../contract.js';

/** Prefix of the offer button's value (`human:offer`); the payload is informational only. */
export const HANDOFF_ACTION_PREFIX = 'human';
export const HANDOFF_COMMAND = 'human';

/**
 * The pause hash outlives the pause by this much, so that the user's first
 * message after expiry still finds it and can be told the bot is back (then it
 * is deleted). A user silent for longer is simply answered.
 */
export const EXPIRED_PAUSE_NOTICE_MS = 30 * 24 * 60 * 60_000;

/**
 * Upstream failures in a row are forgotten after a quiet day (the count's hash, without a pause, expires a day after
 * its last failure: pause-store.ts countFailure), so one bad hour long ago does not count toward handoff.failureThreshold.
 */
export const FAILURE_COUNT_TTL_MS = 24 * 60 * 60_000;

/** Lifetime of the e-mail's link into the inbox when handoff.inboxLinkHours is unset: a week, for an operator back on Monday. */
export const INBOX_LINK_HOURS = 7 * 24;

/** Newest transcript entries put into the e-mail (the store keeps at most its own cap anyway). */
export const MAIL_TRANSCRIPT_ENTRIES = 200;

export interface OutboxPolicy {
  /** How often each process looks for due mails (a new mail in this process is sent at once). */
  pollIntervalMs: number;
  /** First retry delay after a failed send; doubles per failure. */
  retryBaseMs: number;
  /** Longest retry delay: SMTP down for a day still gets a try every this often. */
  retryCapMs: number;
  /**
   * A claim's lifetime; renewed every third of it while the send runs, so it only
   * lapses when the process died mid-send (then another process sends the mail).
   */
  leaseMs: number;
  /** Due mails claimed per poll. */
  batchSize: number;
  /**
   * Permanent refusals (SMTP 5xx, e.g. an unknown recipient) after which a mail
   * goes to the dead letters: retrying cannot fix an address, and an endless
   * retry would only hide the misconfiguration from the operator.
   */
  maxPermanentFailures: number;
  /** A mail this old that is refused permanently goes to the dead letters at once (the hand-back link is stale by then). */
  maxPermanentAgeMs: number;
}

export const DEFAULT_OUTBOX_POLICY: OutboxPolicy = {
  pollIntervalMs: 5_000,
  retryBaseMs: 10_000,
  retryCapMs: 30 * 60_000,
  leaseMs: 60_000,
  batchSize: 10,
  maxPermanentFailures: 5,
  maxPermanentAgeMs: 3 * 24 * 60 * 60_000,
};

/**
 * Delay before the attempt after `failures` failed ones: base·2^(failures−1), capped (the
 * project's one backoff). No jitter: a poll sends at most `batchSize` due mails, so mails
 * that failed together are not sent again all at once anyway.
 */
export function retryDelayMs(failures: number, policy: Pick<OutboxPolicy, 'retryBaseMs' | 'retryCapMs'>): number {
  return backoffDelay(failures, { firstMs: policy.retryBaseMs, maxMs: policy.retryCapMs, jitter: 0 });
}
