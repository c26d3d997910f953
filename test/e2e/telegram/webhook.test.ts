import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { freePort } from '../../support/net.js';

const USER = { id: 5151, first_name: 'Linus', username: 'linus' };
const SECRET = 'e2e_webhook_secret-123';

describe('chatbridge start in Telegram webhook mode', () => {
  let fake: FakeTelegram;
  let gateway: ChatbridgeProcess;
  let port: number;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    // The webhook URL names the port, so it is chosen before the start.
    port = await freePort();
    gateway = await startChatbridge(
      {
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.apiRoot,
        TELEGRAM_MODE: 'webhook',
        TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}`,
        TELEGRAM_WEBHOOK_SECRET: SECRET,
      },
      { port },
    );
  }, 30_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake.close();
  });

  it('registers its webhook with the secret and answers updates Telegram posts to it', async () => {
    const registration = fake.globalLog().find((call) => call.method === 'setWebhook');
    expect(registration?.params).toMatchObject({ url: `http://127.0.0.1:${port}/telegram/main`, secret_token: SECRET });
    fake.userSends({ chat: USER.id, from: USER, text: 'Anything for rent in Portland?' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('1200 NW Marshall')), {
      timeoutMs: 15_000,
      what: 'the answer',
    });
    expect(fake.webhookAttempts().some((attempt) => attempt.status === 200)).toBe(true);
  });

  it('refuses a webhook request without the secret token', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/telegram/main`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        update_id: 1,
        message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: 'hi' },
      }),
    });
    expect(response.status).toBe(401);
  });
});
