/**
 * A WhatsApp message's file as an `InboundAttachment`: its kind from the message type
 * (a document that is an image or a video counts as one, by its MIME type), the size
 * WhatsApp Web announces before any download (`rawData.size`), and a lazy `fetch` that
 * refuses a file over the cap before calling `downloadMedia()`. Its `ref` is the message's id:
 * WhatsApp Web finds the message again by it (`getMessageById`, also in a later browser session
 * of the number), so the process that runs the number's browser can download the file again (the
 * inbox shows it later; a queued message survives its receiver). Other processes cannot: there the
 * file is unavailable.
 */
import {
  AttachmentTooLargeError,
  AttachmentUnavailableError,
  type AttachmentKind,
  type InboundAttachment,
} from '../../src/contract.js';
import type { WaClient, WaMessage, WaMessageType } from './library.js';

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

/** The file of `message`, refusing more than `maxBytes`; `size` is what WhatsApp Web announced, if anything. */
async function download(message: Pick<WaMessage, 'downloadMedia'>, size: number | undefined, maxBytes: number) {
  // downloadMedia() brings the whole file through the browser: never start one that is too big.
  if (size !== undefined && size > maxBytes) throw new AttachmentTooLargeError(maxBytes, size);
  const media = await message.downloadMedia();
  if (media === null) {
    throw new AttachmentUnavailableError(
      'WhatsApp no longer has this file (its media expired on the phone and the server); ask the user to send it again.',
      { reason: 'gone' },
    );
  }
  if (media === undefined) {
    throw new AttachmentUnavailableError('WhatsApp Web could not download this file; ask the user to send it again.');
  }
  return decodeCapped(media.data, maxBytes);
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
    ref: message.id._serialized,
    fetch: ({ maxBytes }) => download(message, facts.size, maxBytes),
  };
}

/**
 * The file of an earlier message from its `ref` (the message's id): looked up in the ready WhatsApp
 * Web of this process, then downloaded. Without one (another process runs the number's browser, or
 * it is not linked) the file is unavailable here.
 */
export function restoreMediaAttachment(
  client: () => WaClient | undefined,
  ref: string,
  info: Omit<InboundAttachment, 'fetch' | 'ref'>,
): InboundAttachment {
  return {
    ...info,
    ref,
    async fetch({ maxBytes }) {
      const ready = client();
      if (!ready) {
        throw new AttachmentUnavailableError(
          'This gateway process does not run WhatsApp Web for the number (another process does, or it is not linked), ' +
            'and only that process can fetch the file.',
        );
      }
      const message = await ready.getMessageById(ref);
      if (!message) {
        throw new AttachmentUnavailableError(
          'WhatsApp Web no longer knows the message of this file; ask the user to send it again.',
          { reason: 'gone' },
        );
      }
      return download(message, info.size, maxBytes);
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
