/**
 * Lazy attachment download: getFile, then GET /file/bot<token>/<file_path>
 * through a byte cap. Files over Telegram's 20 MB getFile limit are refused
 * before any call unless a local Bot API server is configured.
 */
import { createReadStream } from 'node:fs';
import { isAbsolute } from 'node:path';
import { GrammyError, type Api } from 'grammy';
import { request } from 'undici';
import { AttachmentTooLargeError, AttachmentUnavailableError } from '../../src/contract.js';
import { readCapped } from '../../src/contract.js';
import type { AttachmentKind, InboundAttachment } from '../../src/contract.js';
import { LOCAL_API_MAX_DOWNLOAD_BYTES, PUBLIC_API_MAX_DOWNLOAD_BYTES } from './capabilities.js';

export const DEFAULT_API_ROOT = 'https://api.telegram.org';

export interface FileSource {
  api: Api;
  token: string;
  apiRoot: string;
  /** A local Bot API server: no 20 MB limit, and file_path may be a local absolute path. */
  localApi: boolean;
}

export interface AnnouncedFile {
  kind: AttachmentKind;
  fileId: string;
  size?: number;
  mimeType?: string;
  fileName?: string;
  durationSeconds?: number;
}

const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

async function resolvePath(
  source: FileSource,
  fileId: string,
  signal?: AbortSignal,
): Promise<{ path: string; size?: number }> {
  try {
    // grammY types its signal with the abort-controller polyfill; the runtime object is the same.
    const file = await source.api.getFile(fileId, signal as Parameters<Api['getFile']>[1]);
    if (!file.file_path)
      throw new AttachmentUnavailableError(
        'Telegram returned no file_path for this file; ask the user to send it again.',
      );
    return { path: file.file_path, size: file.file_size };
  } catch (error) {
    if (error instanceof GrammyError && /file is too big/i.test(error.description)) {
      throw new AttachmentUnavailableError(
        'Telegram refuses to let bots download files over 20 MB. Run a local Bot API server (TELEGRAM_API_ROOT, localApi: true) to lift the limit.',
        { cause: error, reason: 'too-large' },
      );
    }
    if (error instanceof GrammyError) {
      throw new AttachmentUnavailableError(
        `Telegram getFile failed (${error.description}); the file may have expired.`,
        // A file_id Telegram answers 400/404 for is one it no longer has; anything else did not work this time.
        { cause: error, reason: error.error_code === 400 || error.error_code === 404 ? 'gone' : 'failed' },
      );
    }
    throw error;
  }
}

async function download(
  source: FileSource,
  path: string,
  maxBytes: number,
  size: number | undefined,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  if (source.localApi && isAbsolute(path)) {
    // `telegram-bot-api --local` answers with a path on its own disk, shared with us.
    return readCapped(createReadStream(path, signal ? { signal } : {}), maxBytes, size);
  }
  const url = `${source.apiRoot}/file/bot${source.token}/${path}`;
  const response = await request(url, { method: 'GET', signal });
  if (response.statusCode < 200 || response.statusCode >= 300) {
    await response.body.dump();
    throw new AttachmentUnavailableError(
      `Telegram file download answered HTTP ${response.statusCode}; the link may have expired, ask the user to resend.`,
      { reason: response.statusCode === 404 || response.statusCode === 410 ? 'gone' : 'failed' },
    );
  }
  const contentLength = Number(response.headers['content-length']);
  const declared = Number.isFinite(contentLength) && contentLength > 0 ? contentLength : size;
  try {
    return await readCapped(response.body, maxBytes, declared);
  } finally {
    if (!response.body.destroyed) response.body.destroy();
  }
}

/**
 * The durable part of an attachment: Telegram's file_id (valid for this bot, in any
 * process, for a long time) and its declared size, as JSON. Kept with the queued
 * message so that another gateway process can download the file again.
 */
interface FileRef {
  file_id: string;
  file_size?: number;
}

function encodeRef(file: AnnouncedFile): string {
  const ref: FileRef = { file_id: file.fileId, ...(file.size !== undefined ? { file_size: file.size } : {}) };
  return JSON.stringify(ref);
}

function decodeRef(ref: string): FileRef | undefined {
  try {
    const parsed = JSON.parse(ref) as Partial<FileRef> | null;
    if (typeof parsed?.file_id !== 'string' || parsed.file_id === '') return undefined;
    return {
      file_id: parsed.file_id,
      ...(typeof parsed.file_size === 'number' ? { file_size: parsed.file_size } : {}),
    };
  } catch {
    return undefined;
  }
}

/** An InboundAttachment whose `fetch` downloads from Telegram only when the core asks for it. */
export function telegramAttachment(source: FileSource, file: AnnouncedFile): InboundAttachment {
  const platformLimit = source.localApi ? LOCAL_API_MAX_DOWNLOAD_BYTES : PUBLIC_API_MAX_DOWNLOAD_BYTES;
  return {
    kind: file.kind,
    size: file.size,
    mimeType: file.mimeType,
    fileName: file.fileName,
    durationSeconds: file.durationSeconds,
    ref: encodeRef(file),
    async fetch({ maxBytes, signal }) {
      if (file.size !== undefined && file.size > maxBytes) throw new AttachmentTooLargeError(maxBytes, file.size);
      if (file.size !== undefined && file.size > platformLimit) {
        throw new AttachmentUnavailableError(
          `This file is ${megabytes(file.size)}; Telegram lets bots download at most ${megabytes(platformLimit)}. ` +
            'A local Bot API server (TELEGRAM_API_ROOT, localApi: true) lifts the limit.',
          { reason: 'too-large' },
        );
      }
      const resolved = await resolvePath(source, file.fileId, signal);
      return download(source, resolved.path, maxBytes, resolved.size ?? file.size, signal);
    },
  };
}

/**
 * An attachment rebuilt from its `ref` by any process serving the same bot (same
 * token, so the file_id is valid): the same caps and errors as the original. A ref
 * this adapter cannot read gives an attachment whose fetch says so, rather than a
 * throw that would fail the whole turn.
 */
export function restoreTelegramAttachment(
  source: FileSource,
  ref: string,
  info: Omit<InboundAttachment, 'fetch' | 'ref'>,
): InboundAttachment {
  const decoded = decodeRef(ref);
  if (!decoded) {
    return {
      ...info,
      ref,
      fetch: () =>
        Promise.reject(
          new AttachmentUnavailableError(
            'This queued Telegram file reference is unreadable; ask the user to send the file again.',
          ),
        ),
    };
  }
  const { kind, mimeType, fileName, durationSeconds } = info;
  return telegramAttachment(source, {
    kind,
    mimeType,
    fileName,
    durationSeconds,
    fileId: decoded.file_id,
    size: decoded.file_size ?? info.size,
  });
}
