/** Policy constants of the media path. All sizes are bytes (1 MB = 1024 × 1024). */

const MB = 1024 * 1024;

export interface MediaLimits {
  /** Largest image the service accepts in ClientAsk fileIds (spec: "up to 20 MB per image"). */
  imageBytes: number;
  /** Largest video the service accepts (spec: "up to 100 MB per video"). */
  videoBytes: number;
  /**
   * Largest audio file we accept, checked against the downloaded file AND the WAV
   * we produce from it. The spec names no audio limit; 40 MB is the service's
   * observed upload limit for audio, and it is also about 21 minutes of 16 kHz
   * 16-bit mono WAV, far beyond any voice note.
   */
  audioBytes: number;
  /**
   * Most images in one Image-mode ask. The spec says "several"; 10 is the largest
   * album Telegram and WhatsApp send, so a real album is never cut.
   */
  imagesPerMessage: number;
}

export const MEDIA_LIMITS: Readonly<MediaLimits> = Object.freeze({
  imageBytes: 20 * MB,
  videoBytes: 100 * MB,
  audioBytes: 40 * MB,
  imagesPerMessage: 10,
});

/** Formats the service accepts in Image mode (spec: PNG, JPEG, WEBP, non-animated GIF). */
export const ACCEPTED_IMAGE_MIMES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
]);

/**
 * Containers the service accepts in Video mode (spec: MP4, MKV, AVI, FLV, MPEG),
 * spelled as file-type reports them. M4V is MP4 with another brand.
 */
export const ACCEPTED_VIDEO_MIMES: ReadonlySet<string> = new Set([
  'video/mp4',
  'video/x-m4v',
  'video/matroska',
  'video/vnd.avi',
  'video/x-flv',
  'video/mpeg',
  'video/MP1S',
  'video/MP2P',
]);

/** Output format of `toWav`, the only audio format the service accepts. */
export const WAV_SAMPLE_RATE = 16_000;
