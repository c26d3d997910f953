/**
 * Errors of the media path. Adapters throw the two `Attachment*` errors from
 * `InboundAttachment.fetch`; the core turns every one of these into a friendly
 * `MediaRefusal` (prepare.ts), so none of them ever reaches a user as text.
 */
export { AttachmentTooLargeError, AttachmentUnavailableError } from '../../contract.js';

/**
 * Audio that is not OGG/Opus or WAV needs ffmpeg, and none was found. The core
 * should tell the user to send a voice note (those are decoded without ffmpeg),
 * and the operator to install ffmpeg or set its path.
 */
export class TranscoderUnavailableError extends Error {
  constructor(
    readonly ffmpegPath: string,
    options?: { cause?: unknown },
  ) {
    super(
      `ffmpeg was not found at "${ffmpegPath}", so this audio format cannot be converted to WAV. ` +
        'Tell the user to send a voice note (OGG/Opus) or WAV instead; ' +
        'the operator can install ffmpeg (apt-get install ffmpeg) or set its path in the configuration.',
      options,
    );
    this.name = 'TranscoderUnavailableError';
  }
}

/** The bytes claim to be audio but do not decode to any sound (corrupt or not audio at all). */
export class UndecodableAudioError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UndecodableAudioError';
  }
}
