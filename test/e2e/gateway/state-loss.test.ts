import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.js';

const USER = { id: 8080, first_name: 'Barbara', username: 'barbara' };

/** Polls `condition` until it holds; fails with `what` and the gateway's log after `timeoutMs`. */
async function eventually(
  condition: () => boolean,
  what: string,
  log: () => string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}; the gateway's log:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a gateway process whose Redis restarts empty (no persistence)', () => {
  let redis: PrivateRedis;
  let fake: FakeTelegram;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    fake = await startFakeTelegram();
    gateway = await startChatbridge({
      REDIS_URL: redis.url,
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await fake?.close();
    await redis?.close();
  });

  it('answers before the loss', async () => {
    fake.userSends({ chat: USER.id, from: USER, text: 'Do you have homes for sale in Austin?' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('MLS TX-10452')), {
      timeoutMs: 30_000,
      what: 'the first answer',
    });
  }, 60_000);

  it('notices that every key is gone, seeds the chatbot again and answers the next question without a restart', async () => {
    await redis.stop();
    await redis.start();
    await eventually(
      () => gateway.log().includes('seeding the chatbot settings and the demo chatbot again'),
      'the gateway to notice the loss',
      gateway.log,
    );
    await eventually(
      () => gateway.log().includes('state seeded again after the loss'),
      'the gateway to seed again',
      gateway.log,
    );
    const before = fake.visibleMessages(USER.id).length;
    fake.userSends({ chat: USER.id, from: USER, text: 'Anything for rent in Portland?' });
    await fake.waitFor(
      () =>
        fake
          .visibleMessages(USER.id)
          .slice(before)
          .some((m) => m.text.includes('1200 NW Marshall')),
      { timeoutMs: 30_000, what: 'the answer after the loss' },
    );
    // The gateway is the same process all along.
    expect(gateway.child.exitCode).toBeNull();
  }, 120_000);

  it('also notices a loss without a reconnect (the private Redis flushed), on its periodic check', async () => {
    const seededBefore = gateway.log().split('state seeded again after the loss').length;
    const admin = new Redis(redis.url);
    try {
      await admin.flushall();
    } finally {
      admin.disconnect();
    }
    await eventually(
      () => gateway.log().split('state seeded again after the loss').length > seededBefore,
      'the periodic check to seed again',
      gateway.log,
    );
    const before = fake.visibleMessages(USER.id).length;
    fake.userSends({ chat: USER.id, from: USER, text: 'Do you have homes for sale in Denver?' });
    await fake.waitFor(
      () =>
        fake
          .visibleMessages(USER.id)
          .slice(before)
          .some((m) => m.text.includes('MLS CO-')),
      { timeoutMs: 30_000, what: 'the answer after the flush' },
    );
  }, 120_000);
});
