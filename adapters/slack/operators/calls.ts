/**
 * The door's Web API calls: a refusal is a PlatformError (errors.ts) whose message names the
 * setting to fix, because the handoff logs it as an operator error: a channel that cannot be
 * posted in names HANDOFF_SLACK_CHANNEL, a refused token names the variable it came from
 * (HANDOFF_SLACK_BOT_TOKEN, or SLACK_BOT_TOKEN when the door shares the bot's app).
 * Rate limits and outages keep their kinds, which the handoff waits out.
 */
import { WebAPIPlatformError } from '@slack/web-api';
import { PlatformError } from '../../../src/contract.js';
import { toPlatformError } from '../errors.js';

/** Errors by which Slack says the app cannot use the channel. */
const CHANNEL_ERRORS = new Set(['not_in_channel', 'channel_not_found', 'is_archived']);

export interface DoorSettings {
  channel: string;
  /** The variable the token came from. */
  tokenVariable: string;
}

function slackErrorOf(error: unknown): string | undefined {
  return error instanceof WebAPIPlatformError ? String(error.data.error) : undefined;
}

/** Slack's refusal in the door's words. */
export function doorError(error: unknown, method: string, settings: DoorSettings, sent?: string): PlatformError {
  const mapped = toPlatformError(error, method, sent);
  const code = slackErrorOf(error);
  const call = {
    cause: error,
    method,
    ...(sent !== undefined ? { sent } : {}),
    ...(code ? { platformCode: code } : {}),
  };
  if (code && CHANNEL_ERRORS.has(code))
    return new PlatformError(
      `Slack ${method} failed: ${code}: the operators' app cannot post in channel ${settings.channel}; ` +
        'check HANDOFF_SLACK_CHANNEL (bots[].handoff.slack.channel) and invite the app to that channel (/invite @app)',
      'not-found',
      undefined,
      call,
    );
  if (mapped.kind === 'unauthorized')
    return new PlatformError(
      `Slack ${method} failed: ${code ?? 'unauthorized'}: Slack refuses the operators' app token; set a working ${settings.tokenVariable}`,
      'unauthorized',
      undefined,
      call,
    );
  return mapped;
}

/** Most waits for Slack's rate limit within one post; a longer one is left to the handoff. */
const MAX_WAIT_MS = 30_000;
const MAX_WAITS = 3;

/**
 * A call made after others of the same post went through (its second chunk, its files): a rate
 * limit is waited out here, because the handoff retries a failed post whole, and would post
 * its first chunks twice. Slack allows about one message per second per channel.
 */
export async function doorCallContinuing<T>(
  method: string,
  settings: DoorSettings,
  call: () => Promise<T>,
  sent?: string,
): Promise<T> {
  for (let waits = 0; ; waits++) {
    try {
      return await doorCall(method, settings, call, sent);
    } catch (error) {
      const wait = error instanceof PlatformError && error.kind === 'rate-limited' ? (error.retryAfterMs ?? 1000) : -1;
      if (wait < 0 || wait > MAX_WAIT_MS || waits >= MAX_WAITS) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

export async function doorCall<T>(
  method: string,
  settings: DoorSettings,
  call: () => Promise<T>,
  sent?: string,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // uploadFile's own refusal (a file over the limit) or a mapped one: its cause is Slack's answer.
    if (error instanceof PlatformError) {
      const cause = error.cause;
      throw slackErrorOf(cause) ? doorError(cause, error.method ?? method, settings, error.sent) : error;
    }
    throw doorError(error, method, settings, sent);
  }
}
