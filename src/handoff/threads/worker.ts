/**
 * Runs the threads' syncs: a conversation whose handoff changed is put on its shard's due list
 * (in Redis, so that any process may do it) and synced at once by this one; every process also
 * looks at the due lists every `pollMs` for what another left (it crashed, or its sync failed and
 * waits to be tried again). One sync of a conversation at a time, across processes (a lease).
 * A failed sync is tried again later, longer each time while it keeps failing: the operators'
 * platform may be down for hours, and the user's conversation never waits for it.
 */
import type { ConversationRef } from '../../contract.js';
import { backoffDelay, PlatformError } from '../../contract.js';
import type { Logger } from '../../logger.js';
import { formatConversationId } from '../conversation-id.js';
import type { ThreadStore } from './thread-store.js';

export interface ThreadWorkerPolicy {
  /**
   * How often each process looks for due conversations: a safety net (a change is synced at once by
   * the process where it happened), for what a dead process left and the retries after a failure.
   */
  pollMs: number;
  /** A change met by another process's sync in progress is tried again this soon, while that sync lasts. */
  busyRetryMs: number;
  /** First delay after a failed sync; doubles per failure in a row, up to retryCapMs. */
  retryBaseMs: number;
  retryCapMs: number;
  /** A sync's lease: longer than a sync takes with the platform's retries (a dead process's lapses). */
  leaseMs: number;
  /** Conversations synced at once by one process. */
  concurrency: number;
  /** How often a process looks for pauses that ran out with nobody writing (their cards must say so). */
  expiryCheckMs: number;
}

export const DEFAULT_THREAD_WORKER_POLICY: ThreadWorkerPolicy = {
  pollMs: 5_000,
  busyRetryMs: 250,
  retryBaseMs: 2_000,
  retryCapMs: 5 * 60_000,
  leaseMs: 2 * 60_000,
  concurrency: 8,
  expiryCheckMs: 30_000,
};

export class ThreadWorker {
  private timer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private readonly running = new Set<string>();
  private readonly waiting = new Map<string, ConversationRef>();
  /** Failures in a row per conversation, for the retry delay (this process's memory; a restart starts over). */
  private readonly failures = new Map<string, number>();
  /** Tries in a row that found another process's sync in progress, per conversation. */
  private readonly busy = new Map<string, number>();
  private polling = false;
  private stopped = false;

  constructor(
    private readonly options: {
      store: ThreadStore;
      sync(conversation: ConversationRef): Promise<void>;
      /** Pauses that ran out unnoticed, each handed to one process once. */
      takeExpired(): Promise<ConversationRef[]>;
      logger: Logger;
      policy: ThreadWorkerPolicy;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.options.policy.pollMs);
    this.expiryTimer = setInterval(() => void this.expire(), this.options.policy.expiryCheckMs);
    void this.poll();
  }

  /** A pause that ran out is a change like any other: due for every process. */
  private async expire(): Promise<void> {
    try {
      for (const conversation of await this.options.takeExpired()) await this.changed(conversation);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'the pauses that ran out could not be read; trying again');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.expiryTimer);
    while (this.running.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** The conversation's handoff changed: due now for every process, synced here at once. */
  async changed(conversation: ConversationRef): Promise<void> {
    try {
      await this.options.store.markDue(conversation, Date.now());
    } catch (error) {
      this.options.logger.warn(
        { err: error, conversation: formatConversationId(conversation) },
        "the operators' thread could not be marked for an update; it is updated at the next change",
      );
    }
    this.schedule(conversation);
  }

  private async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      const due = await this.options.store.due(Date.now(), this.options.policy.concurrency * 4);
      for (const conversation of due) this.schedule(conversation);
    } catch (error) {
      this.options.logger.warn({ err: error }, "the operators' threads due could not be read; trying again");
    } finally {
      this.polling = false;
    }
  }

  private schedule(conversation: ConversationRef): void {
    if (this.stopped) return;
    const id = formatConversationId(conversation);
    if (this.running.has(id)) {
      // Synced again once the run in progress ends: it may have read before this change.
      this.waiting.set(id, conversation);
      return;
    }
    if (this.running.size >= this.options.policy.concurrency) return; // Still due in Redis: the next poll.
    this.running.add(id);
    void this.run(conversation, id).finally(() => {
      this.running.delete(id);
      const again = this.waiting.get(id);
      this.waiting.delete(id);
      if (again) this.schedule(again);
    });
  }

  private retryWhileBusy(conversation: ConversationRef): void {
    const id = formatConversationId(conversation);
    const tries = (this.busy.get(id) ?? 0) + 1;
    const { busyRetryMs, leaseMs } = this.options.policy;
    if (tries * busyRetryMs > leaseMs) {
      this.busy.delete(id);
      return;
    }
    this.busy.set(id, tries);
    setTimeout(() => this.schedule(conversation), busyRetryMs).unref();
  }

  private async run(conversation: ConversationRef, id: string): Promise<void> {
    const { store, policy, logger } = this.options;
    let token: string | null = null;
    try {
      token = await store.lease(conversation, policy.leaseMs);
      if (!token) {
        // Another process is on it and may have read before this change: it stays due, and is tried
        // again here soon rather than at the next poll.
        this.retryWhileBusy(conversation);
        return;
      }
      this.busy.delete(id);
      // Due again when the lease ends: a process that dies in the middle leaves it for another.
      const until = Date.now() + policy.leaseMs;
      await store.markDue(conversation, until);
      await this.options.sync(conversation);
      this.failures.delete(id);
      await store.done(conversation, until);
    } catch (error) {
      const failures = (this.failures.get(id) ?? 0) + 1;
      this.failures.set(id, failures);
      const delay = backoffDelay(failures, { firstMs: policy.retryBaseMs, maxMs: policy.retryCapMs, jitter: 0.2 });
      const fields = { err: error, conversation: id, failures, retryInMs: delay };
      if (isPlatformOutage(error))
        logger.warn(fields, "the operators' platform is unreachable or busy; the thread is updated once it answers");
      // Anything else is the set-up (a channel the app left, rights taken away): the error names the setting.
      else
        logger.error(
          fields,
          "the operators' platform refused the thread's update; fix the setting named, it is tried again",
        );
      await store.markDue(conversation, Date.now() + delay).catch(() => undefined);
    } finally {
      if (token) await store.release(conversation, token).catch(() => undefined);
    }
  }
}

/** Waited out, not the operator's to fix: the platform unreachable or asking to slow down. */
function isPlatformOutage(error: unknown): boolean {
  return error instanceof PlatformError && (error.kind === 'unreachable' || error.kind === 'rate-limited');
}
