import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SERIAL_NUMBER } from '../../../src/service/index.js';
import { media } from './media-fixtures.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let sessionID: number;

beforeAll(async () => {
  // Small limits stand in for 20/100/40 MB, so the size rules are tested without huge uploads.
  service = await startTestService({
    memory: true,
    limits: { imageBytes: 200, videoBytes: 300, audioBytes: 100, uploadBytes: 1000 },
  });
  sessionID = await service.newSession(await service.newChatbot({ MessageLimit: 1, EnablePushToTalk: true }));
});
afterAll(() => service.close());

const ask = (chatAskType: string, fileIds: number[], content = '') =>
  service.call<{ content: string; noAnswer: boolean }>('/chat/Chat/ClientAsk', {
    sessionID,
    content,
    chatAskType,
    fileIds,
  });

describe('ClientAsk media formats, judged by content, not by name', () => {
  it.each([
    ['Image', 'png'],
    ['Image', 'jpeg'],
    ['Image', 'webp'],
    ['Image', 'stillGif'],
    ['Video', 'mp4'],
    ['Video', 'mkv'],
    ['Video', 'avi'],
    ['Video', 'flv'],
    ['Video', 'mpeg'],
    ['Audio', 'wav'],
  ] as const)('passes the format checks for %s %s', async (askType, format) => {
    const fileId = await service.upload(media[format](), 'misleading-name.txt');
    const reply = await ask(askType, [fileId]);
    // The chatbot's MessageLimit is 1 and used up by the first success: a 429 proves every
    // format check passed, and the tests need not depend on each other's order.
    expect([200, 429]).toContain(reply.status);
  });

  it.each([
    ['Audio', 'mp4', 'File {id} ("clip.wav") is MP4; chatAskType Audio accepts WAV.'],
    ['Video', 'wav', 'File {id} ("clip.wav") is WAV; chatAskType Video accepts MP4, MKV, AVI, FLV or MPEG.'],
    [
      'Image',
      'text',
      'File {id} ("clip.wav") is an unrecognised format; chatAskType Image accepts PNG, JPEG, WEBP or non-animated GIF.',
    ],
    ['Image', 'animatedGif', 'File {id} ("clip.wav") is an animated GIF; only still images are accepted.'],
  ] as const)('refuses %s with a %s file: 415', async (askType, format, message) => {
    const fileId = await service.upload(media[format](), 'clip.wav');
    const reply = await ask(askType, [fileId]);
    expect(reply.status).toBe(415);
    expect(reply.body).toMatchObject({ Success: false, Code: 415, Message: message.replace('{id}', String(fileId)) });
  });

  it.each([
    ['Image', 201, 'is 201 bytes; the limit for image files is 200 bytes.'],
    ['Video', 301, 'is 301 bytes; the limit for video files is 300 bytes.'],
    ['Audio', 101, 'is 101 bytes; the limit for audio files is 100 bytes.'],
  ] as const)('refuses a %s file over its size limit: 413', async (askType, size, text) => {
    const header = askType === 'Image' ? media.png() : askType === 'Video' ? media.mp4() : media.wav();
    const fileId = await service.upload(Buffer.concat([header, Buffer.alloc(size - header.length)]));
    const reply = await ask(askType, [fileId]);
    expect(reply.status).toBe(413);
    expect(reply.body.Message).toContain(text);
  });

  it('refuses an unknown file id with 404 and a file without bytes with 400', async () => {
    expect((await ask('Image', [987654])).body).toMatchObject({
      Code: 404,
      Message:
        'No uploaded file has the id 987654 (it may have expired); upload it again with /chat/User/GetPreUploadUrl.',
    });
    const pre = await service.call<{ FileStoreId: string }>('/chat/User/GetPreUploadUrl', { fileName: 'later.png' });
    const pending = await ask('Image', [Number(pre.body.Data!.FileStoreId)]);
    expect(pending.body).toMatchObject({
      Code: 400,
      Message: `File ${pre.body.Data!.FileStoreId} has no bytes yet: PUT them to its PreUploadUrl before asking.`,
    });
  });

  it('refuses the same file twice in one ask', async () => {
    const fileId = await service.upload(media.png());
    expect((await ask('Image', [fileId, fileId])).body).toMatchObject({
      Code: 400,
      Message: 'fileIds must not repeat a file id.',
    });
  });
});

/** A silent 16 kHz mono 16-bit WAV of `seconds`, as the gateway sends a voice message. */
function silentWav(seconds: number): Buffer {
  const data = Math.round(seconds * 16_000) * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/media', name));

describe("the chatbot's media switches", () => {
  it.each([
    [
      'Image',
      'png',
      { EnableUploadImage: false },
      'This chatbot does not accept images (its EnableUploadImage setting is off).',
    ],
    [
      'Video',
      'mp4',
      { EnableUploadImage: false },
      'This chatbot does not accept videos (its EnableUploadImage setting is off).',
    ],
    ['Audio', 'wav', {}, 'This chatbot does not accept voice messages (its EnablePushToTalk setting is off).'],
  ] as const)(
    'refuses %s when the chatbot has it off (defaults: images on, voice off): 403',
    async (askType, format, settings, message) => {
      const session = await service.newSession(await service.newChatbot(settings));
      const fileId = await service.upload(media[format]());
      const reply = await service.call('/chat/Chat/ClientAsk', {
        sessionID: session,
        content: '',
        chatAskType: askType,
        fileIds: [fileId],
      });
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ Success: false, Code: 403, Message: message });
    },
  );
});

describe('the builtin engine with media (memory store)', () => {
  let fresh: TestService;
  let session: number;
  beforeAll(async () => {
    fresh = await startTestService({ memory: true, seedDemo: true });
    session = await fresh.newSession(DEMO_SERIAL_NUMBER);
  });
  afterAll(() => fresh.close());

  const askWith = async (chatAskType: string, files: Buffer[], content = '') => {
    const fileIds = [];
    for (const file of files) fileIds.push(await fresh.upload(file));
    const reply = await fresh.call<{ content: string; noAnswer: boolean }>('/chat/Chat/ClientAsk', {
      sessionID: session,
      content,
      chatAskType,
      fileIds,
    });
    expect(reply.status).toBe(200);
    return reply.body.Data!;
  };

  it('says which photos it received (format, dimensions, size) and that it cannot look at them', async () => {
    const answer = await askWith('Image', [fixture('tiny.png'), fixture('tiny.jpg')]);
    expect(answer.content).toMatch(
      /^Thanks, I received your 2 photos \(PNG, 16×16 pixels, [\d.]+ (bytes|KB); JPEG, 16×16 pixels, [\d.]+ (bytes|KB)\)\. I can't look at images myself/,
    );
    expect(answer.content).not.toContain("I'm sorry");
    expect(answer.noAnswer).toBe(true);
  });

  it('says how long a voice message is, computed from the WAV header', async () => {
    const answer = await askWith('Audio', [silentWav(2.5)]);
    expect(answer.content).toMatch(/^Thanks, I received your voice message \(WAV, 2\.5 seconds, 78\.2 KB\)\./);
  });

  it('says how long a video is, from the MP4 header', async () => {
    const answer = await askWith('Video', [fixture('tiny.mp4')]);
    expect(answer.content).toMatch(/^Thanks, I received your video \(MP4, 1\.0 seconds, /);
  });

  it('says honestly when a video has no readable length', async () => {
    const answer = await askWith('Video', [media.mp4()]);
    expect(answer.content).toContain('(MP4, I could not read its length, 32 bytes)');
  });

  it('answers the caption around a photo from the listings', async () => {
    const answer = await askWith('Image', [fixture('tiny.jpg')], 'Do you have homes like this in Denver?');
    expect(answer.content).toMatch(
      new RegExp(
        String.raw`^Thanks, I received your photo \(JPEG, 16×16 pixels, [^)]+\)\. ` +
          String.raw`I can't look at images myself, so here is the answer to your words:\n\nI found 3 listings that match:`,
      ),
    );
    expect(answer.content).toContain('MLS CO-55102');
    expect(answer.noAnswer).toBe(false);
  });
});
