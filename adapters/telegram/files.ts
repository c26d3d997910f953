/**
 * Sending a file's bytes (multipart upload): an image Telegram shows as a photo (JPEG, PNG,
 * WebP within 10 MB) with sendPhoto, anything else with sendDocument (within 50 MB). A photo
 * Telegram refuses as a photo (its dimensions, a file it cannot process) goes as a document.
 * Used by the user's outbound (sendFile) and the operators' door (a user's files in a topic).
 */
import { GrammyError, InputFile, type Api } from 'grammy';
import type { Message } from 'grammy/types';

/** sendPhoto: "The photo must be at most 10 MB in size." */
export const MAX_PHOTO_UPLOAD_BYTES = 10 * 1024 * 1024;
/** "Other types of content … up to 50 MB" by multipart/form-data on the public Bot API server. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** A caption: 0–1024 characters after entity parsing. */
export const MAX_CAPTION_LENGTH = 1024;

const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

export interface FileToSend {
  bytes: Uint8Array;
  fileName: string;
  mimeType?: string;
}

export interface FileSendOptions {
  /** Telegram HTML, within MAX_CAPTION_LENGTH. */
  caption?: string;
  /** A forum topic. */
  threadId?: number;
  signal?: AbortSignal;
}

export function sendsAsPhoto(file: FileToSend): boolean {
  return (
    file.mimeType !== undefined && PHOTO_TYPES.has(file.mimeType) && file.bytes.byteLength <= MAX_PHOTO_UPLOAD_BYTES
  );
}

/** Telegram refused the bytes as a photo, not the call: a document may still go. */
function refusedAsPhoto(error: unknown): boolean {
  return (
    error instanceof GrammyError && error.error_code === 400 && /PHOTO_|IMAGE_PROCESS_FAILED/i.test(error.description)
  );
}

/** The method a file goes with: named in the error of a failed call. */
export function fileMethod(file: FileToSend): 'sendPhoto' | 'sendDocument' {
  return sendsAsPhoto(file) ? 'sendPhoto' : 'sendDocument';
}

export async function sendFileBytes(
  api: Api,
  chatId: number | string,
  file: FileToSend,
  options: FileSendOptions = {},
): Promise<Message> {
  const other = {
    ...(options.caption ? { caption: options.caption, parse_mode: 'HTML' as const } : {}),
    ...(options.threadId !== undefined ? { message_thread_id: options.threadId } : {}),
  };
  // grammY types its signal with the abort-controller polyfill; Node's works the same.
  const signal = options.signal as Parameters<Api['sendDocument']>[3];
  // A new InputFile per call: grammY consumes one as it uploads it.
  const input = () => new InputFile(file.bytes, file.fileName);
  if (sendsAsPhoto(file)) {
    try {
      return await api.sendPhoto(chatId, input(), other, signal);
    } catch (error) {
      if (!refusedAsPhoto(error)) throw error;
    }
  }
  return api.sendDocument(chatId, input(), other, signal);
}
