/**
 * What Slack said when it refused a Web API call, in the only terms the core reacts
 * to (`PlatformError` kinds). The WebClient is built with `rejectRateLimitedCalls`
 * and no retries (client.ts), so a 429 or a network failure reaches this mapping
 * at once and the core's one retry rule decides what happens next.
 */
import { ErrorCode, type WebAPICallError } from '@slack/web-api';
import { PlatformError } from '../../src/contract.js';

/** What to fix when Slack refuses the bot token (the words of the log and of /readyz). */
export const TOKEN_REFUSED =
  'Slack refuses the bot token (invalid_auth, token_revoked or account_inactive): set a working SLACK_BOT_TOKEN (bots[].slack.botToken)';

/** Slack's `error` strings (ok:false), by the kind the core reacts to. */
const PLATFORM_ERRORS: Record<string, PlatformError['kind']> = {
  msg_too_long: 'too-long',
  msg_blocks_too_long: 'too-long',
  invalid_blocks: 'bad-format',
  invalid_blocks_format: 'bad-format',
  no_text: 'bad-format',
  cant_update_message: 'not-editable',
  edit_window_closed: 'not-editable',
  // A native stream already ended, or one Slack expired after its appends stopped.
  message_not_in_streaming_state: 'not-editable',
  message_not_found: 'not-found',
  channel_not_found: 'not-found',
  thread_not_found: 'not-found',
  is_archived: 'not-found',
  not_in_channel: 'not-found',
  ratelimited: 'rate-limited',
  rate_limited: 'rate-limited',
  // A method this workspace or API does not offer (native streaming in an old workspace, a fake without it).
  unknown_method: 'unsupported',
  not_allowed: 'unsupported',
  method_deprecated: 'unsupported',
  feature_not_enabled: 'unsupported',
  not_allowed_token_type: 'unsupported',
  // The bot token was revoked, the app uninstalled or the bot user deactivated: every call fails so until it is fixed.
  invalid_auth: 'unauthorized',
  not_authed: 'unauthorized',
  token_revoked: 'unauthorized',
  token_expired: 'unauthorized',
  account_inactive: 'unauthorized',
  // Slack failed on its side: try again later.
  internal_error: 'unreachable',
  fatal_error: 'unreachable',
  service_unavailable: 'unreachable',
  request_timeout: 'unreachable',
};

function isWebApiError(error: unknown): error is WebAPICallError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    Object.values(ErrorCode).includes((error as { code: unknown }).code as ErrorCode)
  );
}

/** `sent`: what the call sent (`describeSent`), named in the error with the method for the log. */
export function toPlatformError(error: unknown, method: string, sent?: string): PlatformError {
  const call = { cause: error, method, ...(sent !== undefined ? { sent } : {}) };
  if (error instanceof PlatformError) return error;
  if (isWebApiError(error)) {
    switch (error.code) {
      case ErrorCode.RateLimitedError:
        return new PlatformError(
          `Slack ${method} was rate limited (retry after ${error.retryAfter} s)`,
          'rate-limited',
          error.retryAfter * 1000,
          call,
        );
      case ErrorCode.PlatformError: {
        const slackError = String(error.data.error);
        const kind = PLATFORM_ERRORS[slackError] ?? 'other';
        const fix = kind === 'unauthorized' ? `; ${TOKEN_REFUSED}` : '';
        return new PlatformError(`Slack ${method} failed: ${slackError}${fix}`, kind, undefined, call);
      }
      case ErrorCode.HTTPError:
        // A 5xx (or a proxy's error page): Slack failed on its side, not a refusal of this call.
        // A 404 is an API without this method (an older fake or proxy).
        if (error.statusCode === 404)
          return new PlatformError(`Slack ${method} is not offered here (HTTP 404)`, 'unsupported', undefined, call);
        return new PlatformError(
          `Slack ${method} failed with HTTP ${error.statusCode}`,
          error.statusCode >= 500 ? 'unreachable' : 'other',
          undefined,
          call,
        );
      case ErrorCode.RequestError:
        return new PlatformError(
          `Slack ${method} could not be reached: ${error.original.message}`,
          'unreachable',
          undefined,
          call,
        );
      default:
        break;
    }
  }
  return new PlatformError(`Slack ${method} failed: ${(error as Error).message}`, 'other', undefined, call);
}

/** Runs one Web API call, turning its refusal into a PlatformError that names the call and what it sent. */
export async function slackCall<T>(method: string, call: () => Promise<T>, sent?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toPlatformError(error, method, sent);
  }
}
