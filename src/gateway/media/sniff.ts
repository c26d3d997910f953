import { fileTypeFromBuffer } from 'file-type';

export type MediaCategory = 'image' | 'audio' | 'video' | 'other';

export interface SniffedMedia {
  /** MIME type read from the bytes, e.g. "image/png"; "application/octet-stream" when unknown. */
  mime: string;
  /** File extension without dot, e.g. "png"; "bin" when unknown. */
  ext: string;
  category: MediaCategory;
  /** Set for GIF and WEBP: more than one frame. */
  animated?: boolean;
}

const UNKNOWN: SniffedMedia = { mime: 'application/octet-stream', ext: 'bin', category: 'other' };

/**
 * Decides what a file is from its bytes alone; the declared MIME type and file
 * name are never trusted (a ".jpg" can be anything).
 */
export async function sniffMedia(bytes: Uint8Array): Promise<SniffedMedia> {
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected) return { ...UNKNOWN };
  const sniffed: SniffedMedia = { mime: detected.mime, ext: detected.ext, category: categoryOf(detected.mime) };
  if (detected.mime === 'image/gif') sniffed.animated = countGifFrames(bytes, 2) > 1;
  if (detected.mime === 'image/webp') sniffed.animated = isAnimatedWebp(bytes);
  if (detected.mime === 'image/apng') sniffed.animated = true;
  return sniffed;
}

function categoryOf(mime: string): MediaCategory {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'other';
}

/**
 * Counts image descriptors in a GIF by walking its block structure (skipping
 * colour tables and data sub-blocks, which may contain the 0x2C byte anywhere).
 * Stops at `stopAt` frames; a truncated file counts the frames seen so far.
 */
export function countGifFrames(bytes: Uint8Array, stopAt = Number.POSITIVE_INFINITY): number {
  const colorTableSize = (packed: number): number => ((packed & 0x80) !== 0 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  let offset = 13 + colorTableSize(bytes[10] ?? 0); // 6-byte header + 7-byte logical screen descriptor
  let frames = 0;
  const skipSubBlocks = (): void => {
    while (offset < bytes.length) {
      const size = bytes[offset] ?? 0;
      offset += 1 + size;
      if (size === 0) return;
    }
  };
  while (offset < bytes.length && frames < stopAt) {
    const introducer = bytes[offset];
    if (introducer === 0x21) {
      offset += 2; // introducer + extension label
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      frames += 1;
      offset += 10 + colorTableSize(bytes[offset + 9] ?? 0) + 1; // descriptor, local table, LZW code size
      skipSubBlocks();
    } else {
      break; // 0x3B trailer, or bytes we do not understand
    }
  }
  return frames;
}

/** WEBP extended format ("VP8X" first chunk) carries an animation flag (bit 1 of its flags byte). */
function isAnimatedWebp(bytes: Uint8Array): boolean {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  return chunk === 'VP8X' && ((bytes[20] ?? 0) & 0x02) !== 0;
}
