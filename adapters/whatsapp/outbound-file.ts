/**
 * How an operator's file goes to a WhatsApp user through WhatsApp Web, decided before anything
 * is sent: WhatsApp carries media (photos, videos) up to 16 MB and documents up to 100 MB
 * (docs/platforms.md §C.4; WhatsApp's own limits). So:
 *
 *   a JPEG or PNG photo, an MP4 video, within 16 MB   → as a photo or a video, with its caption
 *   anything else within 100 MB (a PDF, a larger photo) → as a document with its file name and caption
 *   anything over 100 MB                                → refused, 'too-long', naming 100 MB
 *
 * A document's type is the file's (or, when the bytes did not tell, its name's), so that the phone
 * opens it with the right app. Pure: outbound.ts sends.
 */
import { outboundFileType, PlatformError, type OutboundFile } from '../../src/contract.js';

const MB = 1024 * 1024;
/** WhatsApp's largest document. */
export const WHATSAPP_MAX_UPLOAD_BYTES = 100 * MB;
/** WhatsApp's largest photo, video or audio sent as media. */
export const WHATSAPP_MAX_MEDIA_BYTES = 16 * MB;
/** A caption holds at most 1,024 characters, as on the Cloud API (the same WhatsApp). */
export const WHATSAPP_MAX_CAPTION_LENGTH = 1024;

/** What WhatsApp Web shows as a photo or a video rather than a file (other images, e.g. WebP, become stickers). */
const AS_MEDIA = new Set(['image/jpeg', 'image/png', 'video/mp4']);

export interface WebFilePlan {
  mimeType: string;
  /** `sendMediaAsDocument`: shown as a file with its name, not as a photo or a video. */
  asDocument: boolean;
}

function megabytes(bytes: number): string {
  const value = bytes / MB;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MB`;
}

export function planWebFile(file: OutboundFile, method: string): WebFilePlan {
  const size = file.bytes.byteLength;
  if (size > WHATSAPP_MAX_UPLOAD_BYTES)
    throw new PlatformError(
      `WhatsApp takes files of at most ${megabytes(WHATSAPP_MAX_UPLOAD_BYTES)}; "${file.fileName}" is ${megabytes(size)}`,
      'too-long',
      undefined,
      { method, sent: `file "${file.fileName}" (${megabytes(size)})` },
    );
  const mimeType = outboundFileType(file) || 'application/octet-stream';
  return { mimeType, asDocument: !(AS_MEDIA.has(mimeType) && size <= WHATSAPP_MAX_MEDIA_BYTES) };
}
