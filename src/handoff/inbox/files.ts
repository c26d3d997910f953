/**
 * GET /inbox/conversations/:id/files/:entry/:n: a file the user sent, fetched again through the
 * adapter serving the conversation (its durable ref, Adapter.restoreAttachment) and passed on by
 * the gateway. The platform's own URL never reaches the page: it can carry the bot's token.
 *
 * The type comes from the bytes; only images whose bytes say so are shown in the page, anything
 * else is a download (a file claiming to be HTML must not run as the inbox's page).
 */
import type { Response } from 'express';
import { fileTypeFromBuffer } from 'file-type';
import {
  AttachmentTooLargeError,
  AttachmentUnavailableError,
  type ConversationRef,
  type Gateway,
} from '../../gateway/index.js';
import type { TranscriptEntry } from '../../gateway/index.js';

/** Largest file passed on (it is held in memory while it is). */
export const INBOX_FILE_MAX_BYTES = 25 * 1024 * 1024;
/** Images a browser shows without running anything. SVG is not one of them (it can hold script). */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export type FileAnswer =
  | { ok: true; bytes: Uint8Array; mime: string; inline: boolean; fileName: string }
  | { ok: false; status: 404 | 410 | 413 | 502; message: string };

/** The `n`th file of the user's entry written at `at` (ms): entries are found by time, which a capped transcript does not shift. */
export async function userFile(
  gateway: Gateway,
  transcript: readonly TranscriptEntry[],
  conversation: ConversationRef,
  at: number,
  n: number,
): Promise<FileAnswer> {
  const entry = transcript.find((candidate) => candidate.at === at && candidate.role === 'user');
  const file = entry?.files?.[n];
  if (!file)
    return {
      ok: false,
      status: 404,
      message:
        'The transcript has no such file (it may have been dropped: the transcript keeps the newest messages only).',
    };
  if (file.ref === undefined)
    return {
      ok: false,
      status: 410,
      message: 'The platform keeps no copy of this file that the gateway can fetch again.',
    };
  const { ref, ...info } = file;
  const attachment = gateway.restoreAttachment(conversation, ref, info);
  if (!attachment)
    return {
      ok: false,
      status: 410,
      message: `No adapter of this gateway can fetch files of ${conversation.platform} again.`,
    };
  let bytes: Uint8Array;
  try {
    bytes = await attachment.fetch({ maxBytes: INBOX_FILE_MAX_BYTES });
  } catch (error) {
    if (error instanceof AttachmentTooLargeError)
      return {
        ok: false,
        status: 413,
        message: `The file is larger than the inbox passes on (${INBOX_FILE_MAX_BYTES / 1024 / 1024} MB).`,
      };
    if (error instanceof AttachmentUnavailableError) return { ok: false, status: 410, message: error.message };
    return { ok: false, status: 502, message: `The platform did not give the file: ${(error as Error).message}` };
  }
  const sniffed = (await fileTypeFromBuffer(bytes))?.mime;
  const mime = sniffed ?? 'application/octet-stream';
  return { ok: true, bytes, mime, inline: INLINE_IMAGES.has(mime), fileName: file.fileName ?? `${file.kind}-${n + 1}` };
}

export function sendFile(res: Response, file: Extract<FileAnswer, { ok: true }>): void {
  res.set({
    'Content-Type': file.mime,
    'Content-Disposition': `${file.inline ? 'inline' : 'attachment'}; filename="${asciiName(file.fileName)}"; filename*=UTF-8''${rfc5987(file.fileName)}`,
    'X-Content-Type-Options': 'nosniff',
    // Whatever the bytes are, opened on their own they can run nothing.
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
    'Referrer-Policy': 'no-referrer',
  });
  res.send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
}

/** `filename*`'s value (RFC 8187): percent-encoded UTF-8, the few characters encodeURIComponent leaves but the syntax does not allow too. */
function rfc5987(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The name for browsers that read only `filename`: ASCII, no quotes or backslashes. */
function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, '_');
}
