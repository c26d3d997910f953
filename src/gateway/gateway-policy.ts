/**
 * The gateway core's tunable policy. Every field has a named default below, with
 * the reason for its value; `createGateway({ policy })` overrides any of them
 * (tests shorten the lock timings to exercise a takeover in milliseconds).
 */
export interface GatewayPolicy {
  /** How long a platform message id is remembered, so a redelivered update is answered once. */
  dedupeTtlMs: number;
  /** Lifetime of a conversation lock; it outlives a crashed holder by at most this long. */
  lockTtlMs: number;
  /** How often the lock holder renews its lock while answering. */
  heartbeatMs: number;
  /** How often a gateway looks for queues whose holder died (and at start()). */
  sweepIntervalMs: number;
  /** Most messages one conversation may have waiting (including the one being answered). */
  queueCap: number;
  /**
   * Most answers one process writes at once; further conversations wait their turn (their
   * messages queued in Redis, in arrival order) and a polling source stops fetching meanwhile.
   */
  maxAnswersInFlight: number;
  /** Entries kept per conversation transcript (the newest). */
  transcriptMaxEntries: number;
  /** A transcript nobody writes to for this long is forgotten. */
  transcriptTtlMs: number;
  /**
   * Entries of a transcript that, once written, are packed into one compressed chunk, off the answer's path (0: never;
   * at least 4 otherwise). A reader of this version reads both; before it, one read the unpacked entries only.
   */
  transcriptPackEntries: number;
  /**
   * A conversation silent for this long forgets its service session; its next message
   * starts a new one (GetSession, as for a new conversation). Renewed by every message.
   */
  sessionIdleTtlMs: number;
  /** How long a chatbot's settings are cached in-process before Redis is read again. */
  settingsCacheMs: number;
  /** On stop() (SIGTERM), how long answers in progress may finish before they are cut off (and handed over: their locks are released). */
  stopGraceMs: number;
  /** Listings shown per page by /listings. */
  listingsPageSize: number;
  /**
   * How long a final answer or a reply is retried while the platform is unreachable
   * (network error, 5xx); the message stays queued meanwhile. Past it, the reply is dropped.
   */
  platformOutageHorizonMs: number;
  /**
   * How long a message waits in its queue, retried with backoff, while the Chatbot Service
   * is unreachable (a transient failure before the answer started). 0 = apologise at once.
   */
  upstreamOutageHorizonMs: number;
  /**
   * How long a webhook request (a platform that sends it again when not answered 2xx) may take
   * to queue its messages; past it, or while Redis refuses, it is answered 503 and the platform
   * sends it again (intake/webhook-accept.ts).
   */
  webhookAcceptMs: number;
  /**
   * Messages of one user that follow each other within this long before their answer starts are
   * answered as one question (turn/burst.ts); the wait is shown as "typing…". 0 = each on its own.
   */
  burstMs: number;
  /** Longest a burst that keeps growing is waited for, from its first message; then it is answered as it is. */
  burstMaxWaitMs: number;
  /** Characters of a quoted message (a reply's context) sent to the service with the question. */
  quoteMaxChars: number;
}

/**
 * 20 minutes: Slack retries an unacknowledged event after 1 and 5 minutes and
 * Telegram re-sends an update until it is acknowledged; 10 minutes (vercel/chat's
 * choice) covers Slack's last retry with a small margin, 20 is openclaw's and
 * costs nothing but a few bytes per message.
 */
export const DEDUPE_TTL_MS = 20 * 60_000;

/** 30 s, as vercel/chat: short enough that a crash is taken over quickly. */
export const LOCK_TTL_MS = 30_000;

/**
 * A third of the lock's lifetime: two heartbeats may fail (a Redis hiccup) before
 * other processes' sweeps take the lock from a holder that is still answering (the Vercel Chat SDK's github.com/vercel/chat/issues/685).
 */
export const HEARTBEAT_MS = 10_000;

/** Half the lock lifetime: an orphaned queue waits at most lock TTL + this (45 s) for a process that has been sweeping. */
export const SWEEP_INTERVAL_MS = 15_000;

/** A user who sends 20 messages before the first is answered is better told to wait. */
export const QUEUE_CAP = 20;

/**
 * 256. A turn holds its slot while it waits for the platform's pace (Telegram: a group's
 * message every 3 s; Slack: a channel's message a second), so a cap divided by that wait
 * bounds answers per second: at 64, 500 group chats got 58 answers/s instead of 491
 * uncapped (bench/gateway.ts), below Telegram's own 30 messages/s with edits. At 256 a
 * polling burst of 10,000 new chats peaks at 246 MB (64: 194 MB, uncapped: 309 MB; an
 * all-at-once webhook burst is dominated by the accepts themselves: 434-481 MB at any cap;
 * bench/burst.ts on an idle 2-core machine).
 */
export const MAX_ANSWERS_IN_FLIGHT = 256;

/** Enough context for a handoff e-mail (vercel/chat keeps 200 per user too). */
export const TRANSCRIPT_MAX_ENTRIES = 200;

export const TRANSCRIPT_TTL_MS = 90 * 24 * 60 * 60_000;
/** Four answers and their questions make a chunk: the ratio of a few answers together, one packing per four answers. */
export const TRANSCRIPT_PACK_ENTRIES = 8;

/** As the transcript: a conversation quiet for 90 days starts afresh, and leaves nothing in Redis. */
export const SESSION_IDLE_TTL_MS = 90 * 24 * 60 * 60_000;

/**
 * A few seconds: settings change rarely (an admin's Edit), and each answered
 * message would otherwise pay one more Redis round trip to read them.
 */
export const SETTINGS_CACHE_MS = 5_000;

/**
 * 25 s: under Kubernetes' default terminationGracePeriodSeconds (30 s), leaving the rest for
 * releasing locks and closing Redis before the SIGKILL. An answer still running then is cut off;
 * the process that takes its conversation resolves what was half shown.
 */
export const STOP_GRACE_MS = 25_000;

/** Five listings fit in one Telegram message (4096 characters) with their details. */
export const LISTINGS_PAGE_SIZE = 5;

/**
 * An hour: Telegram's own outages and a gateway host's network trouble usually
 * last minutes; an answer delivered an hour late is still worth having, later
 * than that the user has moved on (and the conversation's queue waits behind it).
 */
export const PLATFORM_OUTAGE_HORIZON_MS = 60 * 60_000;

/** An hour, for the same reason: the user was told the answer will come, and it still matters then. */
export const UPSTREAM_OUTAGE_HORIZON_MS = 60 * 60_000;

/**
 * 2 s: a healthy Redis queues a message in a millisecond or two (a burst of 100 webhooks was all
 * answered within half a second), so 2 s means Redis is not answering. Slack sends a request again
 * when it has no answer within 3 s, and counts the lateness against the app; Meta and Telegram wait
 * longer but count a late answer as a failure all the same. A 503 within 2 s costs the user the
 * platform's next try, which is what an outage costs anyway; a request held open costs that and a
 * connection for as long as the outage lasts.
 */
export const WEBHOOK_ACCEPT_MS = 2_000;

/**
 * 1.5 s: people who write in bubbles ("hi", "I'm looking for", "a 3 bedroom in Austin") send the next
 * within a second or so on a phone; waiting longer delays every single question by as much. The Vercel
 * Chat SDK's debounce strategy defaults to a similar window.
 */
export const BURST_MS = 1_500;

/** 6 s: four bubbles' worth; someone still typing past it gets an answer to what they wrote so far. */
export const BURST_MAX_WAIT_MS = 6_000;

/** 500: the gist of a listing or an answer, without sending a whole long answer back with every reply to it. */
export const QUOTE_MAX_CHARS = 500;

export const DEFAULT_GATEWAY_POLICY: Readonly<GatewayPolicy> = Object.freeze({
  dedupeTtlMs: DEDUPE_TTL_MS,
  lockTtlMs: LOCK_TTL_MS,
  heartbeatMs: HEARTBEAT_MS,
  sweepIntervalMs: SWEEP_INTERVAL_MS,
  queueCap: QUEUE_CAP,
  maxAnswersInFlight: MAX_ANSWERS_IN_FLIGHT,
  transcriptMaxEntries: TRANSCRIPT_MAX_ENTRIES,
  transcriptTtlMs: TRANSCRIPT_TTL_MS,
  transcriptPackEntries: TRANSCRIPT_PACK_ENTRIES,
  sessionIdleTtlMs: SESSION_IDLE_TTL_MS,
  settingsCacheMs: SETTINGS_CACHE_MS,
  stopGraceMs: STOP_GRACE_MS,
  listingsPageSize: LISTINGS_PAGE_SIZE,
  platformOutageHorizonMs: PLATFORM_OUTAGE_HORIZON_MS,
  upstreamOutageHorizonMs: UPSTREAM_OUTAGE_HORIZON_MS,
  webhookAcceptMs: WEBHOOK_ACCEPT_MS,
  burstMs: BURST_MS,
  burstMaxWaitMs: BURST_MAX_WAIT_MS,
  quoteMaxChars: QUOTE_MAX_CHARS,
});

export function resolvePolicy(overrides: Partial<GatewayPolicy> = {}): GatewayPolicy {
  const policy = { ...DEFAULT_GATEWAY_POLICY, ...overrides };
  if (policy.heartbeatMs >= policy.lockTtlMs) {
    throw new Error(
      `Gateway policy: heartbeatMs (${policy.heartbeatMs}) must be shorter than lockTtlMs (${policy.lockTtlMs}), ` +
        'or a conversation lock expires while its answer is still being written; use about a third of lockTtlMs.',
    );
  }
  for (const name of ['platformOutageHorizonMs', 'upstreamOutageHorizonMs'] as const) {
    if (!(policy[name] >= 0))
      throw new Error(`Gateway policy: ${name} must be 0 or more milliseconds (got ${policy[name]}).`);
  }
  if (!(Number.isSafeInteger(policy.sessionIdleTtlMs) && policy.sessionIdleTtlMs > 0)) {
    throw new Error(
      `Gateway policy: sessionIdleTtlMs must be a positive whole number of milliseconds (got ${policy.sessionIdleTtlMs}); the default is 90 days.`,
    );
  }
  if (!(Number.isInteger(policy.webhookAcceptMs) && policy.webhookAcceptMs >= 1)) {
    throw new Error(
      `Gateway policy: webhookAcceptMs (gateway.webhookAcceptMs) must be a whole number of milliseconds of at least 1 ` +
        `(got ${policy.webhookAcceptMs}); the default is ${WEBHOOK_ACCEPT_MS}, under Slack's 3 s.`,
    );
  }
  for (const name of ['burstMs', 'burstMaxWaitMs'] as const) {
    if (!(Number.isInteger(policy[name]) && policy[name] >= 0)) {
      throw new Error(
        `Gateway policy: ${name} (gateway.${name}) must be a whole number of milliseconds, 0 or more (got ${policy[name]}).`,
      );
    }
  }
  if (!(Number.isInteger(policy.quoteMaxChars) && policy.quoteMaxChars >= 1)) {
    throw new Error(
      `Gateway policy: quoteMaxChars (gateway.quoteMaxChars) must be a whole number of at least 1 (got ${policy.quoteMaxChars}).`,
    );
  }
  if (!(
    Number.isInteger(policy.transcriptPackEntries) &&
    (policy.transcriptPackEntries === 0 || policy.transcriptPackEntries >= 4)
  )) {
    throw new Error(
      `Gateway policy: transcriptPackEntries (gateway.transcriptPackEntries) must be 0 (never pack) or a whole number of ` +
        `at least 4 (got ${policy.transcriptPackEntries}); the default is ${TRANSCRIPT_PACK_ENTRIES}.`,
    );
  }
  if (policy.queueCap < 1) throw new Error(`Gateway policy: queueCap must be at least 1 (got ${policy.queueCap}).`);
  if (!(Number.isInteger(policy.maxAnswersInFlight) && policy.maxAnswersInFlight >= 1)) {
    throw new Error(
      'Gateway policy: maxAnswersInFlight (gateway.maxAnswersInFlight) must be a whole number of at least 1 ' +
        `(got ${policy.maxAnswersInFlight}); the default is ${MAX_ANSWERS_IN_FLIGHT}.`,
    );
  }
  return policy;
}
