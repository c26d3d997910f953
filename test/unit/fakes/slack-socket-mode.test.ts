import { App, LogLevel, SocketModeReceiver } from '@slack/bolt';
import { WebClient, type WebAPIPlatformError } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';

const DM = 'D0DM000001';

let slack: FakeSlack;
let bolt: App | undefined;

/** A real Bolt app in Socket Mode whose Web API (apps.connections.open included) is the fake. */
async function startBoltInSocketMode(setup: (app: App) => void): Promise<App> {
  const clientOptions = { slackApiUrl: slack.apiUrl };
  const receiver = new SocketModeReceiver({
    appToken: slack.appToken,
    installerOptions: { clientOptions },
    logLevel: LogLevel.ERROR,
  });
  const app = new App({ token: slack.botToken, receiver, clientOptions, logLevel: LogLevel.ERROR });
  setup(app);
  await app.start();
  bolt = app;
  return app;
}

afterEach(async () => {
  await bolt?.stop();
  bolt = undefined;
  await slack?.close();
});

describe('fake Slack: Socket Mode', () => {
  it('hands out its WebSocket URL only for the app-level token', async () => {
    slack = await startFakeSlack();
    const opened = await new WebClient(slack.appToken, { slackApiUrl: slack.apiUrl }).apps.connections.open();
    expect(opened.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket-mode\?ticket=/);
    const withBotToken = await new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl }).apps.connections
      .open()
      .catch((e: unknown) => e);
    expect((withBotToken as WebAPIPlatformError).data.error).toBe('not_allowed_token_type');
  });

  it('delivers an event, a button press and a slash command to a real Bolt app in Socket Mode and records each ack', async () => {
    slack = await startFakeSlack({ rateLimits: false });
    const seen: string[] = [];
    await startBoltInSocketMode((app) => {
      app.message(async ({ message, say }) => {
        seen.push(`message:${'text' in message ? message.text : ''}`);
        await say('answered over the socket');
      });
      app.action('reset', async ({ ack, action }) => {
        await ack();
        seen.push(`action:${'value' in action ? action.value : ''}`);
      });
      app.command('/chatbot', async ({ ack, command }) => {
        await ack('on it');
        seen.push(`command:${command.text}`);
      });
    });
    expect(slack.socket.openConnections()).toBe(1);
    const eventEnvelope = slack.socket.pushEvent(slack.build.messageIm({ channel: DM, text: 'hello' }));
    const actionEnvelope = slack.socket.pushInteractive(
      slack.build.blockActions({ channel: DM, messageTs: '1.000001', actionId: 'reset', value: 'yes' }),
    );
    const commandEnvelope = slack.socket.pushSlashCommand(
      slack.build.slashCommand({ command: '/chatbot', text: 'help', channel: DM }),
    );
    await slack.socket.waitForAck(eventEnvelope);
    await slack.socket.waitForAck(actionEnvelope);
    expect((await slack.socket.waitForAck(commandEnvelope)).payload).toEqual({ text: 'on it' });
    await slack.waitFor(() => seen.length === 3 && slack.visibleMessages(DM).length === 1);
    expect(seen).toEqual(['message:hello', 'action:yes', 'command:help']);
    expect(slack.visibleMessages(DM)[0]?.text).toBe('answered over the socket');
  });

  it("reconnects a real Bolt app after Slack's disconnect message, and events flow on the new connection", async () => {
    slack = await startFakeSlack({ rateLimits: false });
    const seen: string[] = [];
    await startBoltInSocketMode((app) => {
      app.message(async ({ message }) => {
        seen.push('text' in message ? (message.text ?? '') : '');
      });
    });
    slack.socket.disconnectAll('refresh_requested');
    await slack.waitFor(() => slack.socket.connectionsOpened() === 2 && slack.socket.openConnections() === 1, {
      timeoutMs: 20_000,
      what: 'a second Socket Mode connection',
    });
    await slack.socket.waitForAck(
      slack.socket.pushEvent(slack.build.messageIm({ channel: DM, text: 'after the reconnect' })),
      { timeoutMs: 10_000 },
    );
    await slack.waitFor(() => seen.length === 1);
    expect(seen).toEqual(['after the reconnect']);
    expect(slack.calls('apps.connections.open').filter((c) => c.ok)).toHaveLength(2);
  });
});
