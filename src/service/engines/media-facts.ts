import { imageSize } from 'image-size';
import { parseBuffer } from 'music-metadata';
import type { ChatAskType } from '../../upstream/api.js';
import type { AttachedFile } from './types.js';

/** What the builtin engine can honestly say about a file it received, without looking at its content. */
export interface MediaFacts {
  kind: 'photo' | 'voice' | 'video';
  /** The format sniffed from the bytes at upload ("JPEG", "WAV", "MP4" …). */
  format: string;
  bytes: number;
  width?: number;
  height?: number;
  /** Length in seconds, when the container says it. */
  seconds?: number;
}

const FORMAT_NAMES: Record<string, string> = { jpg: 'JPEG', mpg: 'MPEG' };

const KIND: Record<Exclude<ChatAskType, 'Text'>, MediaFacts['kind']> = {
  Image: 'photo',
  Audio: 'voice',
  Video: 'video',
};

/** Only headers are read, and a file the service accepted is at most its media limit, so this stays cheap. */
async function measure(
  askType: Exclude<ChatAskType, 'Text'>,
  file: AttachedFile,
): Promise<Pick<MediaFacts, 'width' | 'height' | 'seconds'>> {
  try {
    const bytes = await file.bytes();
    if (askType === 'Image') {
      const { width, height } = imageSize(bytes);
      return { width, height };
    }
    // WAV: from the fmt and data chunks; MP4/MKV/AVI: from the container's header when it has one.
    const { format } = await parseBuffer(
      bytes,
      { mimeType: file.meta.mime, size: bytes.length },
      { duration: askType === 'Audio', skipCovers: true },
    );
    return format.duration !== undefined && Number.isFinite(format.duration) ? { seconds: format.duration } : {};
  } catch {
    // A header the parsers do not understand: the answer says only what is known (format and size).
    return {};
  }
}

export async function mediaFacts(
  askType: Exclude<ChatAskType, 'Text'>,
  files: readonly AttachedFile[],
): Promise<MediaFacts[]> {
  return Promise.all(
    files.map(async (file) => ({
      kind: KIND[askType],
      format: FORMAT_NAMES[file.meta.ext ?? ''] ?? (file.meta.ext ? file.meta.ext.toUpperCase() : 'unknown format'),
      bytes: file.meta.size,
      ...(await measure(askType, file)),
    })),
  );
}
