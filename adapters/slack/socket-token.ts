/**
 * Socket Mode's app token, checked before Bolt opens the socket. Bolt's Socket Mode client
 * treats a refused apps.connections.open (`missing_scope`: an app-level token made without
 * connections:write; `not_allowed_token_type`: a bot token pasted as the app token) as
 * recoverable and retries it forever, so start() would hang with only Bolt's generic
 * "Failed to retrieve a new WSS URL" in the log. Asking once ourselves turns that into one
 * clear log line and a start() that fails with what to fix, as a refused bot token does.
 */
import { WebClient, WebAPIPlatformError } from '@slack/web-api';
import type { Logger } from '../../src/contract.js';
import { webClientOptions } from './client.js';
import { SLACK_APP_TOKEN_SCOPE } from './scopes.js';

/** apps.connections.open errors that retrying cannot fix: the token has to be replaced. */
const REFUSED_APP_TOKEN_ERRORS = new Set([
  'missing_scope',
  'not_allowed_token_type',
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'account_inactive',
]);

export class SocketModeTokenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SocketModeTokenError';
  }
}

/**
 * Resolves when the app token may open a Socket Mode connection, or when Slack could not be
 * asked (unreachable, rate limited: Bolt's own retries take over); rejects, after logging
 * what to do, when Slack refuses the token.
 */
export async function checkSocketModeToken(
  appToken: string,
  apiUrl: string | undefined,
  bot: string,
  logger: Logger,
): Promise<void> {
  const client = new WebClient(appToken, webClientOptions(apiUrl, logger));
  try {
    // Only asks for a socket URL; the socket itself is opened by Bolt afterwards.
    await client.apps.connections.open();
  } catch (error) {
    if (error instanceof WebAPIPlatformError && REFUSED_APP_TOKEN_ERRORS.has(error.data.error)) {
      const lacksScope = ['missing_scope', 'not_allowed_token_type'].includes(error.data.error);
      const message = lacksScope
        ? `Slack refused to open a Socket Mode connection for bot "${bot}" (${error.data.error}): ` +
          `SLACK_APP_TOKEN must be an app-level token (xapp-) with the ${SLACK_APP_TOKEN_SCOPE} scope; ` +
          'generate one under Basic Information → App-Level Tokens. This bot receives nothing until then.'
        : `Slack refused the app token of bot "${bot}" (${error.data.error}): check SLACK_APP_TOKEN / bots[].slack.appToken ` +
          `(an app-level token, xapp-, with ${SLACK_APP_TOKEN_SCOPE}). This bot receives nothing until then.`;
      logger.error({ bot, slackError: error.data.error }, `slack: ${message}`);
      throw new SocketModeTokenError(message, { cause: error });
    }
    logger.warn(
      { err: error, bot },
      'slack: could not check the app token with apps.connections.open; Socket Mode keeps trying to connect',
    );
  }
}
