import { describe, expect, it } from 'vitest';
import type { InboundAttachment } from '../../../../src/contract.js';
import { AttachmentUnavailableError } from '../../../../src/gateway/media/errors.js';
import { isMediaRefusal, type MediaRefusal, type PreparedMedia } from '../../../../src/gateway/media/types.js';
import { attachment, fixture, preparing } from './support.js';

const MB = 1024 * 1024;

const setup = preparing;

function expectRefused(result: PreparedMedia | MediaRefusal, reason: MediaRefusal['reason']): string {
  if (!isMediaRefusal(result))
    throw new Error(`expected a "${reason}" refusal, got ${result.chatAskType} with ${result.fileIds.length} files`);
  expect(result.reason).toBe(reason);
  return result.message;
}

describe('refusals: size, checked on the declared size before downloading', () => {
  it.each([
    ['image', Math.round(23.4 * MB), 'This photo is 23.4 MB; the limit is 20 MB per image.'],
    ['video', 130 * MB, 'This video is 130 MB; the limit is 100 MB per video.'],
    ['voice', 45 * MB, 'This voice message is 45 MB; the limit is 40 MB per audio message.'],
    ['audio', 41 * MB, 'This audio file is 41 MB; the limit is 40 MB per audio message.'],
  ] as const)('a %s of %i bytes', async (kind, size, message) => {
    const { prepare } = setup();
    const big = attachment(kind, fixture('tiny.jpg'), { size });
    expect(expectRefused(await prepare([big]), 'too-large')).toBe(message);
    expect(big.fetchCalls).toEqual([]);
  });

  it('names the platform download limit when it is below the service limit', async () => {
    const { prepare } = setup({ capabilities: { maxDownloadBytes: 20 * MB } });
    const video = attachment('video', fixture('tiny.mp4'), { size: 60 * MB });
    expect(expectRefused(await prepare([video]), 'too-large')).toBe(
      'This video is 60 MB; on this platform I can only download files up to 20 MB. Please send a smaller one.',
    );
    expect(video.fetchCalls).toEqual([]);
  });

  it('names the largest accepted size for a document of unknown type', async () => {
    const { prepare } = setup();
    const file = attachment('document', fixture('tiny.jpg'), { size: 150 * MB });
    expect(expectRefused(await prepare([file]), 'too-large')).toBe(
      'This file is 150 MB; the largest file I can take is 100 MB.',
    );
  });
});

describe('refusals: size, enforced while downloading', () => {
  it('stops a file that was declared small but turns out larger than the limit', async () => {
    const { prepare, received } = setup({ limits: { imageBytes: 2000 } });
    const padded = new Uint8Array(50_000);
    padded.set(fixture('tiny.jpg'));
    const liar = attachment('image', padded, { size: 700 });
    expect(expectRefused(await prepare([liar]), 'too-large')).toBe(
      'This photo is larger than the limit of 2 KB per image. Please send a smaller one.',
    );
    expect(liar.fetchCalls).toEqual([2000]);
    expect(received).toEqual([]);
  });

  it('stops a file of unknown size at the limit', async () => {
    const { prepare } = setup({ limits: { videoBytes: 4096 } });
    const video = attachment('video', fixture('tiny.mp4'), { size: undefined });
    expect(expectRefused(await prepare([video]), 'too-large')).toBe(
      'This video is larger than the limit of 4 KB per video. Please send a smaller one.',
    );
  });

  it('refuses bytes over the limit even from an adapter that ignores maxBytes', async () => {
    const { prepare, received } = setup({ limits: { imageBytes: 500 } });
    const careless: InboundAttachment = { kind: 'image', size: 100, fetch: async () => fixture('tiny.jpg') };
    expect(expectRefused(await prepare([careless]), 'too-large')).toBe(
      'This photo is 765 bytes; the limit is 500 bytes per image.',
    );
    expect(received).toEqual([]);
  });

  it('refuses audio that would convert to more WAV than the audio limit', async () => {
    const { prepare, received } = setup({ limits: { audioBytes: 32_000 } }); // one second of 16 kHz WAV
    const voice = attachment('voice', fixture('voice-440hz-2s.ogg'));
    expect(expectRefused(await prepare([voice]), 'too-large')).toMatch(/^This voice message is too long/);
    expect(received).toEqual([]);
  });
});

describe('refusals: combinations', () => {
  it('refuses a photo and a video together, before downloading either', async () => {
    const { prepare } = setup();
    const photo = attachment('image', fixture('tiny.jpg'));
    const video = attachment('video', fixture('tiny.mp4'));
    expect(expectRefused(await prepare([photo, video]), 'mixed')).toBe(
      'Please send photos, a video and a voice message in separate messages; I can take only one kind at a time.',
    );
    expect([...photo.fetchCalls, ...video.fetchCalls]).toEqual([]);
  });

  it('refuses a mix that only shows once the documents are sniffed, uploading nothing', async () => {
    const { prepare, received } = setup();
    const result = await prepare([
      attachment('document', fixture('tiny.jpg')),
      attachment('document', fixture('voice-440hz-2s.ogg')),
    ]);
    expect(expectRefused(result, 'mixed')).toMatch(/separate messages/);
    expect(received).toEqual([]);
  });

  it.each([
    ['video', 'tiny.mp4', 'Please send one video at a time.'],
    ['voice', 'voice-440hz-2s.ogg', 'Please send one voice message at a time.'],
  ] as const)('refuses two of a %s', async (kind, name, message) => {
    const { prepare } = setup();
    expect(
      expectRefused(await prepare([attachment(kind, fixture(name)), attachment(kind, fixture(name))]), 'too-many'),
    ).toBe(message);
  });

  it('refuses more than 10 photos in one message', async () => {
    const { prepare } = setup();
    const photos = Array.from({ length: 11 }, () => attachment('image', fixture('tiny.jpg')));
    expect(expectRefused(await prepare(photos), 'too-many')).toBe('Please send at most 10 photos in one message.');
  });
});

describe('refusals: formats', () => {
  it('refuses a sticker without downloading it', async () => {
    const { prepare } = setup();
    const sticker = attachment('sticker', fixture('tiny.webp'));
    expect(expectRefused(await prepare([sticker]), 'unsupported')).toBe(
      "I can't read stickers. Please send a photo or type your question.",
    );
    expect(sticker.fetchCalls).toEqual([]);
  });

  it('refuses a document that is not an image, video or audio, saying what is accepted', async () => {
    const { prepare } = setup({ settings: { EnableUploadImage: true, EnablePushToTalk: false } });
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    expect(expectRefused(await prepare([attachment('document', pdf)]), 'unsupported')).toBe(
      "I can't read this kind of file (PDF). I can take photos and videos.",
    );
  });

  it('refuses an animated GIF', async () => {
    const { prepare } = setup();
    expect(expectRefused(await prepare([attachment('image', fixture('animated.gif'))]), 'unsupported')).toMatch(
      /^Animated GIFs aren't supported/,
    );
  });

  it('refuses a video container the service does not take', async () => {
    const { prepare } = setup();
    expect(expectRefused(await prepare([attachment('video', fixture('tiny.mov'))]), 'unsupported')).toBe(
      'I can read MP4, MKV, AVI, FLV and MPEG videos, but this one is MOV. Please convert it to MP4 and send it again.',
    );
  });

  it('refuses a voice note that contains no sound', async () => {
    const { prepare } = setup();
    const headersOnly = fixture('voice-440hz-2s.ogg').subarray(0, 137); // OpusHead + OpusTags pages, no audio
    expect(expectRefused(await prepare([attachment('voice', headersOnly)]), 'unsupported')).toBe(
      "I couldn't play this voice message; it seems to be damaged. Please record or send it again.",
    );
  });

  it('says to send a voice note when audio needs ffmpeg and there is none', async () => {
    const { prepare, received } = setup({ ffmpegPath: '/nonexistent/ffmpeg' });
    expect(
      expectRefused(await prepare([attachment('audio', fixture('tone-440hz-1s.mp3'))]), 'transcoder-missing'),
    ).toBe("I can't convert MP3 audio here. Please record a voice message instead, or send the audio as WAV.");
    expect(received).toEqual([]);
  });
});

describe('refusals: downloads', () => {
  it('says the file could not be downloaded when the platform will not give it, with no reason to blame', async () => {
    const { prepare } = setup();
    const refused: InboundAttachment = {
      kind: 'image',
      fetch: async () => {
        throw new AttachmentUnavailableError('Slack answered its sign-in page');
      },
    };
    expect(expectRefused(await prepare([refused]), 'unavailable')).toBe(
      "I couldn't download this photo from the chat. Please send it again.",
    );
  });

  it('says the file is gone when the platform no longer has it (never "send a smaller one")', async () => {
    const { prepare } = setup();
    const gone: InboundAttachment = {
      kind: 'image',
      fetch: async () => {
        throw new AttachmentUnavailableError('media id unknown', { reason: 'gone' });
      },
    };
    expect(expectRefused(await prepare([gone]), 'unavailable')).toBe(
      "I couldn't read this photo: the chat no longer has its file (it expired or was deleted). Please send it again.",
    );
  });

  it("says the file is too large for the platform when the platform refuses one that size (Telegram's getFile)", async () => {
    const { prepare } = setup();
    const big: InboundAttachment = {
      kind: 'image',
      fetch: async () => {
        throw new AttachmentUnavailableError('Telegram getFile: file is too big', { reason: 'too-large' });
      },
    };
    expect(expectRefused(await prepare([big]), 'too-large')).toMatch(
      /^This photo is too large; on this platform I can only download files up to /,
    );
  });

  it('leaves out a photo that is gone and sends the others, saying which was left out', async () => {
    const { prepare } = setup();
    const gone: InboundAttachment = {
      kind: 'image',
      fetch: async () => {
        throw new AttachmentUnavailableError('media id unknown', { reason: 'gone' });
      },
    };
    const result = await prepare([gone, attachment('image', fixture('tiny.jpg'))]);
    expect(isMediaRefusal(result)).toBe(false);
    const prepared = result as PreparedMedia;
    expect(prepared.fileIds).toHaveLength(1);
    expect(prepared.unread.map((refusal) => refusal.message)).toEqual([
      "I couldn't read this photo: the chat no longer has its file (it expired or was deleted). Please send it again.",
    ]);
  });

  it('lets an upload failure through to the caller, which replies that the service is down', async () => {
    const { prepare } = setup({
      upload: async () => {
        throw new Error('upstream 503');
      },
    });
    await expect(prepare([attachment('image', fixture('tiny.jpg'))])).rejects.toThrow('upstream 503');
  });
});
