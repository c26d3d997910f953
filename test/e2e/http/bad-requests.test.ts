import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResumeLinks } from '../../../src/handoff/index.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';

const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
const HANDOFF_SECRET = 'e2e-handoff-secret-0123456789';
const CORRUPT_GZIP = 'this is not gzip';

/**
 * Issue #7 item 11: requests a client got wrong are answered 4xx with what to
 * fix, never 500, and the admin API and hand-back links accept exactly what
 * their standards say.
 */
describe('chatbridge start, as a process, given malformed requests on its HTTP port', () => {
  let fake: FakeTelegram;
  let gateway: ChatbridgeProcess;
  let base: string;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    gateway = await startChatbridge({
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
      ADMIN_TOKEN,
      HANDOFF_SECRET,
    });
    base = `http://127.0.0.1:${gateway.port}`;
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake?.close();
  });

  const admin = (path: string, init: RequestInit = {}, scheme = 'Bearer') =>
    fetch(`${base}/admin${path}`, { ...init, headers: { authorization: `${scheme} ${ADMIN_TOKEN}`, ...init.headers } });

  it('answers a corrupt gzip body with 400 on the embedded service, the admin API and the hand-back form', async () => {
    const service = await fetch(`${base}/chat/Chatbot/ModelList`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: CORRUPT_GZIP,
    });
    expect(service.status).toBe(400);
    expect(await service.json()).toMatchObject({
      Success: false,
      Code: 400,
      Message: 'The request body is not valid gzip data; send it intact, or uncompressed without Content-Encoding.',
    });

    const adminApi = await admin('/conversations/main%3Atelegram%3A42/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: CORRUPT_GZIP,
    });
    expect(adminApi.status).toBe(400);

    const form = await fetch(`${base}/handoff/resume`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      body: CORRUPT_GZIP,
    });
    expect(form.status).toBe(400);
  });

  it('answers 404 naming the expected shape for a Telegram conversation id that is not a chat id', async () => {
    const response = await admin('/conversations/main%3Atelegram%3Anot-a-chat/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hello from a person' }),
    });
    // Well formed, but no Telegram chat can have this id: no such conversation.
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.stringContaining('<chat id>') as string });
    expect(fake.globalLog().some((call) => call.method === 'sendMessage')).toBe(false);
  });

  it("answers 404 with Telegram's reason when the chat does not exist, rather than a gateway failure", async () => {
    const response = await admin('/conversations/main%3Atelegram%3A0/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hello from a person' }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.stringContaining('chat not found') as string });
  });

  it('accepts the bearer scheme in any case, and still refuses a wrong token', async () => {
    expect((await admin('/handoffs', {}, 'bearer')).status).toBe(200);
    expect((await admin('/handoffs', {}, 'BEARER')).status).toBe(200);
    const wrong = await fetch(`${base}/admin/handoffs`, { headers: { authorization: `bearer ${ADMIN_TOKEN}x` } });
    expect(wrong.status).toBe(401);
  });

  it('refuses a hand-back link whose signature has trailing junk, and accepts the link as signed', async () => {
    const links = new ResumeLinks(HANDOFF_SECRET, base);
    const token = links.sign({
      conversation: { bot: 'main', platform: 'telegram', id: '42' },
      handoffId: 'h-e2e',
      expiresAt: Date.now() + 60_000,
    });
    const page = (t: string) => fetch(`${base}/handoff/resume?token=${encodeURIComponent(t)}`);
    // No handoff is active, so the valid link shows "already back with the bot" (200), changing nothing.
    expect((await page(token)).status).toBe(200);
    for (const junk of ['!!', '=', '.x', '%']) {
      expect((await page(`${token}${junk}`)).status, `token + "${junk}"`).toBe(400);
    }
  });
});
