/**
 * A Slack Web API call that Slack refuses comes back as a PlatformError naming the method
 * (`chat.update`) and a redacted summary of what was sent: never the bot token, never the
 * whole text.
 */
import { LogLevel } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackOutbound } from '../../../adapters/slack/outbound.js';
import { startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';
import { PlatformError } from '../../../src/contract.js';

const CHANNEL = 'C0CHANNEL1';
const TEXT = `Your booking reference is ZX-4471 and ${'more words of the answer '.repeat(20)}`;

describe('a refused Slack call', () => {
  let slack: FakeSlack;
  let outbound: SlackOutbound;
  beforeAll(async () => {
    slack = await startFakeSlack();
    const client = new WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
      logLevel: LogLevel.ERROR,
    });
    outbound = new SlackOutbound(client);
  });
  afterAll(() => slack.close());

  it('names chat.update and what was sent, without the token or the whole text', async () => {
    const conversation = { bot: 'main', platform: 'slack', id: CHANNEL };
    const error = await outbound.edit(conversation, { id: '1700000000.000001' }, TEXT).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PlatformError);
    const refused = error as PlatformError;
    expect(refused.kind).toBe('not-found');
    expect(refused.method).toBe('chat.update');
    expect(refused.sent).toBe(
      `to ${CHANNEL}, message 1700000000.000001, text "Your booking referen…" (${TEXT.length} chars)`,
    );
    const logged = JSON.stringify({ ...refused, message: refused.message });
    expect(logged).not.toContain(slack.botToken);
    expect(logged).not.toContain('ZX-4471');
  });
});
