/**
 * The errors an adapter's attachment `fetch` throws (too large for the cap, or unavailable and why), and
 * the capped reader it fetches with.
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
 * Why the platform cannot give us a file, in the terms the user is told:
 *
 *   'gone'       the platform no longer has it (expired, deleted, a media id it forgot)
 *   'too-large'  the platform will not hand a bot a file this big (Telegram's 20 MB getFile limit)
 *   'failed'     anything else (refused, a process that cannot reach it): "could not download"
 */
export type UnavailableReason = 'gone' | 'too-large' | 'failed';

/**
 * The platform cannot give us the bytes (expired link, Telegram's 20 MB getFile
 * limit, a media message WhatsApp no longer has). Not retryable by the core; the
 * message is answered without the file, and `reason` says why to the user.
 */
export class AttachmentUnavailableError extends Error {
  readonly reason: UnavailableReason;

  constructor(message: string, options?: { cause?: unknown; reason?: UnavailableReason }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AttachmentUnavailableError';
    this.reason = options?.reason ?? 'failed';
  }
}

/**
 * Reads a byte stream into memory, refusing to hold more than `maxBytes`: it
 * throws AttachmentTooLargeError before reading when the declared size is already
 * over the cap, and as soon as the bytes read pass it (leaving the loop closes the
 * stream, so the rest is never downloaded). For adapters' `fetch` implementations.
 */
export async function readCapped(
  stream: AsyncIterable<Uint8Array>,
  maxBytes: number,
  declaredSize?: number,
): Promise<Uint8Array> {
  if (declaredSize !== undefined && declaredSize > maxBytes) throw new AttachmentTooLargeError(maxBytes, declaredSize);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > maxBytes) throw new AttachmentTooLargeError(maxBytes, total);
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
