/**
 * `chatbridge doctor` for Slack: the bot token works (auth.test), it was granted every scope
 * the adapter needs (Slack reports them in the `x-oauth-scopes` header, which web-api puts in
 * `response_metadata.scopes`), and in Socket Mode the app token may open a connection
 * (apps.connections.open: only the URL is asked for, no socket is opened). Runs against
 * SLACK_API_URL when set, so a fake or a proxy is checked the same way.
 */
import { LogLevel, WebClient, WebAPIPlatformError, WebAPIRateLimitedError } from '@slack/web-api';
import { missingBotScopes, SLACK_APP_TOKEN_SCOPE } from './scopes.js';

/** Two small calls; past this, doctor reports the Web API as unreachable rather than hanging. */
const DOCTOR_TIMEOUT_MS = 10_000;

/** The settings doctor reads (the module's section; its own shape, so module.ts and this file do not import each other). */
export interface SlackDoctorInput {
  botToken: string;
  appToken?: string;
  signingSecret?: string;
  apiUrl?: string;
}

/** One call, no retries and no waiting on a 429: doctor reports what it saw, it does not wait half an hour. */
function clientFor(token: string, apiUrl: string | undefined): WebClient {
  return new WebClient(token, {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    timeout: DOCTOR_TIMEOUT_MS,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    // web-api logs its own retries and warnings to the console; doctor prints one line per check.
    logLevel: LogLevel.ERROR,
  });
}

/** What went wrong on a call, in words an operator can act on; `setting` names the variable to check. */
function describeFailure(error: unknown, method: string, setting: string, apiUrl: string | undefined): string {
  if (error instanceof WebAPIPlatformError) return `Slack refused ${method} (${error.data.error}); check ${setting}`;
  if (error instanceof WebAPIRateLimitedError)
    return `Slack rate-limited ${method} (retry after ${error.retryAfter} s); run doctor again in a minute`;
  const where = apiUrl ?? 'https://slack.com/api/';
  return `the Slack Web API at ${where} did not answer ${method} (${(error as Error).message}); check SLACK_API_URL and the network`;
}

async function checkBotToken(input: SlackDoctorInput, bot: string): Promise<string> {
  let auth;
  try {
    auth = await clientFor(input.botToken, input.apiUrl).auth.test();
  } catch (error) {
    throw new Error(
      `bot "${bot}": ${describeFailure(error, 'auth.test', 'SLACK_BOT_TOKEN / bots[].slack.botToken (an xoxb- bot token)', input.apiUrl)}`,
      { cause: error },
    );
  }
  const identity = `@${auth.user ?? '?'} in ${auth.team ?? '?'}`;
  const granted = auth.response_metadata?.scopes;
  if (!granted) return `${identity} (Slack did not report the token's scopes; not checked)`;
  const missing = missingBotScopes(granted);
  if (missing.length > 0) {
    const list = missing.map(({ scope, neededFor }) => `${scope} (${neededFor})`).join(', ');
    throw new Error(
      `bot "${bot}" (${identity}) lacks ${missing.length === 1 ? 'the scope' : 'scopes'} ${list}; ` +
        `add ${missing.length === 1 ? 'it' : 'them'} ` +
        'under OAuth & Permissions → Bot Token Scopes (or re-create the app from adapters/slack/manifest.yaml), ' +
        'reinstall the app and paste the new SLACK_BOT_TOKEN',
    );
  }
  return identity;
}

async function checkAppToken(appToken: string, apiUrl: string | undefined, bot: string): Promise<void> {
  try {
    await clientFor(appToken, apiUrl).apps.connections.open();
  } catch (error) {
    // An xoxb- token here, or an xapp- token made without connections:write, is refused with one of these.
    const lacksScope =
      error instanceof WebAPIPlatformError && ['missing_scope', 'not_allowed_token_type'].includes(error.data.error);
    if (lacksScope) {
      throw new Error(
        `bot "${bot}": Slack refused to open a Socket Mode connection (${error.data.error}): ` +
          `SLACK_APP_TOKEN must be an app-level token (xapp-) with the ${SLACK_APP_TOKEN_SCOPE} scope; ` +
          'generate one under Basic Information → App-Level Tokens',
        { cause: error },
      );
    }
    throw new Error(
      `bot "${bot}": ${describeFailure(error, 'apps.connections.open', 'SLACK_APP_TOKEN / bots[].slack.appToken (an xapp- app-level token)', apiUrl)}`,
      { cause: error },
    );
  }
}

/** Resolves with what it found ("@bot in Team, Socket Mode"); rejects with what to fix. */
export async function checkSlackCredentials(input: SlackDoctorInput, bot: string): Promise<string> {
  if (!input.appToken && !input.signingSecret) {
    throw new Error(
      `bot "${bot}": Slack cannot deliver events: ` +
        'set SLACK_SIGNING_SECRET (HTTP Events mode, events at POST /slack/events) ' +
        'or SLACK_APP_TOKEN (Socket Mode, no public URL)',
    );
  }
  const identity = await checkBotToken(input, bot);
  if (!input.appToken) return `${identity}, HTTP Events mode`;
  await checkAppToken(input.appToken, input.apiUrl, bot);
  return `${identity}, Socket Mode (the app token may connect)`;
}
