/**
 * A door's refused call, in the contract's terms: a topic that no longer exists is a
 * ThreadGoneError (the handoff opens a new one); a group the bot cannot work in names the
 * setting to fix; anything else as the adapter's other calls (429 with its wait, unreachable…).
 */
import { GrammyError } from 'grammy';
import { PlatformError, ThreadGoneError } from '../../../src/contract.js';
import { toPlatformError } from '../errors.js';

/** What the operators' group must be, in the words every refusal of the set-up ends with. */
export const CHAT_SETUP =
  'HANDOFF_TELEGRAM_CHAT (bots[].handoff.telegram.chat) must be a supergroup with topics where the bot is an admin allowed to manage topics';

/** Telegram's words for a topic deleted (or never created): the send methods', and the topic methods'. */
const THREAD_GONE = /message thread not found|TOPIC_ID_INVALID|TOPIC_DELETED/i;

/** Telegram's words for a group the bot cannot work in as configured. */
const SETUP_REFUSED =
  /not enough rights|CHAT_ADMIN_REQUIRED|TOPIC_CLOSED|not a forum|chat not found|bot is not a member|bot was kicked|have no rights/i;

export function toDoorError(error: unknown, method: string, sent?: string): PlatformError | ThreadGoneError {
  if (error instanceof GrammyError && error.error_code === 400 && THREAD_GONE.test(error.description)) {
    return new ThreadGoneError(`Telegram ${method} failed: ${error.description} (the topic was deleted)`, method);
  }
  if (error instanceof GrammyError && (error.error_code === 400 || error.error_code === 403)) {
    if (SETUP_REFUSED.test(error.description)) {
      return new PlatformError(`Telegram ${method} failed: ${error.description}; ${CHAT_SETUP}`, 'other', undefined, {
        cause: error,
        method,
        ...(sent !== undefined ? { sent } : {}),
      });
    }
  }
  return toPlatformError(error, method, sent);
}

/** Topic calls that found the topic already as asked (closed, open, same name): done. */
export function isTopicNotModified(error: unknown): boolean {
  return error instanceof GrammyError && /TOPIC_NOT_MODIFIED/i.test(error.description);
}

/** An edit of the card with nothing new: done. */
export function isMessageNotModified(error: unknown): boolean {
  return error instanceof GrammyError && /message is not modified/i.test(error.description);
}
