import { describe, expect, it } from 'vitest';
import { countGifFrames, sniffMedia } from '../../../../src/gateway/media/sniff.js';
import { fixture } from './support.js';

describe('sniffMedia decides the type from the bytes', () => {
  it.each([
    ['tiny.png', 'image/png', 'png', 'image'],
    ['tiny.jpg', 'image/jpeg', 'jpg', 'image'],
    ['tiny.webp', 'image/webp', 'webp', 'image'],
    ['still.gif', 'image/gif', 'gif', 'image'],
    ['voice-440hz-2s.ogg', 'audio/ogg; codecs=opus', 'opus', 'audio'],
    ['tone-440hz-1s.mp3', 'audio/mpeg', 'mp3', 'audio'],
    ['tone-440hz-1s.m4a', 'audio/x-m4a', 'm4a', 'audio'],
    ['tiny.mp4', 'video/mp4', 'mp4', 'video'],
    ['tiny.mov', 'video/quicktime', 'mov', 'video'],
  ])('%s is %s (%s, %s)', async (name, mime, ext, category) => {
    expect(await sniffMedia(fixture(name))).toMatchObject({ mime, ext, category });
  });

  it('tells an animated GIF from a still one', async () => {
    expect((await sniffMedia(fixture('animated.gif'))).animated).toBe(true);
    expect((await sniffMedia(fixture('still.gif'))).animated).toBe(false);
  });

  it('counts every frame of an animated GIF by walking its blocks', () => {
    expect(countGifFrames(fixture('animated.gif'))).toBe(3);
    expect(countGifFrames(fixture('still.gif'))).toBe(1);
  });

  it('reports a still WEBP as not animated', async () => {
    expect((await sniffMedia(fixture('tiny.webp'))).animated).toBe(false);
  });

  it('calls bytes it does not recognise "other", whatever they claim to be', async () => {
    const text = new TextEncoder().encode('this is a plain text file named photo.jpg');
    expect(await sniffMedia(text)).toEqual({ mime: 'application/octet-stream', ext: 'bin', category: 'other' });
  });

  it('calls a PDF "other"', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    expect(await sniffMedia(pdf)).toMatchObject({ mime: 'application/pdf', category: 'other' });
  });
});
