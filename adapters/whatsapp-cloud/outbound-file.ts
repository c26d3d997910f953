/**
 * How an operator's file goes to a WhatsApp Cloud user, decided before anything is uploaded:
 * the MIME type Meta is told (it takes only the types below, and refuses any other at upload),
 * the message type that shows it, and the size Meta allows for that type (Meta's media page, as
 * the notes copy it, "Media"):
 *
 *   image/jpeg, image/png                          → an `image`, at most 5 MB
 *   video/mp4, video/3gpp                          → a `video`, at most 16 MB
 *   audio/aac, mp4, mpeg, amr, ogg                 → an `audio` (no caption: it goes first as text), at most 16 MB
 *   PDF, text, Word, Excel, PowerPoint             → a `document` with its file name, at most 100 MB
 *   anything else (a zip, a WebP, a GIF, HEIC…)    → refused, 'unsupported', naming what WhatsApp takes
 *
 * Pure: outbound.ts uploads and sends.
 */
import { outboundFileType, PlatformError, type OutboundFile } from '../../src/contract.js';

const MB = 1024 * 1024;
/** Meta's largest media: a document of 100 MB. */
export const CLOUD_MAX_UPLOAD_BYTES = 100 * MB;
/** Meta's media messages page: a caption holds at most 1,024 characters. */
export const CLOUD_MAX_CAPTION_LENGTH = 1024;

export type CloudFileMessage = 'image' | 'video' | 'audio' | 'document';

interface UploadType {
  message: CloudFileMessage;
  maxBytes: number;
  /** "photo", "video", "document": how a refusal names it. */
  noun: string;
}

const PHOTO: UploadType = { message: 'image', maxBytes: 5 * MB, noun: 'photo' };
const VIDEO: UploadType = { message: 'video', maxBytes: 16 * MB, noun: 'video' };
const AUDIO: UploadType = { message: 'audio', maxBytes: 16 * MB, noun: 'audio file' };
const DOCUMENT: UploadType = { message: 'document', maxBytes: 100 * MB, noun: 'document' };

/** The types Meta's upload takes (its refusal lists them), but WebP: Meta shows it only as a sticker. */
export const CLOUD_UPLOAD_TYPES: Readonly<Record<string, UploadType>> = {
  'image/jpeg': PHOTO,
  'image/png': PHOTO,
  'video/mp4': VIDEO,
  'video/3gpp': VIDEO,
  'audio/aac': AUDIO,
  'audio/mp4': AUDIO,
  'audio/mpeg': AUDIO,
  'audio/amr': AUDIO,
  'audio/ogg': AUDIO,
  'application/pdf': DOCUMENT,
  'text/plain': DOCUMENT,
  'application/msword': DOCUMENT,
  'application/vnd.ms-excel': DOCUMENT,
  'application/vnd.ms-powerpoint': DOCUMENT,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': DOCUMENT,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': DOCUMENT,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': DOCUMENT,
};

export interface CloudFilePlan {
  /** The type Meta is told at upload (the file part's Content-Type and the `type` field). */
  mimeType: string;
  message: CloudFileMessage;
}

/** Whole megabytes when round, one decimal otherwise: "5 MB", "7.3 MB". */
export function megabytes(bytes: number): string {
  const value = bytes / MB;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MB`;
}

/** How `file` goes, or the PlatformError that refuses it ('too-long' over Meta's size, 'unsupported' for a type Meta does not take). */
export function planCloudFile(file: OutboundFile, method: string): CloudFilePlan {
  const size = file.bytes.byteLength;
  const refuse = (message: string, kind: 'too-long' | 'unsupported') =>
    new PlatformError(message, kind, undefined, { method, sent: `file "${file.fileName}" (${megabytes(size)})` });
  if (size > CLOUD_MAX_UPLOAD_BYTES)
    throw refuse(
      `WhatsApp Cloud takes files of at most ${megabytes(CLOUD_MAX_UPLOAD_BYTES)}; "${file.fileName}" is ${megabytes(size)}`,
      'too-long',
    );
  const mimeType = outboundFileType(file);
  const type = CLOUD_UPLOAD_TYPES[mimeType];
  if (!type)
    throw refuse(
      `WhatsApp Cloud cannot send "${file.fileName}" (${mimeType || 'of an unknown type'}): it takes JPEG and PNG photos, ` +
        'MP4 and 3GPP videos, AAC, MP3, M4A, AMR and OGG audio, and PDF, text, Word, Excel and PowerPoint documents',
      'unsupported',
    );
  if (size > type.maxBytes)
    throw refuse(
      `WhatsApp Cloud takes a ${type.noun} of at most ${megabytes(type.maxBytes)}; "${file.fileName}" is ${megabytes(size)}`,
      'too-long',
    );
  return { mimeType, message: type.message };
}
