/**
 * A WhatsApp message's file as an `InboundAttachment`: its kind from the message type
 * (a document that is an image or a video counts as one, by its MIME type), the size
 * WhatsApp Web announces before any download (`rawData.size`), and a lazy `fetch` that
 * refuses a file over the cap before calling `downloadMedia()`. WhatsApp Web keeps the
 * file only in the browser that received the message: no other process can download it
 * again, so attachments carry no `ref` (the core asks the user to send it again).
 */
import {
  AttachmentTooLargeError,
  AttachmentUnavailableError,
  type AttachmentKind,
  type InboundAttachment,
} from '../../src/contract.js';
import type { WaMessage, WaMessageType } from './library.js';

/** Message types that carry a file the adapter hands to the core. */
const MEDIA_KIND: Partial<Record<WaMessageType, AttachmentKind>> = {
  image: 'image',
  // A voice note: OGG/Opus, converted to WAV by the core as Telegram's voice messages are.
  ptt: 'voice',
  audio: 'audio',
  video: 'video',
  document: 'document',
  sticker: 'sticker',
};

/** The fields of WhatsApp Web's own record of a message (`rawData`) the adapter reads. */
export interface RawFacts {
  size?: number;
  mimetype?: string;
  filename?: string;
  notifyName?: string;
}

export function rawFacts(message: Pick<WaMessage, 'rawData'>): RawFacts {
  const raw = message.rawData as Record<string, unknown> | null | undefined;
  if (!raw || typeof raw !== 'object') return {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const size = typeof raw.size === 'number' && Number.isFinite(raw.size) && raw.size >= 0 ? raw.size : undefined;
  return {
    ...(size !== undefined ? { size } : {}),
    ...(text(raw.mimetype) ? { mimetype: text(raw.mimetype) } : {}),
    ...(text(raw.filename) ? { filename: text(raw.filename) } : {}),
    ...(text(raw.notifyName) ? { notifyName: text(raw.notifyName) } : {}),
  };
}

export function isMediaType(type: WaMessageType): boolean {
  return MEDIA_KIND[type] !== undefined;
}

/** A document is what its MIME type says when that is an image or a video (a photo sent "as document"). */
export function attachmentKind(type: WaMessageType, mimeType: string | undefined): AttachmentKind {
  const kind = MEDIA_KIND[type] ?? 'other';
  if (kind !== 'document') return kind;
  const mime = (mimeType ?? '').toLowerCase();
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

function durationOf(message: Pick<WaMessage, 'duration'>): number | undefined {
  const seconds = Number(message.duration);
  return message.duration !== undefined && message.duration !== '' && Number.isFinite(seconds) && seconds >= 0
    ? seconds
    : undefined;
}

/** The bytes of base64 text, refusing more than `maxBytes` (checked before decoding it all). */
function decodeCapped(base64: string, maxBytes: number): Uint8Array {
  // Three bytes per four characters, less the padding: the size is known before decoding.
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const size = Math.floor((base64.length * 3) / 4) - padding;
  if (size > maxBytes) throw new AttachmentTooLargeError(maxBytes, size);
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

export function mediaAttachment(message: WaMessage): InboundAttachment {
  const facts = rawFacts(message);
  const kind = attachmentKind(message.type, facts.mimetype);
  const durationSeconds = durationOf(message);
  return {
    kind,
    ...(facts.size !== undefined ? { size: facts.size } : {}),
    ...(facts.mimetype ? { mimeType: facts.mimetype } : {}),
    ...(facts.filename ? { fileName: facts.filename } : {}),
    ...(durationSeconds !== undefined ? { durationSeconds } : {}),
    async fetch({ maxBytes }) {
      // downloadMedia() brings the whole file through the browser: never start one that is too big.
      if (facts.size !== undefined && facts.size > maxBytes) throw new AttachmentTooLargeError(maxBytes, facts.size);
      const media = await message.downloadMedia();
      if (media === null) {
        throw new AttachmentUnavailableError(
          'WhatsApp no longer has this file (its media expired on the phone and the server); ask the user to send it again.',
        );
      }
      if (media === undefined) {
        throw new AttachmentUnavailableError(
          'WhatsApp Web could not download this file; ask the user to send it again.',
        );
      }
      return decodeCapped(media.data, maxBytes);
    },
  };
}

/**
 * A message of a kind the chatbot cannot read and that carries no file (a location, a
 * contact card, a poll): an attachment with no bytes, so that the core tells the user what
 * it can take instead, as it does for any file it cannot read.
 */
export function unreadableAttachment(type: WaMessageType): InboundAttachment {
  return {
    kind: 'other',
    fileName: `whatsapp-${type}`,
    size: 0,
    fetch: () => Promise.resolve(new Uint8Array(0)),
  };
}
