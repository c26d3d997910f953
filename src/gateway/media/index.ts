/** Media handling of the gateway core: policy → capped download → sniff → WAV → upload. */
export {
  AttachmentTooLargeError,
  AttachmentUnavailableError,
  TranscoderUnavailableError,
  UndecodableAudioError,
} from './errors.js';
export {
  ACCEPTED_IMAGE_MIMES,
  ACCEPTED_VIDEO_MIMES,
  MEDIA_LIMITS,
  WAV_SAMPLE_RATE,
  type MediaLimits,
} from './limits.js';
export { formatBytes } from '../user-texts.js';
export type { MediaSettings } from './media-policy.js';
export { prepareAttachments, type PrepareContext } from './prepare.js';
export { readCapped } from '../../contract.js';
export { countGifFrames, sniffMedia, type MediaCategory, type SniffedMedia } from './sniff.js';
export { toWav, type ToWavOptions } from './transcode.js';
export {
  isMediaRefusal,
  isUnreadFile,
  type MediaClass,
  type MediaRefusal,
  type PreparedMedia,
  type RefusalReason,
} from './types.js';
export { encodeWav } from './wav.js';
export { serviceMediaRefusal } from './service-refusal.js';
