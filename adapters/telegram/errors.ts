/**
 * What Telegram said when it refused a call, in the only terms the core reacts
 * to (`PlatformError` kinds). Descriptions are matched loosely because Telegram
 * words them slightly differently across methods.
 */
import { GrammyError, HttpError } from 'grammy';
import { PlatformError } from '../../src/contract.js';

const RULES: { pattern: RegExp; kind: PlatformError['kind'] }[] = [
  { pattern: /message is not modified/i, kind: 'not-modified' },
  { pattern: /can't parse entities/i, kind: 'bad-format' },
  // editMessageText answers in MTProto's words: "Bad Request: MESSAGE_TOO_LONG".
  { pattern: /(message|text|caption) is too long|message_too_long/i, kind: 'too-long' },
  // Past the 48 h a bot has to edit its message (docs/platforms.md §A.7): the core goes on in a new message.
  { pattern: /message can't be edited/i, kind: 'not-editable' },
  { pattern: /message to (edit|delete) not found|chat not found/i, kind: 'not-found' },
];

/** What to fix when Telegram refuses the token (the words of the log and of /readyz). */
export const TOKEN_REFUSED =
  'Telegram refuses the bot token (401 Unauthorized): set a working TELEGRAM_BOT_TOKEN (bots[].telegram.token, from @BotFather)';

/** `sent`: what the call sent (`describeSent`), named in the error with the method for the log. */
export function toPlatformError(error: unknown, method: string, sent?: string): PlatformError {
  const call = { cause: error, method, ...(sent !== undefined ? { sent } : {}) };
  if (error instanceof GrammyError) {
    const what = `Telegram ${method} failed: ${error.description}`;
    if (error.error_code === 429) {
      const seconds = error.parameters.retry_after ?? 1;
      return new PlatformError(what, 'rate-limited', seconds * 1000, call);
    }
    // The token was revoked or replaced (BotFather /revoke): every call fails so until the operator sets the new one.
    if (error.error_code === 401)
      return new PlatformError(`${what}; ${TOKEN_REFUSED}`, 'unauthorized', undefined, call);
    // An unknown method answers 404: the server predates it (e.g. sendMessageDraft before Bot API 9.3).
    if (error.error_code === 404) return new PlatformError(what, 'unsupported', undefined, call);
    // Telegram failed on its side (500, 502 "Bad Gateway"…): not a refusal of this call, try again later.
    if (error.error_code >= 500) return new PlatformError(what, 'unreachable', undefined, call);
    const rule = RULES.find((r) => r.pattern.test(error.description));
    return new PlatformError(what, rule?.kind ?? 'other', undefined, call);
  }
  if (error instanceof HttpError) {
    // No answer at all (refused, reset, timeout, or a 5xx page that is not JSON): the network, not a refusal.
    return new PlatformError(
      `Telegram ${method} could not be reached: ${error.message}`,
      'unreachable',
      undefined,
      call,
    );
  }
  if (error instanceof PlatformError) return error;
  return new PlatformError(`Telegram ${method} failed: ${(error as Error).message}`, 'other', undefined, call);
}

/**
 * Drafts: besides a missing method, any 400 means "not here" (a group, a bot
 * without the feature, an older server's restriction), so the core falls back to
 * editing. Rate limits stay rate limits.
 */
export function toDraftError(error: unknown, sent?: string): PlatformError {
  const mapped = toPlatformError(error, 'sendMessageDraft', sent);
  if (error instanceof GrammyError && error.error_code === 400 && mapped.kind === 'other') {
    return new PlatformError(mapped.message, 'unsupported', undefined, {
      cause: error,
      method: 'sendMessageDraft',
      ...(sent !== undefined ? { sent } : {}),
    });
  }
  return mapped;
}
