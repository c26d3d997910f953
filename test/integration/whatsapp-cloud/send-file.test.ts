/**
 * An operator's file to a WhatsApp Cloud user (Outbound.sendFile) against the fake Cloud API:
 * uploaded to the number's media, then sent by its id as the message type that shows it, with
 * Meta's limits by type checked before anything is uploaded, and Meta's refusals as the core's kinds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PlatformError, type ConversationRef, type OutboundFile } from '../../../src/contract.js';
import { startCloudStack, type CloudStack } from './cloud-stack.js';

const USER = '4915112345678';
const conversation: ConversationRef = { bot: 'main', platform: 'whatsapp-cloud', id: USER };
const MB = 1024 * 1024;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const stacks: CloudStack[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
});

/** The adapter on the fake, and a user who wrote (their 24-hour window is open). */
async function withUser(options: Parameters<typeof startCloudStack>[0] = {}): Promise<CloudStack> {
  const stack = await startCloudStack({ ...options, adapter: { welcomeNewUsers: false, ...options.adapter } });
  stacks.push(stack);
  await stack.fake.userSends({ from: USER, text: 'Can I see the floor plan?' });
  return stack;
}

function sendFile(stack: CloudStack, file: OutboundFile) {
  return stack.adapter.outbound.sendFile!(conversation, file);
}

async function refusal(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

const uploads = (stack: CloudStack) => stack.fake.calls().filter((call) => call.path.endsWith('/media'));

describe('WhatsApp Cloud sendFile', () => {
  it('declares what it sends: files up to 100 MB, captions up to 1,024 characters', async () => {
    const { adapter } = await withUser();
    expect(adapter.capabilities.maxUploadBytes).toBe(100 * MB);
    expect(adapter.capabilities.maxCaptionLength).toBe(1024);
  });

  it('sends a photo as an image with its caption: the user gets the very bytes', async () => {
    const stack = await withUser();
    const sent = await sendFile(stack, {
      bytes: PNG,
      fileName: 'kitchen.png',
      mimeType: 'image/png',
      caption: '*The kitchen*',
    });
    const [photo] = stack.fake.visibleMessages(USER);
    expect(photo!.id).toBe(sent.id);
    expect([photo!.type, photo!.text, photo!.file?.mimeType]).toEqual(['image', '*The kitchen*', 'image/png']);
    expect(photo!.file!.bytes.equals(PNG)).toBe(true);
    expect(uploads(stack).map((call) => [call.status, call.body])).toEqual([
      [200, { file: { name: 'kitchen.png', type: 'image/png', size: PNG.length } }],
    ]);
  });

  it('sends a PDF as a document with its file name and caption', async () => {
    const stack = await withUser();
    await sendFile(stack, {
      bytes: PDF,
      fileName: 'Floor plan 12 Oak St.pdf',
      mimeType: 'application/pdf',
      caption: 'Here it is',
    });
    const [document] = stack.fake.visibleMessages(USER);
    expect(document!.type).toBe('document');
    expect(document!.media).toMatchObject({ filename: 'Floor plan 12 Oak St.pdf', caption: 'Here it is' });
    expect(document!.file).toMatchObject({ fileName: 'Floor plan 12 Oak St.pdf', mimeType: 'application/pdf' });
    expect(document!.file!.bytes.equals(PDF)).toBe(true);
  });

  it('names an Office file by its extension when the bytes read only as a zip, and sends text as a document', async () => {
    const stack = await withUser();
    await sendFile(stack, {
      bytes: Buffer.from('PK\x03\x04 docx'),
      fileName: 'lease.docx',
      mimeType: 'application/zip',
    });
    await sendFile(stack, { bytes: Buffer.from('Viewing at 10:00'), fileName: 'notes.txt' });
    expect(stack.fake.visibleMessages(USER).map((m) => [m.type, m.file?.mimeType, m.file?.fileName])).toEqual([
      ['document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'lease.docx'],
      ['document', 'text/plain', 'notes.txt'],
    ]);
  });

  it("sends an audio's caption first as text, since WhatsApp shows no caption under audio", async () => {
    const stack = await withUser();
    await sendFile(stack, {
      bytes: Buffer.from('ID3 an mp3'),
      fileName: 'message.mp3',
      mimeType: 'audio/mpeg',
      caption: 'A message from the agent',
    });
    expect(stack.fake.visibleMessages(USER).map((m) => [m.type, m.text ?? null])).toEqual([
      ['text', 'A message from the agent'],
      ['audio', null],
    ]);
  });

  it('refuses a file over 100 MB, and a photo over 5 MB, as too long, naming the limit, before uploading anything', async () => {
    const stack = await withUser();
    const huge = await refusal(
      sendFile(stack, { bytes: new Uint8Array(100 * MB + 1), fileName: 'tour.pdf', mimeType: 'application/pdf' }),
    );
    expect(huge.kind).toBe('too-long');
    expect(huge.message).toMatch(/at most 100 MB/);
    const photo = await refusal(
      sendFile(stack, { bytes: new Uint8Array(6 * MB), fileName: 'garden.jpg', mimeType: 'image/jpeg' }),
    );
    expect(photo.kind).toBe('too-long');
    expect(photo.message).toMatch(/photo of at most 5 MB/);
    expect(uploads(stack)).toEqual([]);
    expect(stack.fake.visibleMessages(USER)).toEqual([]);
  });

  it('refuses a type WhatsApp does not take as unsupported, naming the ones it takes', async () => {
    const stack = await withUser();
    const zip = await refusal(
      sendFile(stack, { bytes: Buffer.from('PK\x03\x04'), fileName: 'photos.zip', mimeType: 'application/zip' }),
    );
    expect(zip.kind).toBe('unsupported');
    expect(zip.message).toMatch(/PDF/);
    expect(uploads(stack)).toEqual([]);
  });

  it("refuses a file to a user whose 24 hours have passed as window-closed, Meta's 131047", async () => {
    let offsetMs = 0;
    const stack = await withUser({ fake: { clock: () => Date.now() + offsetMs } });
    offsetMs = 25 * 60 * 60_000;
    const closed = await refusal(
      sendFile(stack, { bytes: PDF, fileName: 'plan.pdf', mimeType: 'application/pdf', caption: 'a day later' }),
    );
    expect([closed.kind, closed.platformCode]).toEqual(['window-closed', '131047']);
    expect(closed.message).toMatch(/template/);
    expect(stack.fake.visibleMessages(USER)).toEqual([]);
  });

  it('waits out the pair rate limit for a file as for a text', async () => {
    const stack = await withUser();
    stack.fake.failNext({ code: 131056, times: 2, to: USER });
    await sendFile(stack, { bytes: PNG, fileName: 'porch.png', mimeType: 'image/png' });
    expect(stack.fake.visibleMessages(USER).map((m) => m.type)).toEqual(['image']);
  });

  it('is unauthorized when Meta refuses the token, and the adapter says so', async () => {
    const stack = await withUser();
    stack.fake.refuseToken(true);
    const refused = await refusal(sendFile(stack, { bytes: PNG, fileName: 'a.png', mimeType: 'image/png' }));
    expect([refused.kind, refused.platformCode]).toEqual(['unauthorized', '190']);
    expect(stack.adapter.status?.()).toMatchObject({ connected: false });
  });
});
