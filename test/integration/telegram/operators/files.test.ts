import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationRef } from '../../../../src/contract.js';
import { CARD, FORUM, startSharedDoor, type SharedDoorStack } from './door-stack.js';

const MB = 1024 * 1024;
const PNG = (size: number): Uint8Array => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
};
const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]);

let stack: SharedDoorStack | undefined;

afterEach(async () => {
  await stack?.stop();
  stack = undefined;
});

describe("Telegram operator door: a user's files in the topic", () => {
  it('posts an image as a photo with the text as its caption, and a PDF as a document', async () => {
    stack = await startSharedDoor();
    const thread = await stack.door.open(CARD);
    await stack.door.post(thread, {
      markdown: 'the **kitchen**',
      files: [{ bytes: PNG(64), fileName: 'kitchen.png', mimeType: 'image/png' }],
    });
    await stack.door.post(thread, {
      markdown: '',
      files: [{ bytes: PDF, fileName: 'lease.pdf', mimeType: 'application/pdf' }],
    });
    const posted = stack.fake.visibleMessages(FORUM).filter((m) => m.sentWith !== 'sendMessage');
    expect(posted.map((m) => [m.sentWith, m.text])).toEqual([
      ['sendPhoto', 'the kitchen'],
      ['sendDocument', ''],
    ]);
    const inTopic = stack.fake.topicMessages(FORUM, Number(thread.id));
    expect(inTopic.some((m) => m.photo !== undefined)).toBe(true);
    expect(inTopic.some((m) => m.document !== undefined)).toBe(true);
  });

  it('sends the text first when several files come with it, and an image over 10 MB as a document', async () => {
    stack = await startSharedDoor();
    const thread = await stack.door.open(CARD);
    await stack.door.post(thread, {
      markdown: 'two plans',
      files: [
        { bytes: PNG(11 * MB), fileName: 'big.png', mimeType: 'image/png' },
        { bytes: PDF, fileName: 'plan.pdf', mimeType: 'application/pdf' },
      ],
    });
    const log = stack.fake
      .chatLog(FORUM)
      .filter((call) => call.ok && ['sendMessage', 'sendPhoto', 'sendDocument'].includes(call.method))
      .slice(1);
    expect(log.map((call) => [call.method, call.params.message_thread_id])).toEqual([
      ['sendMessage', Number(thread.id)],
      ['sendDocument', String(thread.id)],
      ['sendDocument', String(thread.id)],
    ]);
  });
});

describe('Telegram outbound: files to a user', () => {
  const user: ConversationRef = { bot: 'main', platform: 'telegram', id: '42' };

  it('sends an image as a photo and anything else as a document, each with its caption', async () => {
    stack = await startSharedDoor();
    const { adapter, fake } = stack;
    expect(adapter.capabilities).toMatchObject({ maxUploadBytes: 50 * MB, maxCaptionLength: 1024 });
    const photo = await adapter.outbound.sendFile!(user, {
      bytes: PNG(32),
      fileName: 'plan.png',
      mimeType: 'image/png',
      caption: 'Your <b>plan</b>',
    });
    await adapter.outbound.sendFile!(user, { bytes: PDF, fileName: 'contract.pdf', mimeType: 'application/pdf' });
    expect(fake.visibleMessages(42).map((m) => [m.sentWith, m.text])).toEqual([
      ['sendPhoto', 'Your plan'],
      ['sendDocument', ''],
    ]);
    expect(photo.id).toBe(String(fake.visibleMessages(42)[0]?.message_id));
  });

  it('sends files in a group too', async () => {
    stack = await startSharedDoor();
    const group = stack.adapter.outboundFor!({ bot: 'main', platform: 'telegram', id: '-100777' }, true);
    await group.sendFile!({ bot: 'main', platform: 'telegram', id: '-100777' }, { bytes: PDF, fileName: 'a.pdf' });
    expect(stack.fake.visibleMessages(-100777).map((m) => m.sentWith)).toEqual(['sendDocument']);
  });
});
