/**
 * With the embedded service, the gateway acts on the chatbot's settings as the
 * service holds them, not on a copy: a setting edited at the service (by any
 * client, not through chatbridge) is what the gateway applies.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SERIAL_NUMBER } from '../../../src/service/index.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';

const SECRET = 'embedded-settings-secret';
const VOICE = readFileSync(join(import.meta.dirname, '../../fixtures/media/voice-440hz-2s.ogg'));

describe("the embedded service's settings, read by the gateway from the service", () => {
  let fake: FakeTelegram;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    gateway = await startChatbridge({
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
      SERVICE_SECRET_KEY: SECRET,
      SERVICE_SESSION_KEY: 'embedded-settings-session',
    });
  }, 30_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake.close();
  });

  it('refuses voice messages itself once they are turned off at the service, with no copy to update', async () => {
    // Edited at the embedded service over its API, before any message: chatbridge's copy is not told.
    const edit = await fetch(`http://127.0.0.1:${gateway.port}/chat/Chatbot/Edit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: SECRET },
      body: JSON.stringify({ serialNumber: DEMO_SERIAL_NUMBER, EnablePushToTalk: false }),
    });
    expect(((await edit.json()) as { Success: boolean }).Success).toBe(true);

    const voice = fake.addFile(VOICE, { mimeType: 'audio/ogg' });
    fake.userSends({ chat: 7101, from: { id: 7101, first_name: 'Eve' }, voice: { ...voice, duration: 2 } });
    await fake.waitFor(() => fake.visibleMessages(7101).length > 0, {
      timeoutMs: 45_000,
      what: 'a reply to the voice message',
    });
    // The gateway's own refusal, before any download or upload: it knew the setting.
    expect(fake.visibleMessages(7101).map((m) => m.text)).toEqual([
      "This chatbot doesn't accept voice messages. Please type your question instead.",
    ]);
  }, 60_000);
});
