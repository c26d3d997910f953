/**
 * The smallest byte sequences that content sniffing (file-type) recognises as
 * each format, so tests can upload "a WAV" or "an animated GIF" without binary
 * fixture files. They are headers, not playable media.
 */
const ascii = (text: string): number[] => [...Buffer.from(text, 'latin1')];
const u32le = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
const u32be = (n: number): number[] => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];

function riff(form: string, chunk: string): Buffer {
  const body = [...ascii(form), ...ascii(chunk), ...u32le(16), ...new Array<number>(16).fill(0)];
  return Buffer.from([...ascii('RIFF'), ...u32le(body.length), ...body]);
}

function gif(frames: number): Buffer {
  const header = [...ascii('GIF89a'), 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff];
  const frame = [0x21, 0xf9, 4, 0, 10, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0];
  return Buffer.from([...header, ...Array.from({ length: frames }, () => frame).flat(), 0x3b]);
}

export const media = {
  png: () =>
    Buffer.from([
      0x89,
      ...ascii('PNG\r\n\x1a\n'),
      ...u32be(13),
      ...ascii('IHDR'),
      ...u32be(1),
      ...u32be(1),
      8,
      6,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      ...u32be(0),
      ...ascii('IEND'),
      0xae,
      0x42,
      0x60,
      0x82,
    ]),
  jpeg: () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]),
  webp: () => riff('WEBP', 'VP8 '),
  stillGif: () => gif(1),
  animatedGif: () => gif(3),
  wav: () => riff('WAVE', 'fmt '),
  avi: () => riff('AVI ', 'LIST'),
  mp4: () =>
    Buffer.from([
      ...u32be(24),
      ...ascii('ftypisom'),
      ...u32be(512),
      ...ascii('isomiso2'),
      ...u32be(8),
      ...ascii('free'),
    ]),
  mkv: () => Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x8b, 0x42, 0x82, 0x88, ...ascii('matroska'), 0x42, 0x87, 0x81, 4]),
  flv: () => Buffer.from([...ascii('FLV'), 1, 5, 0, 0, 0, 9, 0, 0, 0, 0]),
  mpeg: () => Buffer.from([0, 0, 1, 0xba, 0x44, 0, 4, 0, 4, 1, 1, 0x89, 0xc3, 0xf8]),
  text: () => Buffer.from('just some words, not a media file\n'),
};
