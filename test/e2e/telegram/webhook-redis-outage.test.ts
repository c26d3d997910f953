/**
 * Telegram in webhook mode while the gateway's Redis is frozen or stopped: each update Telegram
 * posts is answered 503 within a few seconds (not held open for the outage), the outage is logged
 * once, and once Redis is back the update Telegram sends again is answered once.
 */
import { startFakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge } from '../../support/chatbridge-process.js';
import { freePort } from '../../support/net.js';
import { ANSWER_DEADLINE_MS, ANSWER_MARK, QUESTION, webhookOutageSpec } from '../../support/webhook-outage.js';

const USER = { id: 5252, first_name: 'Ada', username: 'ada' };

webhookOutageSpec('Telegram', async (redisUrl) => {
  const fake = await startFakeTelegram({
    rateLimit: false,
    webhookTimeoutMs: ANSWER_DEADLINE_MS,
    webhookRetryDelayMs: 500,
  });
  const port = await freePort();
  const gateway = await startChatbridge(
    {
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
      TELEGRAM_MODE: 'webhook',
      TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}`,
      TELEGRAM_WEBHOOK_SECRET: 'outage-webhook-secret',
      REDIS_URL: redisUrl,
    },
    { port },
  );
  const tries = () =>
    fake
      .webhookAttempts()
      .map(({ status }) => ({ status: status === 'network-error' ? ('no answer' as const) : status }));
  return {
    async deliver() {
      fake.userSends({ chat: USER.id, from: USER, text: QUESTION });
      await fake.waitFor(() => tries().some(({ status }) => status === 200), {
        timeoutMs: 120_000,
        what: 'a 200 to the update',
      });
    },
    tries,
    answers: () => fake.visibleMessages(USER.id).filter((message) => message.text.includes(ANSWER_MARK)).length,
    log: () => gateway.log(),
    async close() {
      await gateway.stop();
      await fake.close();
    },
  };
});
