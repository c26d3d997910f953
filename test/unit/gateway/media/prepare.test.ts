import { describe, expect, it } from 'vitest';
import { isMediaRefusal, type MediaRefusal, type PreparedMedia } from '../../../../src/gateway/media/types.js';
import { attachment, ffmpegAvailable, fixture, readWav, preparing } from './support.js';

const MB = 1024 * 1024;

const setup = preparing;

function expectPrepared(result: PreparedMedia | MediaRefusal): PreparedMedia {
  if (isMediaRefusal(result)) throw new Error(`expected media to be prepared, got refusal: ${result.message}`);
  return result;
}

function expectRefused(result: PreparedMedia | MediaRefusal, reason: MediaRefusal['reason']): string {
  if (!isMediaRefusal(result))
    throw new Error(`expected a "${reason}" refusal, got ${result.chatAskType} with ${result.fileIds.length} files`);
  expect(result.reason).toBe(reason);
  return result.message;
}

describe('prepareAttachments: what gets through', () => {
  it('leaves a message without attachments in Text mode', async () => {
    expect(await setup().prepare([])).toEqual({ chatAskType: 'Text', fileIds: [], notes: [], unread: [] });
  });

  it('uploads a photo as-is and asks in Image mode', async () => {
    const { prepare, received } = setup();
    const result = expectPrepared(await prepare([attachment('image', fixture('tiny.jpg'))]));
    expect(result).toEqual({
      chatAskType: 'Image',
      fileIds: [101],
      notes: ['photo (image/jpeg, 765 bytes)'],
      unread: [],
    });
    expect(received).toHaveLength(1);
    expect(received[0]?.bytes).toEqual(fixture('tiny.jpg'));
    expect(received[0]).toMatchObject({ fileName: 'image-1.jpg', contentType: 'image/jpeg' });
  });

  it('sends several photos of one message as one Image ask, in order', async () => {
    const { prepare, received } = setup();
    const result = expectPrepared(
      await prepare(
        ['tiny.png', 'tiny.jpg', 'tiny.webp', 'still.gif'].map((name) => attachment('image', fixture(name))),
      ),
    );
    expect(result.chatAskType).toBe('Image');
    expect(result.fileIds).toEqual([101, 102, 103, 104]);
    expect(received.map((file) => file.contentType)).toEqual(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
  });

  it('converts a voice note to WAV and asks in Audio mode', async () => {
    const { prepare, received } = setup();
    const result = expectPrepared(
      await prepare([attachment('voice', fixture('voice-440hz-2s.ogg'), { durationSeconds: 2 })]),
    );
    expect(result).toEqual({
      chatAskType: 'Audio',
      fileIds: [101],
      notes: ['voice message (audio/ogg; codecs=opus, 4 KB, 2 s)'],
      unread: [],
    });
    expect(received[0]).toMatchObject({ fileName: 'audio-1.wav', contentType: 'audio/wav' });
    const wav = readWav(received[0]?.bytes ?? new Uint8Array());
    expect(wav).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
  });

  it('asks in Video mode for one video', async () => {
    const { prepare, received } = setup();
    const result = expectPrepared(await prepare([attachment('video', fixture('tiny.mp4'))]));
    expect(result.chatAskType).toBe('Video');
    expect(received[0]).toMatchObject({ fileName: 'video-1.mp4', contentType: 'video/mp4' });
  });

  it('decides the type from the bytes, not from the declared MIME type', async () => {
    const { prepare, received } = setup();
    const result = expectPrepared(
      await prepare([attachment('image', fixture('tiny.png'), { mimeType: 'image/jpeg' })]),
    );
    expect(result.notes).toEqual(['photo (image/png, 189 bytes)']);
    expect(received[0]).toMatchObject({ fileName: 'image-1.png', contentType: 'image/png' });
  });

  it('accepts an image sent as a document', async () => {
    const { prepare } = setup();
    const result = expectPrepared(
      await prepare([attachment('document', fixture('tiny.jpg'), { mimeType: 'application/octet-stream' })]),
    );
    expect(result).toMatchObject({ chatAskType: 'Image', notes: ['image (image/jpeg, 765 bytes)'] });
  });

  it.skipIf(!ffmpegAvailable)('treats an audio-only MP4 sent as a voice clip as audio (needs ffmpeg)', async () => {
    const { prepare, received } = setup();
    const result = expectPrepared(await prepare([attachment('voice', fixture('audio-only-clip.mp4'))]));
    expect(result.chatAskType).toBe('Audio');
    expect(readWav(received[0]?.bytes ?? new Uint8Array()).sampleRate).toBe(16_000);
  });

  it('fetches with the smaller of the service limit and the platform download limit', async () => {
    const photo = attachment('image', fixture('tiny.jpg'));
    await setup({ capabilities: { maxDownloadBytes: 5 * MB } }).prepare([photo]);
    const video = attachment('video', fixture('tiny.mp4'));
    await setup().prepare([video]);
    expect(photo.fetchCalls).toEqual([5 * MB]);
    expect(video.fetchCalls).toEqual([100 * MB]);
  });
});

describe('prepareAttachments: settings', () => {
  it('refuses photos when EnableUploadImage is off, without downloading them', async () => {
    const { prepare, received } = setup({ settings: { EnableUploadImage: false, EnablePushToTalk: true } });
    const photo = attachment('image', fixture('tiny.jpg'));
    expect(expectRefused(await prepare([photo]), 'disabled')).toBe(
      "This chatbot doesn't accept photos. Please describe what you need in text.",
    );
    expect(photo.fetchCalls).toEqual([]);
    expect(received).toEqual([]);
  });

  it('refuses voice messages when EnablePushToTalk is off, without downloading them', async () => {
    const { prepare } = setup({ settings: { EnableUploadImage: true, EnablePushToTalk: false } });
    const voice = attachment('voice', fixture('voice-440hz-2s.ogg'));
    expect(expectRefused(await prepare([voice]), 'disabled')).toBe(
      "This chatbot doesn't accept voice messages. Please type your question instead.",
    );
    expect(voice.fetchCalls).toEqual([]);
  });

  it('lets video follow EnableUploadImage, not EnablePushToTalk', async () => {
    const imagesOnly = setup({ settings: { EnableUploadImage: true, EnablePushToTalk: false } });
    expect(expectPrepared(await imagesOnly.prepare([attachment('video', fixture('tiny.mp4'))])).chatAskType).toBe(
      'Video',
    );
    const voiceOnly = setup({ settings: { EnableUploadImage: false, EnablePushToTalk: true } });
    expect(expectRefused(await voiceOnly.prepare([attachment('video', fixture('tiny.mp4'))]), 'disabled')).toMatch(
      /doesn't accept videos/,
    );
  });

  it('refuses a document that turns out to be an image when images are off', async () => {
    const { prepare } = setup({ settings: { EnableUploadImage: false, EnablePushToTalk: true } });
    expect(expectRefused(await prepare([attachment('document', fixture('tiny.png'))]), 'disabled')).toMatch(
      /doesn't accept photos/,
    );
  });

  it('refuses any document when the chatbot accepts no media at all, without downloading it', async () => {
    const { prepare } = setup({ settings: { EnableUploadImage: false, EnablePushToTalk: false } });
    const file = attachment('document', fixture('tiny.png'));
    expect(expectRefused(await prepare([file]), 'disabled')).toBe(
      "This chatbot doesn't accept files. Please type your question instead.",
    );
    expect(file.fetchCalls).toEqual([]);
  });
});
