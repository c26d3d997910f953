/**
 * `chatbridge doctor` as a process with only the Slack variables: the Slack line says who the
 * bot is and the mode, or fails naming the scopes the token lacks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor as doctor } from '../../support/doctor-process.js';
import { SLACK_BOT_SCOPES } from '../../../adapters/slack/scopes.js';
import { startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';

describe('chatbridge doctor with Slack', () => {
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await startFakeSlack({ scopes: SLACK_BOT_SCOPES.map(({ scope }) => scope) });
  });
  afterAll(async () => {
    await slack.close();
  });
  const env = () => ({
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: slack.signingSecret,
    SLACK_API_URL: slack.apiUrl,
  });

  it('passes the Slack check when the token has every scope of the manifest', async () => {
    const { output } = await doctor(env());
    expect(output).toMatch(/^ok {4}slack:main: @chatbridge in FakeWorkspace, HTTP Events mode$/m);
  }, 60_000);

  it('fails the Slack check naming the scope the token lacks', async () => {
    slack.setScopes(SLACK_BOT_SCOPES.map(({ scope }) => scope).filter((scope) => scope !== 'im:history'));
    const { output, code } = await doctor(env());
    expect(output).toMatch(
      /^FAIL {2}slack:main: bot "main" \(@chatbridge in FakeWorkspace\) lacks the scope im:history \(receiving direct messages/m,
    );
    expect(code).toBe(1);
  }, 60_000);
});
