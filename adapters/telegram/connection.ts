/**
 * Connecting a Telegram bot at start (getMe, the command menu, the webhook registration)
 * on the contract kit's StayConnected: an unreachable Bot API does not hang the gateway
 * (the first attempt decides only whether the configuration is refused; after a network
 * failure the tries go on in the background, each failure logged, and status() says not
 * connected until one succeeds). What is Telegram's here: which answers are refusals, the
 * words of a failure (without the token), and the cut-off of one attempt.
 */
import { GrammyError, HttpError, type Bot } from 'grammy';
import { ConnectRefusedError, StayConnected } from '../../src/contract.js';
import type { Logger } from '../../src/contract.js';

/**
 * One attempt's calls are cut off after this long: an address that drops packets
 * would otherwise hold an attempt for grammY's default of 500 s, silently.
 */
export const CONNECT_ATTEMPT_TIMEOUT_MS = 10_000;

/** grammY types its signal with the abort-controller polyfill; the runtime object is the same. */
export type GrammySignal = Parameters<Bot['init']>[0];

export interface TelegramConnectionOptions {
  /** Removed from every message we log or report: a network error's URL holds it. */
  token: string;
  apiRoot: string;
  logger: Logger;
  /** The calls of one attempt; every call must pass `signal` on to grammY. */
  attempt: (signal: GrammySignal) => Promise<void>;
  /** A refusal (a Telegram answer that retrying cannot change) in the words start() rejects with: what to fix. */
  explainRefusal: (error: unknown) => string;
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

/** The bot's connection: start() resolves whether the first attempt connected; rejects only when Telegram refuses. */
export function telegramConnection(options: TelegramConnectionOptions): StayConnected {
  const { token, apiRoot, logger } = options;
  return new StayConnected({
    async attempt(signal) {
      try {
        await options.attempt(signal as GrammySignal);
      } catch (error) {
        // A refusal is not retried: it needs the operator (a wrong or revoked token, a bad webhook URL).
        if (isRefusal(error)) throw new ConnectRefusedError(options.explainRefusal(error), { cause: error });
        throw error;
      }
    },
    attemptTimeoutMs: CONNECT_ATTEMPT_TIMEOUT_MS,
    describe: (error) => describeConnectFailure(error, token),
    onRetry: (_error, attempt, reason) =>
      logger.warn(
        { apiRoot, attempt, reason },
        'telegram: the Bot API is not reachable; retrying with backoff (check the network and TELEGRAM_API_ROOT)',
      ),
    onRefusedLater: (error) =>
      logger.error(
        { reason: error.message },
        'telegram: the Bot API refused the bot; it stays offline until the gateway is restarted',
      ),
  });
}
