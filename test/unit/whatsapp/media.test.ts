import { describe, expect, it } from 'vitest';
import { AttachmentTooLargeError, AttachmentUnavailableError } from '../../../src/contract.js';
import { attachmentKind, mediaAttachment } from '../../../adapters/whatsapp/media.js';
import { waMessage } from './messages.js';

const bytes = (text: string) => ({ mimetype: 'image/jpeg', data: Buffer.from(text).toString('base64') });

describe('the kind of a WhatsApp file', () => {
  it.each([
    ['image', undefined, 'image'],
    ['ptt', 'audio/ogg; codecs=opus', 'voice'],
    ['audio', 'audio/mpeg', 'audio'],
    ['video', 'video/mp4', 'video'],
    ['sticker', 'image/webp', 'sticker'],
    ['document', 'image/png', 'image'],
    ['document', 'video/mp4', 'video'],
    ['document', 'application/pdf', 'document'],
    ['document', undefined, 'document'],
  ] as const)('%s (%s) is %s', (type, mime, kind) => {
    expect(attachmentKind(type, mime)).toBe(kind);
  });
});

describe('fetching a WhatsApp file', () => {
  it('downloads and decodes the bytes', async () => {
    const message = waMessage({ type: 'image', hasMedia: true, media: bytes('a small photo'), rawData: { size: 13 } });
    const fetched = await mediaAttachment(message).fetch({ maxBytes: 1000 });
    expect(Buffer.from(fetched).toString()).toBe('a small photo');
  });

  it('refuses a file whose announced size is over the cap without downloading it', async () => {
    const message = waMessage({ type: 'video', hasMedia: true, rawData: { size: 50_000_000 } });
    const attempt = mediaAttachment(message).fetch({ maxBytes: 20_000_000 });
    await expect(attempt).rejects.toBeInstanceOf(AttachmentTooLargeError);
    await expect(attempt).rejects.toMatchObject({ actualBytes: 50_000_000 });
    expect(message.downloads).toBe(0);
  });

  it('refuses a download that turns out larger than the cap (no size announced)', async () => {
    const message = waMessage({ type: 'document', hasMedia: true, media: bytes('x'.repeat(5000)), rawData: {} });
    await expect(mediaAttachment(message).fetch({ maxBytes: 100 })).rejects.toBeInstanceOf(AttachmentTooLargeError);
  });

  it('says the file is gone when WhatsApp no longer has it (downloadMedia answers null)', async () => {
    const message = waMessage({ type: 'image', hasMedia: true, media: null, rawData: { size: 10 } });
    await expect(mediaAttachment(message).fetch({ maxBytes: 1000 })).rejects.toThrow(AttachmentUnavailableError);
    await expect(mediaAttachment(message).fetch({ maxBytes: 1000 })).rejects.toThrow(/no longer has this file/);
  });

  it('says the download failed when downloadMedia answers nothing', async () => {
    const message = waMessage({ type: 'image', hasMedia: true, media: undefined, rawData: { size: 10 } });
    await expect(mediaAttachment(message).fetch({ maxBytes: 1000 })).rejects.toThrow(/could not download/);
  });

  it("carries the message's id as its ref: WhatsApp Web finds the message again by it", () => {
    const message = waMessage({ type: 'image', hasMedia: true, rawData: { size: 10 } });
    expect(mediaAttachment(message).ref).toBe(message.id._serialized);
  });
});
