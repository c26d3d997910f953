import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from './media-fixtures.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let sessionID: number;

beforeAll(async () => {
  // Small limits stand in for 20/100/40 MB, so the size rules are tested without huge uploads.
  service = await startTestService({ memory: true, limits: { imageBytes: 200, videoBytes: 300, audioBytes: 100, uploadBytes: 1000 } });
  sessionID = await service.newSession(await service.newChatbot({ MessageLimit: 1 }));
});
afterAll(() => service.close());

const ask = (chatAskType: string, fileIds: number[], content = '') =>
  service.call<{ content: string; noAnswer: boolean }>('/chat/Chat/ClientAsk', { sessionID, content, chatAskType, fileIds });

describe('ClientAsk media formats, judged by content, not by name', () => {
  it.each([
    ['Image', 'png'], ['Image', 'jpeg'], ['Image', 'webp'], ['Image', 'stillGif'],
    ['Video', 'mp4'], ['Video', 'mkv'], ['Video', 'avi'], ['Video', 'flv'], ['Video', 'mpeg'],
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
    ['Image', 'text', 'File {id} ("clip.wav") is an unrecognised format; chatAskType Image accepts PNG, JPEG, WEBP or non-animated GIF.'],
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
    expect((await ask('Image', [987654])).body).toMatchObject({ Code: 404, Message: 'No uploaded file has the id 987654 (it may have expired); upload it again with /chat/User/GetPreUploadUrl.' });
    const pre = await service.call<{ FileStoreId: string }>('/chat/User/GetPreUploadUrl', { fileName: 'later.png' });
    const pending = await ask('Image', [Number(pre.body.Data!.FileStoreId)]);
    expect(pending.body).toMatchObject({ Code: 400, Message: `File ${pre.body.Data!.FileStoreId} has no bytes yet: PUT them to its PreUploadUrl before asking.` });
  });

  it('refuses the same file twice in one ask', async () => {
    const fileId = await service.upload(media.png());
    expect((await ask('Image', [fileId, fileId])).body).toMatchObject({ Code: 400, Message: 'fileIds must not repeat a file id.' });
  });
});

describe('the builtin engine with media (memory store)', () => {
  it('accepts an image with empty content, and says honestly that it cannot look at it', async () => {
    const fresh = await startTestService({ memory: true });
    try {
      const session = await fresh.newSession(await fresh.newChatbot());
      const fileIds = [await fresh.upload(media.png()), await fresh.upload(media.jpeg())];
      const reply = await fresh.call<{ content: string; noAnswer: boolean }>('/chat/Chat/ClientAsk', { sessionID: session, content: '', chatAskType: 'Image', fileIds });
      expect(reply.status).toBe(200);
      expect(reply.body.Data).toMatchObject({ noAnswer: true, content: "Thanks for the file. I can't look at files myself; please describe what you are looking for in words." });
    } finally {
      await fresh.close();
    }
  });
});
