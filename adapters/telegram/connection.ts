/**
 * Connecting a Telegram bot at start (getMe, the command menu, the webhook
 * registration) without letting an unreachable Bot API hang the gateway: the
 * first attempt decides only whether the configuration is refused; after a
 * network failure the adapter keeps trying in the background, logging each
 * failed attempt, and reports itself not connected (for /readyz) until it is.
 */
import { GrammyError, HttpError, type Bot } from 'grammy';
import pRetry, { AbortError } from 'p-retry';
import type { AdapterStatus } from '../../src/contract.js';
import type { Logger } from '../../src/contract.js';

/**
 * One attempt's calls are cut off after this long: an address that drops packets
 * would otherwise hold an attempt for grammY's default of 500 s, silently.
 */
export const CONNECT_ATTEMPT_TIMEOUT_MS = 10_000;
/** The first retry waits about a second; each next one doubles, up to the cap below. */
export const CONNECT_RETRY_MIN_MS = 1_000;
/** A Bot API that comes back is noticed within half a minute. */
export const CONNECT_RETRY_MAX_MS = 30_000;

/** grammY types its signal with the abort-controller polyfill; the runtime object is the same. */
export type GrammySignal = Parameters<Bot['init']>[0];

export interface TelegramConnectionOptions {
  /** Removed from every message we log or report: a network error's URL holds it. */
  token: string;
  apiRoot: string;
  logger: Logger;
  /** The calls of one attempt; every call must pass `signal` on to grammY. */
  attempt: (signal: GrammySignal) => Promise<void>;
  /** Turns a refusal (a Telegram answer that retrying cannot change) into the error start() rejects with. */
  explainRefusal: (error: unknown) => Error;
}

/**
 * A refusal: Telegram answered, and the answer will not change by asking again (401 token
 * refused, 404 unknown token, 400 bad webhook URL). 429 and 5xx are the server's trouble: retried.
 */
export function isRefusal(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code >= 400 && error.error_code < 500 && error.error_code !== 429;
}

/** The failure in words, without the token (should an error's message ever hold the request URL /bot<token>/…). */
export function describeConnectFailure(error: unknown, token: string): string {
  let text: string;
  if (error instanceof HttpError) {
    const inner = error.error as { message?: unknown; code?: unknown } | undefined;
    const detail = typeof inner?.message === 'string' ? inner.message : String(inner);
    text = `${error.message} ${detail}`;
  } else if (error instanceof Error) {
    text = error.name === 'TimeoutError' ? `no answer within ${CONNECT_ATTEMPT_TIMEOUT_MS / 1000} s` : error.message;
  } else {
    text = String(error);
  }
  return token ? text.split(token).join('<token>') : text;
}

export class TelegramConnection {
  private state: AdapterStatus = { connected: false, reason: 'not started' };
  private stopper: AbortController | undefined;

  constructor(private readonly options: TelegramConnectionOptions) {}

  status(): AdapterStatus {
    return { ...this.state };
  }

  /**
   * Resolves once the first attempt connected (`true`) or failed on the network (`false`;
   * attempts go on in the background and `onConnected` runs when one succeeds).
   * Rejects when Telegram refuses (see isRefusal) on the first attempt.
   */
  start(onConnected: () => void): Promise<boolean> {
    const stopper = new AbortController();
    this.stopper = stopper;
    this.state = { connected: false, reason: 'connecting' };
    return new Promise<boolean>((resolve, reject) => {
      let first = true;
      const settleFirst = (connected: boolean): boolean => {
        const wasFirst = first;
        first = false;
        if (wasFirst) resolve(connected);
        return wasFirst;
      };
      void this.attempts(stopper.signal, () => settleFirst(false)).then((outcome) => {
        if (outcome === 'stopped') {
          settleFirst(false);
        } else if (outcome === 'connected') {
          this.state = { connected: true };
          if (!settleFirst(true)) onConnected();
        } else {
          this.state = { connected: false, reason: outcome.message };
          if (first) {
            first = false;
            reject(outcome);
          } else {
            this.options.logger.error({ reason: outcome.message }, 'telegram: the Bot API refused the bot; it stays offline until the gateway is restarted');
          }
        }
      });
    });
  }

  /** Stops retrying (stop() of the adapter). */
  stop(): void {
    this.stopper?.abort();
    this.stopper = undefined;
    this.state = { connected: false, reason: 'stopped' };
  }

  /** Attempts until one connects, Telegram refuses (the explained error), or stop(). */
  private async attempts(stop: AbortSignal, onFirstFailure: () => void): Promise<'connected' | 'stopped' | Error> {
    try {
      await pRetry(async () => {
        try {
          await this.options.attempt(AbortSignal.any([stop, AbortSignal.timeout(CONNECT_ATTEMPT_TIMEOUT_MS)]) as GrammySignal);
        } catch (error) {
          // A refusal is not retried: it needs the operator (a wrong or revoked token, a bad webhook URL).
          if (isRefusal(error)) throw new AbortError(error as Error);
          throw error;
        }
      }, {
        retries: Number.POSITIVE_INFINITY,
        minTimeout: CONNECT_RETRY_MIN_MS,
        maxTimeout: CONNECT_RETRY_MAX_MS,
        // Several gateways that lost Telegram together do not all come back in the same instant.
        randomize: true,
        signal: stop,
        unref: true,
        onFailedAttempt: ({ error, attemptNumber }) => {
          this.failed(error, attemptNumber);
          if (attemptNumber === 1) onFirstFailure();
        },
      });
    } catch (error) {
      return stop.aborted ? 'stopped' : this.options.explainRefusal(error);
    }
    return stop.aborted ? 'stopped' : 'connected';
  }

  private failed(error: unknown, attempt: number): void {
    const reason = describeConnectFailure(error, this.options.token);
    this.state = { connected: false, reason };
    this.options.logger.warn({ apiRoot: this.options.apiRoot, attempt, reason },
      'telegram: the Bot API is not reachable; retrying with backoff (check the network and TELEGRAM_API_ROOT)');
  }
}
