/**
 * `chatbridge doctor` for the Slack operators' channel, against the fake Slack: the token, the
 * channel, the app's membership, the scopes; each failure names the variable to fix
 * (HANDOFF_SLACK_CHANNEL, HANDOFF_SLACK_BOT_TOKEN, or SLACK_BOT_TOKEN when the bot's app is shared).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { slackOperatorDoor } from '../../../../adapters/slack/operators/module.js';
import { DEFAULT_SCOPES, startFakeSlack, type FakeSlack } from '../../../../fakes/slack/index.js';

const CHANNEL = 'C0OPS00001';
const DOOR_SCOPES = [
  ...DEFAULT_SCOPES,
  'channels:read',
  'groups:read',
  'users:read',
  'users:read.email',
  'files:write',
];

let slack: FakeSlack | undefined;
afterEach(async () => {
  await slack?.close();
  slack = undefined;
});

async function fakeWith(options: { scopes?: string[]; member?: boolean } = {}): Promise<FakeSlack> {
  slack = await startFakeSlack({ scopes: options.scopes ?? DOOR_SCOPES, guessConversations: false });
  slack.addConversation({ id: CHANNEL, name: 'support', is_member: options.member ?? true });
  return slack;
}

const ownApp = (fake: FakeSlack, channel = CHANNEL) =>
  slackOperatorDoor.configSection.parse({
    channel,
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
  });

describe("the Slack operators' channel doctor check", () => {
  it('reports the app, the channel and the set-up when all is well', async () => {
    const fake = await fakeWith();
    await expect(slackOperatorDoor.doctor!(ownApp(fake), undefined, 'main')).resolves.toBe(
      "@chatbridge in #support, threads mode, the operators' own app",
    );
  });

  it('names HANDOFF_SLACK_CHANNEL for a channel Slack does not know', async () => {
    const fake = await fakeWith();
    await expect(slackOperatorDoor.doctor!(ownApp(fake, 'C0WRONG001'), undefined, 'main')).rejects.toThrow(
      /channel_not_found.*HANDOFF_SLACK_CHANNEL \(C0WRONG001\)/,
    );
  });

  it('says to invite the app when it is not a member of the channel', async () => {
    const fake = await fakeWith({ member: false });
    await expect(slackOperatorDoor.doctor!(ownApp(fake), undefined, 'main')).rejects.toThrow(
      /not a member of #support \(HANDOFF_SLACK_CHANNEL=C0OPS00001\); invite it/,
    );
  });

  it('names a missing scope, what it is for, and the token variable to replace', async () => {
    const fake = await fakeWith({ scopes: DOOR_SCOPES.filter((scope) => scope !== 'users:read') });
    await expect(slackOperatorDoor.doctor!(ownApp(fake), undefined, 'main')).rejects.toThrow(
      /lacks users:read \(operators' names.*set the new HANDOFF_SLACK_BOT_TOKEN/,
    );
  });

  it("names SLACK_BOT_TOKEN when the door shares the bot's app", async () => {
    const fake = await fakeWith({ scopes: DEFAULT_SCOPES });
    const door = slackOperatorDoor.configSection.parse({ channel: CHANNEL });
    const own = { botToken: fake.botToken, signingSecret: fake.signingSecret, apiUrl: fake.apiUrl };
    await expect(slackOperatorDoor.doctor!(door, own, 'main')).rejects.toThrow(/lacks channels:read.*SLACK_BOT_TOKEN/);
    await expect(slackOperatorDoor.doctor!(door, { ...own, botToken: 'xoxb-revoked' }, 'main')).rejects.toThrow(
      /invalid_auth.*check SLACK_BOT_TOKEN/,
    );
  });

  it('says which variable to set when there is no Slack app at all', async () => {
    await expect(
      slackOperatorDoor.doctor!(slackOperatorDoor.configSection.parse({ channel: CHANNEL }), undefined, 'main'),
    ).rejects.toThrow(/HANDOFF_SLACK_BOT_TOKEN/);
  });
});
