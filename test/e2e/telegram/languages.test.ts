/**
 * The gateway's own words in the chatbot's language, as a user meets them: `chatbridge start` with the embedded
 * service, whose demo chatbot an admin switches to Spanish with a rate limit over the service's API, and a config
 * file that overrides one sentence for the bot. The too-long refusal and the rate-limit default come in Spanish;
 * the overridden sentence is said as configured.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { DEMO_SERIAL_NUMBER } from '../../../src/service/index.js';
import { userTextsFor } from '../../../src/gateway/index.js';
import { CLIENT_ASK_CONTENT_MAX_CHARS } from '../../../src/upstream/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';

const SECRET = 'languages-e2e-secret';
const RESET_DONE = 'Listo, empezamos de cero: configured for this bot.';
const spanish = userTextsFor('Spanish');

describe("the gateway's words in the chatbot's language (chatbridge start, as a process)", () => {
  let fake: FakeTelegram;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    const prefix = `cbtest:e2e-languages:${randomUUID().slice(0, 8)}:`;
    const config = join(mkdtempSync(join(tmpdir(), 'cb-e2e-languages-')), 'chatbridge.yaml');
    writeFileSync(
      config,
      `keyPrefix: "${prefix}"\nconsole: off\nport: 0\nhost: 127.0.0.1\n` +
        `bots:\n  - id: main\n    texts:\n      resetDone: "${RESET_DONE}"\n`,
    );
    gateway = await startChatbridge(
      {
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.apiRoot,
        SERVICE_SECRET_KEY: SECRET,
        SERVICE_SESSION_KEY: 'languages-e2e-session',
        CHATBRIDGE_CONFIG: config,
      },
      { prefix },
    );
    // An admin of the chatbot, at the service: Spanish, and one message an hour per user with no message of its own.
    const edit = await fetch(`http://127.0.0.1:${gateway.port}/chat/Chatbot/Edit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: SECRET },
      body: JSON.stringify({
        serialNumber: DEMO_SERIAL_NUMBER,
        AIResponseLanguage: 'Spanish',
        RateLimitCount: 1,
        RateLimitTime: 3600,
        // No message of its own for the limit: the gateway's default is said.
        RateLimitMessage: '',
      }),
    });
    expect(((await edit.json()) as { Success: boolean }).Success).toBe(true);
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake?.close();
  });

  const texts = (chat: number) => fake.visibleMessages(chat).map((message) => message.text);
  const from = (id: number) => ({ id, first_name: `Usuario ${id}` });

  it('refuses a message too long in Spanish, numbers grouped the Spanish way', async () => {
    const user = from(7301);
    const length = CLIENT_ASK_CONTENT_MAX_CHARS + 1;
    fake.userSends({ chat: user.id, from: user, text: 'x'.repeat(length) });
    await fake.waitFor(() => texts(user.id).length > 0, { timeoutMs: 45_000, what: 'the refusal' });
    expect(texts(user.id)).toEqual([spanish.messageTooLong(CLIENT_ASK_CONTENT_MAX_CHARS, length)]);
    expect(texts(user.id)[0]).toContain('20.000');
  }, 60_000);

  it("says the rate limit's default in Spanish when the chatbot has no message of its own", async () => {
    const user = from(7302);
    fake.userSends({ chat: user.id, from: user, text: '¿Tienen casas en Austin?' });
    await fake.waitFor(() => texts(user.id).length > 0, { timeoutMs: 45_000, what: 'the first answer' });
    fake.userSends({ chat: user.id, from: user, text: '¿Y en Denver?' });
    await fake.waitFor(() => texts(user.id).includes(spanish.rateLimitedDefault), {
      timeoutMs: 45_000,
      what: 'the rate-limit message',
    });
  }, 60_000);

  it("says a sentence the bot's config overrides as configured", async () => {
    const user = from(7303);
    fake.userSends({ chat: user.id, from: user, text: '/reset' });
    await fake.waitFor(() => texts(user.id).includes(RESET_DONE), { timeoutMs: 45_000, what: 'the reset reply' });
  }, 60_000);
});
