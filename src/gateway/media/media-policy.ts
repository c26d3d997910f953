/**
 * The attachment policy as pure decisions: which settings a kind of media needs,
 * its size limit, which formats and combinations the service accepts. The
 * pipeline (prepare.ts) applies them before downloading (on what the platform
 * declared) and again after sniffing (on what the bytes are).
 */
import type { ChatAskType, ChatbotSettings } from '../../upstream/api.js';
import type { AttachmentKind } from '../../contract.js';
import { ACCEPTED_IMAGE_MIMES, ACCEPTED_VIDEO_MIMES, type MediaLimits } from './limits.js';
import { userTexts, type MediaNoun, type UserTexts } from '../user-texts.js';
import type { SniffedMedia } from './sniff.js';
import type { MediaClass, MediaRefusal } from './types.js';

export type MediaSettings = Pick<ChatbotSettings, 'EnableUploadImage' | 'EnablePushToTalk'>;

export const ASK_TYPE: Record<MediaClass, ChatAskType> = { image: 'Image', audio: 'Audio', video: 'Video' };

/** What the platform's own classification promises; documents are only known once sniffed. */
export function declaredClass(kind: AttachmentKind): MediaClass | 'sticker' | undefined {
  switch (kind) {
    case 'image':
      return 'image';
    case 'voice':
    case 'audio':
      return 'audio';
    case 'video':
      return 'video';
    case 'sticker':
      return 'sticker';
    default:
      return undefined;
  }
}

/**
 * Video follows EnableUploadImage: the service has no setting of its own for
 * video, and a video is visual content like a photo (not speech, which is what
 * EnablePushToTalk is about).
 */
export function isEnabled(mediaClass: MediaClass, settings: MediaSettings): boolean {
  return mediaClass === 'audio' ? settings.EnablePushToTalk === true : settings.EnableUploadImage === true;
}

export function enabledClasses(settings: MediaSettings): MediaClass[] {
  return (['image', 'video', 'audio'] as const).filter((mediaClass) => isEnabled(mediaClass, settings));
}

export function serviceLimit(mediaClass: MediaClass, limits: MediaLimits): number {
  return mediaClass === 'image' ? limits.imageBytes : mediaClass === 'video' ? limits.videoBytes : limits.audioBytes;
}

/**
 * The class of the bytes. One exception to "the sniffed type decides": MP4 and
 * WebM carry audio-only clips too (Slack voice clips, WhatsApp audio), so a
 * file the platform sent as voice/audio in such a container is treated as audio.
 */
export function classOf(sniffed: SniffedMedia, kind: AttachmentKind): MediaClass | undefined {
  if (sniffed.category === 'other') return undefined;
  if (sniffed.category === 'video' && (kind === 'voice' || kind === 'audio')) return 'audio';
  return sniffed.category;
}

export function nounFor(mediaClass: MediaClass, kind: AttachmentKind): MediaNoun {
  if (mediaClass === 'image') return kind === 'image' ? 'photo' : 'image';
  if (mediaClass === 'audio') return kind === 'voice' ? 'voice message' : 'audio file';
  return 'video';
}

/** One message = one ClientAsk mode: several images, or exactly one video, or exactly one audio. */
export function checkCombination(
  classes: MediaClass[],
  limits: MediaLimits,
  texts: UserTexts['media'] = userTexts.media,
): MediaRefusal | undefined {
  const distinct = new Set(classes);
  if (distinct.size > 1) return { reason: 'mixed', message: texts.mixed };
  const [only] = distinct;
  if (only === undefined) return undefined;
  const max = only === 'image' ? limits.imagesPerMessage : 1;
  if (classes.length > max) {
    const message = only === 'image' ? texts.tooMany.image(limits.imagesPerMessage) : texts.tooMany[only];
    return { reason: 'too-many', message };
  }
  return undefined;
}

/** Formats the service accepts, per mode (spec ClientAsk fileIds rules). Audio is converted instead. */
export function checkFormat(
  sniffed: SniffedMedia,
  mediaClass: MediaClass,
  texts: UserTexts['media'] = userTexts.media,
): MediaRefusal | undefined {
  if (mediaClass === 'image') {
    if (!ACCEPTED_IMAGE_MIMES.has(sniffed.mime))
      return { reason: 'unsupported', message: texts.imageFormat(sniffed.ext) };
    if (sniffed.mime === 'image/gif' && sniffed.animated) return { reason: 'unsupported', message: texts.animatedGif };
  }
  if (mediaClass === 'video' && !ACCEPTED_VIDEO_MIMES.has(sniffed.mime)) {
    return { reason: 'unsupported', message: texts.videoFormat(sniffed.ext) };
  }
  return undefined;
}
