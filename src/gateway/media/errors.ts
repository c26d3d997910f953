/**
 * Errors of the media path. Adapters throw the two `Attachment*` errors from
 * `InboundAttachment.fetch`; the core turns every one of these into a friendly
 * `MediaRefusal` (prepare.ts), so none of them ever reaches a user as text.
 */

/** The file is (or turned out to be) larger than the byte cap the caller gave. */
export class AttachmentTooLargeError extends Error {
  constructor(
    /** The cap that was exceeded (bytes). */
    readonly maxBytes: number,
    /** The size when known: declared by the platform, or the bytes read so far. */
    readonly actualBytes?: number,
    options?: { cause?: unknown },
  ) {
    super(
      `Attachment exceeds the ${maxBytes}-byte cap${actualBytes === undefined ? '' : ` (at least ${actualBytes} bytes)`}; ` +
        'refuse it or raise the limit, do not retry the download.',
      options,
    );
    this.name = 'AttachmentTooLargeError';
  }
}

/**
 * The platform cannot give us the bytes (expired link, Telegram's 20 MB getFile
 * limit, a media message WhatsApp no longer has). Not retryable by the core.
 */
export class AttachmentUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AttachmentUnavailableError';
  }
}

/**
 * Audio that is not OGG/Opus or WAV needs ffmpeg, and none was found. The core
 * should tell the user to send a voice note (those are decoded without ffmpeg),
 * and the operator to install ffmpeg or set its path.
 */
export class TranscoderUnavailableError extends Error {
  constructor(readonly ffmpegPath: string, options?: { cause?: unknown }) {
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
