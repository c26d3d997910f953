/**
 * Files both ways through the operators' thread: a file an operator shares arrives as an
 * attachment fetched lazily with the app's token; a user's file the door posts is uploaded
 * into the thread (upload v2), within Slack's size limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ThreadCard } from '../../../../src/contract.js';
import { OPERATOR, OPS_CHANNEL, startDoorStack, type DoorStack } from './door-stack.js';

const CARD: ThreadCard = { title: 'Ana · WhatsApp', markdown: 'Files', actions: [] };
const PDF = new TextEncoder().encode('%PDF-1.4 the booking confirmation');

let stack: DoorStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe("files in the Slack operators' thread", () => {
  it("hands an operator's file on as an attachment whose fetch downloads its bytes with the app's token", async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake, sink, deliver } = stack;
    const thread = await door.open(CARD);
    const file = fake.addFile(PDF, { name: 'confirmation.pdf', mimetype: 'application/pdf' });
    await deliver(
      fake.humanWrites({
        channel: OPS_CHANNEL,
        thread_ts: thread.id,
        user: OPERATOR.id,
        text: 'here it is',
        files: [file],
      }),
    );
    const [message] = sink.messages;
    expect(message).toMatchObject({ text: 'here it is', operator: { name: 'Ana' } });
    expect(message!.files).toEqual([
      expect.objectContaining({
        kind: 'document',
        fileName: 'confirmation.pdf',
        mimeType: 'application/pdf',
        size: PDF.byteLength,
      }),
    ]);
    expect(fake.downloads()).toEqual([]);
    expect(await message!.files[0]!.fetch({ maxBytes: 1024 })).toEqual(PDF);
    expect(fake.downloads()).toEqual([{ fileId: file.id, authorized: true }]);
  });

  it('refuses to fetch a file over the cap the handoff sets, without downloading it', async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake, sink, deliver } = stack;
    const thread = await door.open(CARD);
    const file = fake.addFile(PDF, { name: 'big.pdf', mimetype: 'application/pdf', declaredSize: 50_000_000 });
    await deliver(
      fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: OPERATOR.id, text: '', files: [file] }),
    );
    await expect(sink.messages[0]!.files[0]!.fetch({ maxBytes: 1_000_000 })).rejects.toThrow(/too large|larger|limit/i);
    expect(fake.downloads()).toEqual([]);
  });

  it("uploads a user's files into the thread after the text", async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake } = stack;
    const thread = await door.open(CARD);
    await door.post(thread, {
      markdown: 'The user sent a file:',
      files: [{ bytes: PDF, fileName: 'booking.pdf', mimeType: 'application/pdf' }],
    });
    const replies = fake.visibleMessages(OPS_CHANNEL, thread.id);
    expect(replies.map((m) => m.sentWith)).toEqual(['chat.postMessage', 'files.completeUploadExternal']);
    expect(replies[1]!.files).toEqual([expect.objectContaining({ name: 'booking.pdf', bytes: PDF })]);
    expect(door.maxFileBytes).toBe(100 * 1024 * 1024);
  });

  it("refuses a file over Slack's upload limit with Slack's error", async () => {
    stack = await startDoorStack({ setup: 'http', fake: { maxUploadBytes: 10 } });
    const { door } = stack;
    const thread = await door.open(CARD);
    await expect(door.post(thread, { markdown: '', files: [{ bytes: PDF, fileName: 'a.pdf' }] })).rejects.toThrow(
      /file_upload_size_restricted/,
    );
  });
});
