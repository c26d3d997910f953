/**
 * A hosted chatbot (here `chatbridge service` as its own process, reached through
 * UPSTREAM_BASE_URL) whose settings chatbridge never wrote: its copy of them is
 * empty. A setting the copy does not know takes the service's documented default
 * (photos on), and when the service itself refuses the photo, the user reads its
 * reason instead of "could not answer".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import {
  SERVICE_SECRET,
  SERVICE_SESSION_KEY,
  startServiceProcess,
  type ServiceProcess,
} from '../../support/service-process.js';

const PHOTO = readFileSync(join(import.meta.dirname, '../../fixtures/media/tiny.jpg'));

describe("a hosted chatbot whose settings the gateway's copy does not know", () => {
  let fake: FakeTelegram;
  let service: ServiceProcess;
  let gateway: ChatbridgeProcess;
  let serialNumber: string;

  beforeAll(async () => {
    service = await startServiceProcess();
    const added = await service.call('/chat/Chatbot/Add', {});
    serialNumber = added.body.Data as string;
    fake = await startFakeTelegram();
    gateway = await startChatbridge({
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
      UPSTREAM_BASE_URL: service.url,
      UPSTREAM_SECRET_KEY: SERVICE_SECRET,
      UPSTREAM_SESSION_KEY: SERVICE_SESSION_KEY,
      CHATBOT_SERIAL_NUMBER: serialNumber,
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake?.close();
    await service?.cleanup();
  });

  const sendPhoto = (chat: number) => {
    const photo = fake.addFile(PHOTO, { mimeType: 'image/jpeg' });
    fake.userSends({ chat, from: { id: chat, first_name: 'Hosted' }, photo: [{ ...photo, width: 16, height: 16 }] });
  };

  it('sends a photo to the service, which accepts photos by default, and shows its answer', async () => {
    sendPhoto(6101);
    await fake.waitFor(() => fake.visibleMessages(6101).length > 0, {
      timeoutMs: 45_000,
      what: 'a reply to the photo',
    });
    await fake.waitFor(
      () => fake.visibleMessages(6101).some((m) => m.text.startsWith('Thanks, I received your photo (JPEG')),
      { timeoutMs: 45_000, what: "the service's answer" },
    );
    expect(
      fake
        .visibleMessages(6101)
        .map((m) => m.text)
        .join('\n'),
    ).not.toMatch(/doesn't accept/);
  }, 60_000);

  it("tells the user, with the service's reason, when the service refuses photos", async () => {
    // Turned off at the service directly: the gateway's copy never hears of it.
    expect((await service.call('/chat/Chatbot/Edit', { serialNumber, EnableUploadImage: false })).body.Success).toBe(
      true,
    );
    sendPhoto(6102);
    await fake.waitFor(() => fake.visibleMessages(6102).length > 0, {
      timeoutMs: 45_000,
      what: 'a reply to the photo',
    });
    expect(fake.visibleMessages(6102).map((m) => m.text)).toEqual([
      'The assistant did not accept this photo: ' +
        'This chatbot does not accept images (its EnableUploadImage setting is off). Please describe what you need in text instead.',
    ]);
  }, 60_000);
});
