/**
 * An accept that waits out a state-store outage, for adapters that cannot make the
 * platform redeliver (Telegram long polling, Slack Socket Mode, WhatsApp): a message
 * whose queueing fails because Redis is down or frozen is held in memory and queued
 * again with backoff until Redis is back. At most HELD_MESSAGES_MAX are held; beyond
 * that accept() waits for room, so the adapter stops taking messages from its platform
 * (backpressure) and the platform keeps them. A user whose message could not be queued
 * for DELAY_NOTICE_AFTER_MS since the adapter handed it over (held, or waiting for room) is
 * told once that the answer will come, straight through the adapter's outbound (no Redis
 * needed); every waiting conversation is, each on its message's own clock.
 *
 * It is also where such a platform feels backpressure: once its message is queued,
 * accept() waits for the gateway's `roomForMore()` (a bounded line of conversations
 * waiting for a slot, intake.ts), so the adapter fetches no more meanwhile.
 *
 * A webhook adapter does not need it: it answers 500 and the platform redelivers.
 * The core hands it to every adapter that declares `redeliversOnAcceptFailure: false`
 * (adapter-lifecycle.ts), and closes it when that adapter stops.
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from '../../logger.js';
import {
  retryWithBackoff,
  type Adapter,
  type Backoff,
  type Inbound,
  type InboundRevision,
  type InboundSink,
} from '../../contract.js';
import { outboundIn, sendReply } from '../reply/index.js';
import { userTexts, type UserTexts } from '../user-texts.js';

/** Messages held in memory at most while the store is down; accept() waits for room beyond it. */
export const HELD_MESSAGES_MAX = 100;
/** First wait before queueing a held message again; doubles up to STORE_RETRY_MAX_MS. */
export const STORE_RETRY_MIN_MS = 250;
/** A store that comes back is used within this long. */
export const STORE_RETRY_MAX_MS = 5_000;
/** No jitter: the tries go down the process's own Redis connection, which queues them; there is no crowd of clients to spread. */
const STORE_RETRY: Backoff = { firstMs: STORE_RETRY_MIN_MS, maxMs: STORE_RETRY_MAX_MS, jitter: 0 };
/** A user whose message waited this long to be queued, from when the adapter handed it over, is told the answer will come. */
export const DELAY_NOTICE_AFTER_MS = 10_000;
/**
 * Attempts for an error that is not a store outage (a bug, a refused value): it would fail
 * the same way forever, so it is given up after these and thrown to the adapter.
 */
export const OTHER_ERROR_ATTEMPTS = 3;

/** Words of Redis replies and client errors that mean "the store is not there right now", not "this command is wrong". */
const OUTAGE_MESSAGE = new RegExp(
  "max retries per request|connection is closed|stream isn't writeable|command timed out|" +
    '^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS)\\b',
  'i',
);
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTCONN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** Whether an error from the state store means it is unreachable or not ready (retry later), rather than a wrong command. */
export function isStoreOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && OUTAGE_CODES.has(code)) return true;
  return error.name === 'MaxRetriesPerRequestError' || OUTAGE_MESSAGE.test(error.message);
}

/** A sink that can tell when it has room for more messages (the gateway's Intake). */
export interface PacedSink extends InboundSink {
  /** Resolves once the gateway can take more without its line of waiting conversations growing past its bound. */
  roomForMore(): Promise<void>;
}

const isPaced = (sink: InboundSink): sink is PacedSink =>
  typeof (sink as Partial<PacedSink>).roomForMore === 'function';

/** Thrown by accept() for a message still held when the adapter stops: it was not queued. */
export class SinkClosedError extends Error {
  constructor() {
    super(
      'the message was not queued before the adapter stopped; the platform keeps it for the next start (it was not confirmed)',
    );
    this.name = 'SinkClosedError';
  }
}

export interface PatientSinkOptions {
  logger: Logger;
  /** Where the "your answer will come" notice goes; no notice without it. */
  adapter?: Pick<Adapter, 'outbound' | 'outboundFor' | 'capabilities'>;
  /**
   * The notice's words, in the chatbot's language as last known: read without the state store,
   * which is down when it is said (default English).
   */
  texts?: () => Pick<UserTexts, 'answerDelayed'>;
  /** Overrides of the policy constants above (tests). */
  heldMax?: number;
  delayNoticeAfterMs?: number;
}

export class PatientSink implements InboundSink {
  private readonly closer = new AbortController();
  private held = 0;
  private readonly waitingForRoom: (() => void)[] = [];
  /** Queued messages whose accept() waits for room in the gateway; close() ends their wait. */
  private readonly endRoomWaits = new Set<() => void>();
  /** Conversations with a message being queued, and whether their user was told it is delayed. */
  private readonly pending = new Map<string, { count: number; told: boolean }>();

  constructor(
    private readonly sink: InboundSink,
    private readonly options: PatientSinkOptions,
  ) {
    // Every message being accepted listens on the one closing signal (its attempt and its retry,
    // removed when it is queued): a burst legitimately has two per held message, not a leak.
    setMaxListeners(2 * (options.heldMax ?? HELD_MESSAGES_MAX) + 10, this.closer.signal);
  }

  /** Messages being queued right now (held while the store is down). */
  get size(): number {
    return this.held;
  }

  /**
   * Passed on as it comes: a change to a queued message is worth nothing once that message is answered,
   * so it is not held through an outage (the failure is logged, the message answered as it was).
   */
  async revise(revision: InboundRevision): Promise<void> {
    await this.sink.revise?.(revision).catch((error: unknown) => {
      this.options.logger.warn({ err: error, revision: revision.kind }, 'could not apply an edit or a deletion');
    });
  }

  async accept(inbound: Inbound): Promise<void> {
    const signal = this.closer.signal;
    // The clock starts when the adapter hands the message over, not when it gets room among the
    // held ones: a user whose message waits behind HELD_MESSAGES_MAX others waits just the same.
    const stopClock = this.startNoticeClock(inbound);
    try {
      await this.room(signal);
      try {
        await retryWithBackoff(() => untilClosed(this.sink.accept(inbound), signal), {
          backoff: STORE_RETRY,
          signal,
          retryIf: (error, attemptNumber) =>
            !signal.aborted && (isStoreOutage(error) || attemptNumber < OTHER_ERROR_ATTEMPTS),
          onFailure: (error, attemptNumber) => {
            // The first failure and then every tenth: a long outage is not a line per message per second.
            if (attemptNumber !== 1 && attemptNumber % 10 !== 0) return;
            this.options.logger.warn(
              {
                err: error,
                conversation: inbound.conversation,
                attempt: attemptNumber,
                storeOutage: isStoreOutage(error),
              },
              'a message could not be queued (is Redis at REDIS_URL up?); it is held in memory and retried until it is queued',
            );
          },
        });
      } finally {
        this.held--;
        this.waitingForRoom.shift()?.();
      }
    } finally {
      stopClock();
    }
    // Queued: the platform is not told so (and fetches no more) until the gateway has room. Closing
    // ends the wait without an error, since the message is durably queued.
    if (isPaced(this.sink)) await this.roomInGateway(this.sink);
  }

  /** Gives up every held message (the adapter is stopping): their accept() rejects with SinkClosedError. */
  close(): void {
    this.closer.abort(new SinkClosedError());
    for (const wake of this.waitingForRoom.splice(0)) wake();
    for (const end of this.endRoomWaits) end();
    this.endRoomWaits.clear();
  }

  /** Not on the closing signal: a burst may have many of these waiting, each would be one more listener. */
  private roomInGateway(sink: PacedSink): Promise<void> {
    if (this.closer.signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.endRoomWaits.add(resolve);
      void sink.roomForMore().then(() => {
        this.endRoomWaits.delete(resolve);
        resolve();
      });
    });
  }

  private async room(signal: AbortSignal): Promise<void> {
    const max = this.options.heldMax ?? HELD_MESSAGES_MAX;
    while (this.held >= max) {
      if (signal.aborted) throw signal.reason;
      await new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
    }
    if (signal.aborted) throw signal.reason;
    this.held++;
  }

  /**
   * Tells the user once DELAY_NOTICE_AFTER_MS passed and the message is still not queued. One timer
   * per message, so every waiting conversation is told, however many wait at once; one notice per
   * conversation while any of its messages waits. Returns what stops the clock (the message is queued or given up).
   */
  private startNoticeClock(inbound: Inbound): () => void {
    const key = `${inbound.conversation.bot}:${inbound.conversation.platform}:${inbound.conversation.id}`;
    const entry = this.pending.get(key) ?? { count: 0, told: false };
    entry.count++;
    this.pending.set(key, entry);
    const notice = setTimeout(
      () => void this.tellDelayed(inbound, entry),
      this.options.delayNoticeAfterMs ?? DELAY_NOTICE_AFTER_MS,
    );
    return () => {
      clearTimeout(notice);
      if (--entry.count === 0) this.pending.delete(key);
    };
  }

  private async tellDelayed(inbound: Inbound, entry: { told: boolean }): Promise<void> {
    const { adapter, logger } = this.options;
    // A group message not for the bot gets no reply at all.
    if (!adapter || entry.told || !inbound.addressed || this.closer.signal.aborted) return;
    entry.told = true;
    logger.info(
      { conversation: inbound.conversation },
      'a message is still not queued; telling the user the answer will come',
    );
    await sendReply(
      outboundIn(adapter, inbound.conversation, inbound.isGroup),
      adapter.capabilities,
      inbound.conversation,
      (this.options.texts?.() ?? userTexts).answerDelayed,
    ).catch((error: unknown) =>
      logger.warn(
        { err: error, conversation: inbound.conversation },
        'could not tell the user their answer is delayed',
      ),
    );
  }
}

/**
 * The attempts waiting on each sink's signal. One listener per signal, not one per attempt: an
 * EventTarget walks its listeners on every add and remove, so with every message of hundreds of
 * conversations waiting on one signal that walk would cost a share of the CPU.
 */
const waitingOn = new WeakMap<AbortSignal, Set<(reason: Error) => void>>();

function waitersOf(signal: AbortSignal): Set<(reason: Error) => void> {
  let waiters = waitingOn.get(signal);
  if (!waiters) {
    const created = new Set<(reason: Error) => void>();
    signal.addEventListener(
      'abort',
      () => {
        for (const reject of created) reject(signal.reason as Error);
        created.clear();
      },
      { once: true },
    );
    waitingOn.set(signal, created);
    waiters = created;
  }
  return waiters;
}

/** The attempt, or a rejection as soon as the sink closes (a frozen Redis never answers it). */
function untilClosed<T>(attempt: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  const waiters = waitersOf(signal);
  return new Promise<T>((resolve, reject) => {
    waiters.add(reject);
    attempt.then(resolve, reject).finally(() => waiters.delete(reject));
  });
}
