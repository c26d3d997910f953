import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { freePort } from '../../support/net.js';

const USER = { id: 6161, first_name: 'Barbara', username: 'barbara' };
const SECRET = 'e2e_webhook_limits-secret';
/** Deeply nested JSON, the costliest kind to parse. */
const nested = (megabytes: number) => '['.repeat(megabytes * 500_000) + ']'.repeat(megabytes * 500_000);

describe('the Telegram webhook of a running gateway under oversized and unauthenticated bodies', () => {
  let fake: FakeTelegram;
  let gateway: ChatbridgeProcess;
  let webhookUrl: string;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    const port = await freePort();
    webhookUrl = `http://127.0.0.1:${port}/telegram/main`;
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

  const post = (body: string, secret?: string) =>
    fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}) },
      body,
    }).then((response) => response.status);

  it('refuses big nested bodies without the secret (401) and answers the real update posted meanwhile', async () => {
    const attacks = Array.from({ length: 5 }, () => post(nested(8)));
    fake.userSends({ chat: USER.id, from: USER, text: 'Do you have homes for sale in Austin?' });
    expect(await Promise.all(attacks)).toEqual([401, 401, 401, 401, 401]);
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('MLS TX-10452')), {
      timeoutMs: 30_000,
      what: 'the answer',
    });
    expect(fake.webhookAttempts().filter((attempt) => attempt.status === 200).length).toBeGreaterThan(0);
  }, 60_000);

  it('answers 401 without reading the body: the answer comes while the body is still being sent', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const post = request(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' } });
      post.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        post.destroy();
      });
      post.on('error', reject);
      // A megabyte of an unfinished nested body, and the request is never ended.
      post.write('['.repeat(1_000_000));
    });
    expect(status).toBe(401);
  }, 30_000);

  it('refuses a wrong secret of any length with 401', async () => {
    const update = JSON.stringify({
      update_id: 1,
      message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: 'hi' },
    });
    expect(await post(update, 'wrong')).toBe(401);
    expect(await post(update, `${SECRET}x`)).toBe(401);
  });

  it('refuses a body over 1 MB with the right secret (413)', async () => {
    const padding = 'x'.repeat(1_100_000);
    const update = JSON.stringify({
      update_id: 2,
      message: { message_id: 2, date: 0, chat: { id: USER.id, type: 'private' }, from: USER, text: padding },
    });
    expect(await post(update, SECRET)).toBe(413);
    expect(await post(nested(2), SECRET)).toBe(413);
  });
});
