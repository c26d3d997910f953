/**
 * The sentences a user reads when their media is refused. Each one says what
 * happened, names the limit, and what to send instead. Kept apart from the
 * pipeline so that wording can be reviewed (and later translated) in one place.
 */
import type { MediaCategory } from './sniff.js';

/** "512 bytes", "120 KB", "20 MB", "23.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

export type MediaNoun = 'photo' | 'image' | 'video' | 'voice message' | 'audio file';

const LIMIT_UNIT: Record<Exclude<MediaCategory, 'other'>, string> = {
  image: 'image',
  video: 'video',
  audio: 'audio message',
};

const DISABLED_NAME: Record<Exclude<MediaCategory, 'other'>, string> = {
  image: 'photos',
  video: 'videos',
  audio: 'voice messages',
};

export const say = {
  disabled(category: Exclude<MediaCategory, 'other'>): string {
    const instead =
      category === 'audio' ? 'Please type your question instead.' : 'Please describe what you need in text.';
    return `This chatbot doesn't accept ${DISABLED_NAME[category]}. ${instead}`;
  },
  nothingAccepted(): string {
    return "This chatbot doesn't accept files. Please type your question instead.";
  },
  /** Over the service's limit for the category. `size` undefined: the download passed the limit. */
  tooLarge(noun: MediaNoun, category: Exclude<MediaCategory, 'other'>, limit: number, size?: number): string {
    const limitText = `${formatBytes(limit)} per ${LIMIT_UNIT[category]}`;
    if (size === undefined) return `This ${noun} is larger than the limit of ${limitText}. Please send a smaller one.`;
    return `This ${noun} is ${formatBytes(size)}; the limit is ${limitText}.`;
  },
  /** Over what the platform lets a bot download, which is below the service's limit. */
  tooLargeToDownload(noun: MediaNoun | 'file', limit: number, size?: number): string {
    const what = size === undefined ? `This ${noun} is too large` : `This ${noun} is ${formatBytes(size)}`;
    return `${what}; on this platform I can only download files up to ${formatBytes(limit)}. Please send a smaller one.`;
  },
  /** A document whose type is not known yet, over the largest limit of what this chatbot accepts. */
  tooLargeFile(limit: number, size?: number): string {
    const what = size === undefined ? 'This file is too large' : `This file is ${formatBytes(size)}`;
    return `${what}; the largest file I can take is ${formatBytes(limit)}.`;
  },
  tooLong(noun: MediaNoun, limit: number): string {
    const minutes = Math.floor(limit / (32_000 * 60)); // 16 kHz × 2 bytes = 32 000 bytes per second of WAV
    return `This ${noun} is too long: I can take up to about ${minutes} minutes of audio. Please send a shorter one.`;
  },
  mixed(): string {
    return 'Please send photos, a video and a voice message in separate messages; I can take only one kind at a time.';
  },
  tooMany(category: Exclude<MediaCategory, 'other'>, maxImages: number): string {
    if (category === 'image') return `Please send at most ${maxImages} photos in one message.`;
    return category === 'video' ? 'Please send one video at a time.' : 'Please send one voice message at a time.';
  },
  sticker(): string {
    return "I can't read stickers. Please send a photo or type your question.";
  },
  animatedGif(): string {
    return "Animated GIFs aren't supported. Please send a still image (PNG, JPEG, WEBP or GIF).";
  },
  imageFormat(ext: string): string {
    return `I can read PNG, JPEG, WEBP and still GIF images, but this one is ${ext.toUpperCase()}. Please send it as a regular photo.`;
  },
  videoFormat(ext: string): string {
    return `I can read MP4, MKV, AVI, FLV and MPEG videos, but this one is ${ext.toUpperCase()}. Please convert it to MP4 and send it again.`;
  },
  /** A file that is not an image, video or audio. `accepted` lists what this chatbot takes. */
  notMedia(ext: string | undefined, accepted: string[]): string {
    const kind = ext ? `this kind of file (${ext.toUpperCase()})` : 'this kind of file';
    return `I can't read ${kind}. I can take ${accepted.join(', ').replace(/, ([^,]*)$/, ' and $1')}.`;
  },
  undecodableAudio(noun: MediaNoun): string {
    return `I couldn't play this ${noun}; it seems to be damaged. Please record or send it again.`;
  },
  transcoderMissing(ext: string): string {
    return `I can't convert ${ext.toUpperCase()} audio here. Please record a voice message instead, or send the audio as WAV.`;
  },
  unavailable(noun: MediaNoun | 'file'): string {
    return `I couldn't download this ${noun} from the chat. Please send it again, or send a smaller one.`;
  },
};
