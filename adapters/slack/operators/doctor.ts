/**
 * `chatbridge doctor` for the Slack operator door: the token works (auth.test), the
 * channel is found (conversations.info), the app is a member of it, and the token has the
 * scopes the door needs (Slack names them in `x-oauth-scopes`, web-api in
 * `response_metadata.scopes`). Each failure names the variable to fix: HANDOFF_SLACK_CHANNEL,
 * and HANDOFF_SLACK_BOT_TOKEN, or SLACK_BOT_TOKEN when the door shares the bot's app.
 */
import { LogLevel, WebClient, WebAPIPlatformError, WebAPIRateLimitedError } from '@slack/web-api';

const DOCTOR_TIMEOUT_MS = 10_000;

/** What the door's token needs, by what breaks without it; history and read by the channel's kind. */
export function doorScopes(privateChannel: boolean): { scope: string; neededFor: string }[] {
  const history = privateChannel ? 'groups:history' : 'channels:history';
  const read = privateChannel ? 'groups:read' : 'channels:read';
  return [
    { scope: 'chat:write', neededFor: 'posting cards and messages in the channel' },
    { scope: history, neededFor: "receiving operators' replies (message events of the channel)" },
    { scope: read, neededFor: 'finding the channel (conversations.info)' },
    { scope: 'users:read', neededFor: "operators' names (users.info)" },
    { scope: 'files:read', neededFor: 'files operators share' },
    { scope: 'files:write', neededFor: "posting users' files in the thread" },
  ];
}

/** Read when granted: the operator's e-mail, for matching inbox accounts; optional. */
const EMAIL_SCOPE = 'users:read.email';

export interface DoorDoctorInput {
  channel: string;
  token: string;
  apiUrl?: string;
  /** The variable the token comes from. */
  tokenVariable: string;
}

function describe(error: unknown, method: string, fix: string, apiUrl: string | undefined): string {
  if (error instanceof WebAPIPlatformError) return `Slack refused ${method} (${error.data.error}); ${fix}`;
  if (error instanceof WebAPIRateLimitedError)
    return `Slack rate-limited ${method} (retry after ${error.retryAfter} s); run doctor again in a minute`;
  return `the Slack Web API at ${apiUrl ?? 'https://slack.com/api/'} did not answer ${method} (${(error as Error).message}); check the API URL and the network`;
}

export async function checkOperatorDoor(input: DoorDoctorInput, bot: string): Promise<string> {
  const { channel, tokenVariable, apiUrl } = input;
  const client = new WebClient(input.token, {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    timeout: DOCTOR_TIMEOUT_MS,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logLevel: LogLevel.ERROR,
  });
  const who = `bot "${bot}" operators' channel`;
  let auth;
  try {
    auth = await client.auth.test();
  } catch (error) {
    throw new Error(`${who}: ${describe(error, 'auth.test', `check ${tokenVariable} (an xoxb- bot token)`, apiUrl)}`, {
      cause: error,
    });
  }
  let info;
  try {
    info = (await client.conversations.info({ channel })).channel;
  } catch (error) {
    const notFound = error instanceof WebAPIPlatformError && error.data.error === 'channel_not_found';
    const fix = notFound
      ? `check HANDOFF_SLACK_CHANNEL (${channel}): no such channel, or a private one the app was not invited to`
      : `check HANDOFF_SLACK_CHANNEL (${channel}) and the scopes of ${tokenVariable}`;
    throw new Error(`${who}: ${describe(error, 'conversations.info', fix, apiUrl)}`, { cause: error });
  }
  const name = info?.name ? `#${info.name}` : channel;
  if (info?.is_member === false)
    throw new Error(
      `${who}: the app @${auth.user ?? '?'} is not a member of ${name} (HANDOFF_SLACK_CHANNEL=${channel}); ` +
        `invite it there (/invite @${auth.user ?? 'app'}) or set HANDOFF_SLACK_CHANNEL to a channel it is in`,
    );
  const granted = auth.response_metadata?.scopes;
  const where = `@${auth.user ?? '?'} in ${name}`;
  if (!granted) return `${where} (Slack did not report the token's scopes; not checked)`;
  const missing = doorScopes(info?.is_private === true || info?.is_group === true).filter(
    ({ scope }) => !granted.includes(scope),
  );
  if (missing.length > 0)
    throw new Error(
      `${who} (${where}): the token lacks ${missing.map(({ scope, neededFor }) => `${scope} (${neededFor})`).join(', ')}; ` +
        `add ${missing.length === 1 ? 'it' : 'them'} under OAuth & Permissions → Bot Token Scopes ` +
        '(adapters/slack/operators/manifest.yaml lists them), reinstall the app and set the new ' +
        tokenVariable,
    );
  return granted.includes(EMAIL_SCOPE) ? where : `${where} (no ${EMAIL_SCOPE}: operators are known by name only)`;
}
