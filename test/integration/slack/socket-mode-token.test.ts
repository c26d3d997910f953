/**
 * Socket Mode with an app token Slack refuses: Bolt alone would retry apps.connections.open
 * forever (start() never returning, only "Failed to retrieve a new WSS URL" in the log);
 * the adapter says what to fix and fails to start, as with a refused bot token.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import { startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';
import { CollectingSink } from '../telegram/collecting-sink.js';

let fake: FakeSlack | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function capturingLogger(): { logger: pino.Logger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) },
  );
  return { logger, lines };
}
const ERROR_LEVEL = 50;

describe('Slack Socket Mode with an app token Slack refuses', () => {
  it.each([
    ['missing_scope', 'an app-level token made without connections:write'],
    ['not_allowed_token_type', 'a bot token pasted as the app token'],
  ])(
    'logs one clear line naming connections:write and fails to start (%s: %s), opening no socket',
    async (slackError) => {
      fake = await startFakeSlack({ rateLimits: false });
      // Refused however often it is asked: Bolt, had it been reached, would never give up.
      fake.failNext('apps.connections.open', { error: slackError }, 100);
      const { logger, lines } = capturingLogger();
      const adapter = createSlackAdapter({
        bot: 'main',
        botToken: fake.botToken,
        appToken: fake.appToken,
        apiUrl: fake.apiUrl,
        logger,
      });
      await expect(adapter.start(new CollectingSink())).rejects.toThrow(/connections:write/);
      const errors = lines.filter((line) => line.level >= ERROR_LEVEL);
      expect(errors.map((line) => line.msg)).toEqual([
        expect.stringMatching(
          new RegExp(`Socket Mode.*${slackError}.*SLACK_APP_TOKEN.*connections:write.*App-Level Tokens`),
        ),
      ]);
      expect(fake.calls('apps.connections.open')).toHaveLength(1);
      expect(fake.socket.openConnections()).toBe(0);
      expect(adapter.status?.().connected).toBe(false);
      await adapter.stop();
    },
    30_000,
  );

  it('starts the socket when Slack could not be asked at first (a 5xx): Bolt connects on its own', async () => {
    fake = await startFakeSlack({ rateLimits: false });
    fake.failNext('apps.connections.open', { status: 503 }, 1);
    const { logger } = capturingLogger();
    const adapter = createSlackAdapter({
      bot: 'main',
      botToken: fake.botToken,
      appToken: fake.appToken,
      apiUrl: fake.apiUrl,
      logger,
    });
    await adapter.start(new CollectingSink());
    await fake.waitFor(() => fake!.socket.openConnections() === 1, { what: 'the socket connection' });
    await adapter.stop();
  }, 30_000);
});
