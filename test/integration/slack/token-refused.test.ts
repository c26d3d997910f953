/**
 * Slack refuses the bot token for a while (`token_revoked`, `invalid_auth`, `account_inactive`):
 * the adapter says it is not connected, naming SLACK_BOT_TOKEN (what /readyz and
 * chatbridge_platform_connected report), and the core's one retry rule waits the answer out as it
 * does an unreachable platform, so it is delivered once when the token works again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../adapters/slack/index.js';
import { startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';
import type { AdapterStatus, PlatformError } from '../../../src/contract.js';
import { retryPlatformCall } from '../../../src/gateway/reply/index.js';
import { silentLogger } from '../../../src/logger.js';
import { CollectingSink } from '../telegram/collecting-sink.js';

const DM = { bot: 'main', platform: 'slack', id: 'D0TOKEN0001' };
const ANSWER = 'Here are the Austin listings.';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(): Promise<{ fake: FakeSlack; adapter: SlackAdapter }> {
  const fake = await startFakeSlack({ rateLimits: false });
  cleanups.push(() => fake.close());
  const adapter = createSlackAdapter({
    bot: 'main',
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
    logger: silentLogger(),
  });
  await adapter.start(new CollectingSink());
  cleanups.push(() => adapter.stop());
  return { fake, adapter };
}

describe('Slack refusing the bot token', () => {
  it.each(['token_revoked', 'invalid_auth', 'account_inactive'])(
    'is not connected while Slack answers %s, naming SLACK_BOT_TOKEN, and the answer waits and goes out once',
    async (slackError) => {
      const { fake, adapter } = await started();
      expect(adapter.status?.()).toEqual({ connected: true });
      fake.failNext('chat.postMessage', { error: slackError }, 2);
      const seen: (AdapterStatus | undefined)[] = [];
      const refusals: PlatformError[] = [];
      await retryPlatformCall(() => adapter.outbound.send(DM, { text: ANSWER }), {
        policy: { rateLimitAttempts: 1, rateLimitBudgetMs: 0, outageHorizonMs: 60_000 },
        onUnreachable: (error) => {
          refusals.push(error);
          seen.push(adapter.status?.());
        },
      });
      expect(refusals.map((error) => error.kind)).toEqual(['unauthorized', 'unauthorized']);
      expect(refusals[0]!.message).toContain(slackError);
      for (const status of seen) {
        expect(status?.connected).toBe(false);
        expect(status?.reason).toContain('SLACK_BOT_TOKEN');
      }
      expect(adapter.status?.()).toEqual({ connected: true });
      expect(fake.visibleMessages(DM.id).filter((message) => message.text === ANSWER)).toHaveLength(1);
    },
    30_000,
  );

  it('is connected again once auth.test takes the token, though no answer is waiting', async () => {
    const { fake, adapter } = await started();
    fake.failNext('chat.postMessage', { error: 'token_revoked' });
    await expect(adapter.outbound.send(DM, { text: ANSWER })).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(adapter.status?.()).toMatchObject({ connected: false });
    // The watch's probe (auth.test, with backoff from 1 s) finds the token working.
    const deadline = Date.now() + 20_000;
    while (adapter.status?.().connected !== true && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(adapter.status?.()).toEqual({ connected: true });
  }, 30_000);
});
