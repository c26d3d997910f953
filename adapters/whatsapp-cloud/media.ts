/**
 * A user's photo, voice note, audio, video, document or sticker as an `InboundAttachment`.
 * The webhook names only the media id; the bytes are two calls away, made when the core asks:
 * `GET /{media-id}` (bearer token) answers the file's `url`, `mime_type` and `file_size`, the
 * size is checked against the cap BEFORE anything is downloaded, then the `url` (on another
 * host than the Graph API: lookaside.fbsbx.com) is fetched at once, since it expires in 5
 * minutes. The token goes with that download only to the origin `GET /{media-id}` named; a
 * redirect elsewhere is followed without it. The durable `ref` is the media id, so any process
 * serving the bot fetches the file again (a fresh url each time).
 */
import { request } from 'undici';
import {
  AttachmentTooLargeError,
  AttachmentUnavailableError,
  readCapped,
  type AttachmentKind,
  type InboundAttachment,
} from '../../src/contract.js';
import { META_CODES, MetaApiError } from './errors.js';
import type { GraphClient } from './graph.js';

/** Redirects followed from a media url; the token stays with the url's own origin. */
const MAX_REDIRECTS = 3;
/** A media download that has not finished by then counts as failed (16 MB at a slow 1 MB/s fits). */
const DOWNLOAD_TIMEOUT_MS = 120_000;

/** What the webhook says of a media message. */
export interface CloudMedia {
  id: string;
  mimeType?: string;
  fileName?: string;
}

/** A document is what its MIME type says when that is an image or a video (sent "as document" to keep its quality). */
export function documentKind(mimeType: string | undefined): AttachmentKind {
  const mime = (mimeType ?? '').toLowerCase();
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

interface MediaInfo {
  url: string;
  size?: number;
  mimeType?: string;
}

async function mediaInfo(graph: GraphClient, mediaId: string, signal?: AbortSignal): Promise<MediaInfo> {
  let answer: unknown;
  try {
    answer = await graph.get([mediaId], 'GET /{media-id}', signal);
  } catch (error) {
    // Meta keeps a user's media for a limited time (about 30 days); an id it no longer knows is gone.
    // A refused token (401, code 190) is not the file's fault: it says nothing of whether the file is there.
    if (error instanceof MetaApiError && error.httpStatus >= 400 && error.httpStatus < 500) {
      const tokenRefused = error.httpStatus === 401 || error.code === META_CODES.accessToken;
      throw new AttachmentUnavailableError(
        `WhatsApp no longer gives this file (${error.message}); ask the user to send it again.`,
        { cause: error, reason: tokenRefused ? 'failed' : 'gone' },
      );
    }
    throw error;
  }
  const info = answer as { url?: unknown; file_size?: unknown; mime_type?: unknown };
  if (typeof info.url !== 'string' || !/^https?:\/\//i.test(info.url)) {
    throw new AttachmentUnavailableError(
      `WhatsApp Cloud named no download URL for media ${mediaId}; ask the user to send it again.`,
    );
  }
  const size =
    typeof info.file_size === 'number'
      ? info.file_size
      : typeof info.file_size === 'string' && /^\d+$/.test(info.file_size)
        ? Number(info.file_size)
        : undefined;
  return {
    url: info.url,
    ...(size !== undefined ? { size } : {}),
    ...(typeof info.mime_type === 'string' ? { mimeType: info.mime_type } : {}),
  };
}

/** `gone`: the media host answered 404/410 (no such file at this url), not 401/403 (the token). */
type Download = { bytes: Uint8Array } | { expired: true; gone: boolean };

async function download(
  graph: GraphClient,
  url: string,
  maxBytes: number,
  size: number | undefined,
  signal?: AbortSignal,
): Promise<Download> {
  const tokenOrigin = new URL(url).origin;
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const withToken = new URL(current).origin === tokenOrigin;
    const response = await request(current, {
      method: 'GET',
      headers: withToken ? { authorization: graph.authorization() } : {},
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
      await response.body.dump();
      current = new URL(location, current).toString();
      continue;
    }
    // The url lives 5 minutes: past that Meta answers 404 (or 401/403); a new one is asked for.
    if (
      response.statusCode === 404 ||
      response.statusCode === 410 ||
      response.statusCode === 401 ||
      response.statusCode === 403
    ) {
      await response.body.dump();
      return { expired: true, gone: response.statusCode === 404 || response.statusCode === 410 };
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      await response.body.dump();
      throw new AttachmentUnavailableError(
        `WhatsApp's media host answered HTTP ${response.statusCode}; ask the user to send the file again.`,
      );
    }
    const contentLength = Number(response.headers['content-length']);
    try {
      return {
        bytes: await readCapped(
          response.body,
          maxBytes,
          Number.isFinite(contentLength) && contentLength > 0 ? contentLength : size,
        ),
      };
    } finally {
      if (!response.body.destroyed) {
        // Leaving early (over the cap) closes the download; undici reports it as an error event, expected here.
        response.body.on('error', () => undefined);
        response.body.destroy();
      }
    }
  }
  throw new AttachmentUnavailableError(
    `WhatsApp's media download redirected more than ${MAX_REDIRECTS} times; ask the user to send the file again.`,
  );
}

/**
 * The file's bytes, at most `maxBytes`: refused by the size Meta announces before a byte is
 * downloaded. `learned` is told that size (the attachment then declares it, so the core's
 * refusal names it).
 */
export async function fetchMedia(
  graph: GraphClient,
  mediaId: string,
  options: { maxBytes: number; signal?: AbortSignal; learned?: (size: number) => void },
): Promise<Uint8Array> {
  for (let attempt = 1; ; attempt++) {
    const info = await mediaInfo(graph, mediaId, options.signal);
    if (info.size !== undefined) {
      options.learned?.(info.size);
      if (info.size > options.maxBytes) throw new AttachmentTooLargeError(options.maxBytes, info.size);
    }
    const result = await download(graph, info.url, options.maxBytes, info.size, options.signal);
    if ('bytes' in result) return result.bytes;
    // A url that expired between the two calls (a slow queue): one more, with a fresh url.
    if (attempt >= 2)
      throw new AttachmentUnavailableError(
        "WhatsApp refused the file's download link twice (expired, or the token is not allowed); ask the user to send it again.",
        { reason: result.gone ? 'gone' : 'failed' },
      );
  }
}

/** A media message's attachment; `kind` from the message type (documents by their MIME type). */
export function mediaAttachment(graph: GraphClient, kind: AttachmentKind, media: CloudMedia): InboundAttachment {
  return attachmentFrom(graph, media.id, {
    kind,
    ...(media.mimeType ? { mimeType: media.mimeType } : {}),
    ...(media.fileName ? { fileName: media.fileName } : {}),
  });
}

function attachmentFrom(
  graph: GraphClient,
  mediaId: string,
  info: Omit<InboundAttachment, 'fetch' | 'ref'>,
): InboundAttachment {
  const attachment: InboundAttachment = {
    ...info,
    ref: mediaId,
    fetch: ({ maxBytes, signal }) =>
      fetchMedia(graph, mediaId, {
        maxBytes,
        ...(signal ? { signal } : {}),
        // Announced by Meta before the download: the core's refusal names it ("This video is 20 MB").
        learned: (size) => {
          attachment.size = size;
        },
      }),
  };
  return attachment;
}

const MEDIA_ID = /^[0-9A-Za-z._-]{1,128}$/;

/** An attachment rebuilt from its ref (the media id) in any process serving the bot. */
export function restoreMediaAttachment(
  graph: GraphClient,
  ref: string,
  info: Omit<InboundAttachment, 'fetch' | 'ref'>,
): InboundAttachment {
  if (!MEDIA_ID.test(ref)) {
    return {
      ...info,
      ref,
      fetch: () =>
        Promise.reject(
          new AttachmentUnavailableError(
            'This queued WhatsApp Cloud media reference is unreadable; ask the user to send the file again.',
          ),
        ),
    };
  }
  return attachmentFrom(graph, ref, info);
}

/**
 * A message the chatbot cannot read and that carries no file (a reaction, a location, a contact
 * card): an attachment with no bytes, so that the core tells the user what it can take
 * instead, as it does for any file it cannot read.
 */
export function unreadableAttachment(type: string): InboundAttachment {
  return {
    kind: 'other',
    fileName: `whatsapp-${type}`,
    size: 0,
    fetch: () => Promise.resolve(new Uint8Array(0)),
  };
}
