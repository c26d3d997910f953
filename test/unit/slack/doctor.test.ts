/**
 * `chatbridge doctor`'s Slack check against the fake Slack Web API: it reads the scopes
 * Slack granted (auth.test's x-oauth-scopes) and names each one the adapter needs but the
 * token lacks, and in Socket Mode it asks apps.connections.open with the app token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSlackCredentials } from '../../../adapters/slack/doctor.js';
import { SLACK_BOT_SCOPES } from '../../../adapters/slack/scopes.js';
import { startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';

const ALL_SCOPES = SLACK_BOT_SCOPES.map(({ scope }) => scope);

describe('the Slack doctor check', () => {
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await startFakeSlack({ scopes: ALL_SCOPES });
  });
  afterAll(async () => {
    await slack.close();
  });
  const http = () => ({ botToken: slack.botToken, signingSecret: slack.signingSecret, apiUrl: slack.apiUrl });

  it('reports the bot and the mode when the token has every scope the adapter needs', async () => {
    slack.setScopes([...ALL_SCOPES, 'mpim:history']);
    await expect(checkSlackCredentials(http(), 'main')).resolves.toBe(
      `@chatbridge in ${slack.identity.teamName}, HTTP Events mode`,
    );
  });

  it('names every missing scope, what users lose without it, and how to grant it', async () => {
    slack.setScopes(ALL_SCOPES.filter((scope) => scope !== 'files:read' && scope !== 'app_mentions:read'));
    const failure = checkSlackCredentials(http(), 'main');
    await expect(failure).rejects.toThrow(
      /lacks scopes app_mentions:read \(being answered when mentioned.*\), files:read \(downloading files/,
    );
    await expect(failure).rejects.toThrow(/reinstall the app and paste the new SLACK_BOT_TOKEN/);
  });

  it('names SLACK_BOT_TOKEN when Slack refuses the token', async () => {
    await expect(checkSlackCredentials({ ...http(), botToken: 'xoxb-revoked' }, 'main')).rejects.toThrow(
      /Slack refused auth\.test \(invalid_auth\); check SLACK_BOT_TOKEN/,
    );
  });

  it('checks the app token in Socket Mode', async () => {
    slack.setScopes(ALL_SCOPES);
    await expect(
      checkSlackCredentials({ botToken: slack.botToken, appToken: slack.appToken, apiUrl: slack.apiUrl }, 'main'),
    ).resolves.toMatch(/, Socket Mode \(the app token may connect\)$/);
    expect(slack.calls('apps.connections.open').at(-1)).toMatchObject({ ok: true });
  });

  it('names connections:write when Slack refuses the app token', async () => {
    const socketMode = { botToken: slack.botToken, appToken: slack.appToken, apiUrl: slack.apiUrl };
    // The bot token where the app token belongs: Slack answers not_allowed_token_type.
    await expect(checkSlackCredentials({ ...socketMode, appToken: slack.botToken }, 'main')).rejects.toThrow(
      /\(not_allowed_token_type\): SLACK_APP_TOKEN must be an app-level token \(xapp-\) with the connections:write scope/,
    );
    slack.failNext('apps.connections.open', { error: 'missing_scope' });
    await expect(checkSlackCredentials(socketMode, 'main')).rejects.toThrow(
      /\(missing_scope\): SLACK_APP_TOKEN must be an app-level token \(xapp-\) with the connections:write scope/,
    );
  });

  it('names SLACK_APP_TOKEN when Slack refuses the app token itself', async () => {
    await expect(
      checkSlackCredentials({ botToken: slack.botToken, appToken: 'xapp-1-revoked', apiUrl: slack.apiUrl }, 'main'),
    ).rejects.toThrow(/Slack refused apps\.connections\.open \(invalid_auth\); check SLACK_APP_TOKEN/);
  });

  it('says which variable to set when Slack could not deliver events at all', async () => {
    await expect(checkSlackCredentials({ botToken: slack.botToken, apiUrl: slack.apiUrl }, 'main')).rejects.toThrow(
      /set SLACK_SIGNING_SECRET .* or SLACK_APP_TOKEN/,
    );
  });

  it('names SLACK_API_URL when nothing answers there', async () => {
    await expect(checkSlackCredentials({ ...http(), apiUrl: 'http://127.0.0.1:1/api/' }, 'main')).rejects.toThrow(
      /did not answer auth\.test .*check SLACK_API_URL/,
    );
  });
});
