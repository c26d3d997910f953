/**
 * Long polling that confirms an update to Telegram only once it is queued.
 *
 * getUpdates confirms every update below the `offset` it is called with. The stock
 * @grammyjs/runner fetcher moves the offset past each batch as soon as the batch is
 * fetched, so an update whose handler then failed (Redis down) was lost. Here the
 * offset stays at the oldest update still being handled: Telegram keeps it (and
 * redelivers it to the next process after a crash) until its handler finished. Later
 * updates that come back again are recognised by id and not handled twice.
 *
 * Backpressure: the runner's sink holds at most MAX_UNQUEUED_UPDATES updates being
 * handled; while it is full the runner does not call getUpdates at all, and Telegram
 * keeps everything newer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createConcurrentSink, createRunner, createSource, type RunnerHandle } from '@grammyjs/runner';
import { BotError, GrammyError, type Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { retryWithBackoff, type Backoff, type CredentialWatch, type Logger } from '../../src/contract.js';

/** Fetched updates not yet queued, at most; also the largest batch getUpdates returns. */
export const MAX_UNQUEUED_UPDATES = 100;
/** getUpdates long-poll timeout (seconds), as the runner's default. */
const LONG_POLL_SECONDS = 30;
/**
 * getUpdates answers at once while updates we still handle are unconfirmed. So before each
 * call the poller waits for them to be queued (a few ms normally, and the offset then
 * confirms them), but no longer than this: during a Redis outage Telegram is still asked
 * once a second, so new messages are seen (and their users told the answer will come).
 */
export const HELD_REPOLL_MS = 1_000;
/** A failed getUpdates is retried after this long at first, doubling up to the cap. */
export const POLL_RETRY_MIN_MS = 500;
/** A Bot API that comes back is polled again within this long. */
export const POLL_RETRY_MAX_MS = 15_000;
/** No jitter: one poller per bot (a second one gets 409), so there is no crowd to spread. */
const POLL_RETRY: Backoff = { firstMs: POLL_RETRY_MIN_MS, maxMs: POLL_RETRY_MAX_MS, jitter: 0 };

/** Which fetched updates are still being handled, and which offset confirms only finished ones. */
export class UpdateLedger {
  /** Every id handed to the handlers at or after the last confirmed offset. */
  private readonly handed = new Set<number>();
  private readonly unfinished = new Set<number>();
  private readonly waiters = new Set<() => void>();
  /** One past the newest id handed out. */
  private next = 0;

  /** The offset to call getUpdates with: confirms everything before the oldest unfinished update. */
  offset(): number {
    let oldest = this.next;
    for (const id of this.unfinished) oldest = Math.min(oldest, id);
    return oldest;
  }

  /** Telegram forgot everything below `offset`. */
  confirmed(offset: number): void {
    for (const id of this.handed) if (id < offset) this.handed.delete(id);
  }

  /** The updates not handed out before (at most `limit`), now marked as being handled. */
  handOut(updates: readonly Update[], limit: number): Update[] {
    const fresh = updates.filter((update) => !this.handed.has(update.update_id)).slice(0, Math.max(1, limit));
    for (const { update_id: id } of fresh) {
      this.handed.add(id);
      this.unfinished.add(id);
      this.next = Math.max(this.next, id + 1);
    }
    return fresh;
  }

  finished(id: number): void {
    this.unfinished.delete(id);
    if (this.unfinished.size > 0) return;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Resolves once every handed-out update finished, or after `ms`, or when `signal` aborts. */
  settled(ms: number, signal: AbortSignal): Promise<void> {
    if (this.unfinished.size === 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  get unfinishedCount(): number {
    return this.unfinished.size;
  }
}

export interface PollingOptions {
  allowedUpdates: readonly string[];
  logger: Logger;
  /** Told when Telegram refuses the token (401) and when getUpdates works again. */
  credentials?: Pick<CredentialWatch, 'refusedBy' | 'accepted'>;
}

/**
 * Whether retrying getUpdates cannot help: 409, another poller or a webhook. A 401 (the token
 * refused) is tried again with backoff, the bot reported not connected meanwhile: polling goes
 * on by itself once Telegram takes the token again, and Telegram keeps the updates until then.
 */
function isUnrecoverable(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 409;
}

function isTokenRefused(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 401;
}

/** grammY declares its signal parameter with the abort-controller polyfill's type; Node's AbortSignal works the same. */
type GrammySignal = Parameters<Bot['api']['getUpdates']>[1];

type RunnerSignal = {
  aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
};

/**
 * One native signal per runner signal: the runner hands the same signal to every supply()
 * call, so linking a new one each time would leave a listener on it per poll (a slow leak,
 * and Node's MaxListeners warning after ten polls).
 */
const nativeSignals = new WeakMap<RunnerSignal, AbortSignal>();

/** The runner passes a polyfilled AbortSignal (abort-controller); Node's timers want a real one. */
function nativeSignal(signal: RunnerSignal): AbortSignal {
  const known = nativeSignals.get(signal);
  if (known) return known;
  const controller = new AbortController();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', () => controller.abort(), { once: true });
  nativeSignals.set(signal, controller.signal);
  return controller.signal;
}

/** Starts long polling; stop it with the handle (in-flight updates stay unconfirmed). */
export function startPolling(bot: Bot, options: PollingOptions): RunnerHandle {
  const { logger } = options;
  const ledger = new UpdateLedger();

  const getUpdates = (offset: number, signal: AbortSignal) =>
    retryWithBackoff(
      async () => {
        const updates = await bot.api.getUpdates(
          {
            offset,
            limit: MAX_UNQUEUED_UPDATES,
            timeout: LONG_POLL_SECONDS,
            allowed_updates: [...options.allowedUpdates] as never,
          },
          signal as GrammySignal,
        );
        options.credentials?.accepted();
        return updates;
      },
      {
        backoff: POLL_RETRY,
        signal,
        retryIf: (error) => !signal.aborted && !isUnrecoverable(error),
        onFailure: async (error, attemptNumber) => {
          // Logged once by the watch, not once per try.
          if (isTokenRefused(error)) return options.credentials?.refusedBy(error);
          // The error goes through the logger, which redacts the token from the request URL.
          logger.warn(
            { err: error, attempt: attemptNumber },
            'telegram: getUpdates failed; retrying with backoff (check the network and TELEGRAM_API_ROOT)',
          );
          const retryAfter = error instanceof GrammyError ? error.parameters.retry_after : undefined;
          if (retryAfter) await sleep(retryAfter * 1000, undefined, { signal });
        },
      },
    );

  const source = createSource({
    async supply(batchSize, runnerSignal) {
      const signal = nativeSignal(runnerSignal);
      for (;;) {
        await ledger.settled(HELD_REPOLL_MS, signal);
        const offset = ledger.offset();
        const updates = await getUpdates(offset, signal);
        ledger.confirmed(offset);
        const fresh = ledger.handOut(updates, batchSize);
        // Otherwise only updates still being handled came back: Telegram keeps them until they are queued.
        if (fresh.length > 0 || updates.length === 0) return fresh;
      }
    },
  });
  const sink = createConcurrentSink<Update>(
    {
      consume: async (update) => {
        try {
          await bot.handleUpdate(update);
        } finally {
          ledger.finished(update.update_id);
        }
      },
    },
    async (error: unknown) => {
      // bot.catch's handler logs it; anything else (or a failing handler) is logged here, never printed.
      try {
        if (error instanceof BotError) await bot.errorHandler(error);
        else throw error;
      } catch (unhandled) {
        logger.error(
          { err: unhandled, updateId: error instanceof BotError ? error.ctx.update.update_id : undefined },
          'telegram: update not handled',
        );
      }
    },
    { concurrency: MAX_UNQUEUED_UPDATES },
  );

  const runner = createRunner(source, sink);
  runner.start();
  runner.task()?.catch((error: unknown) => {
    logger.error(
      { err: error },
      'telegram: polling stopped: Telegram refused getUpdates with 409 (another process polls this bot, or a webhook is set). ' +
        'Restart the gateway once that is fixed.',
    );
  });
  return runner;
}
