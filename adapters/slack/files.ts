/**
 * Files shared in a DM or thread (`files[]` of a message): each becomes an
 * InboundAttachment whose `fetch` downloads `url_private_download` with the bot token
 * (files:read) only when the core asks, after its media policy checked the size Slack
 * announced. The token is sent only to Slack's own file hosts (or the configured API
 * host, a test fake or proxy): a file object naming any other host is refused, never
 * fetched, so a forged or relayed event cannot make us hand the token elsewhere.
 */
import { request } from 'undici';
import { AttachmentTooLargeError, AttachmentUnavailableError, readCapped } from '../../src/contract.js';
import type { AttachmentKind, InboundAttachment } from '../../src/contract.js';
import { normalizeApiUrl } from './client.js';

/** The fields of a `files[]` entry the adapter reads. */
export interface SlackFile {
  id?: string;
  name?: string;
  mimetype?: string;
  subtype?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
  /** Voice and video clips recorded in Slack carry their length. */
  duration_ms?: number;
  /** "tombstone" (deleted) and "external" (a link to Drive…) files have nothing for us to download. */
  mode?: string;
}

/** Slack's own file hosts (besides the configured API host). */
const SLACK_FILE_HOSTS = new Set(['files.slack.com']);
const SLACK_FILE_HOST_SUFFIX = '.slack-edge.com';
/** Redirects followed from url_private_download (Slack answers some with one to its CDN); each hop is checked again. */
const MAX_REDIRECTS = 3;

/** What one bot needs to download its files. */
export interface SlackFileSource {
  botToken: string;
  /** SLACK_API_URL (a fake or proxy): its origin is trusted like Slack's file hosts. */
  apiUrl?: string;
}

/** Whether the bot token may be sent to this URL. */
export function isSlackFileUrl(url: string, source: Pick<SlackFileSource, 'apiUrl'>): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(normalizeApiUrl(source.apiUrl)).origin) return true;
  if (parsed.protocol !== 'https:') return false;
  return SLACK_FILE_HOSTS.has(parsed.hostname) || parsed.hostname.endsWith(SLACK_FILE_HOST_SUFFIX);
}

/** Slack voice clips are `slack_audio` (MP4/AAC, converted by the core with ffmpeg), video clips `slack_video`. */
export function kindOfFile(file: Pick<SlackFile, 'mimetype' | 'subtype'>): AttachmentKind {
  const mime = (file.mimetype ?? '').toLowerCase();
  if (file.subtype === 'slack_audio') return 'voice';
  if (file.subtype === 'slack_video') return 'video';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

/**
 * The durable part of a shared file: where to download it and what Slack announced,
 * as JSON. Kept with the queued message so that another process serving the bot
 * (same token) can download it again.
 */
interface FileRef {
  url: string;
  size?: number;
  mimetype?: string;
  name?: string;
}

function decodeRef(ref: string): FileRef | undefined {
  try {
    const parsed = JSON.parse(ref) as Partial<FileRef> | null;
    if (typeof parsed?.url !== 'string' || parsed.url === '') return undefined;
    return {
      url: parsed.url,
      ...(typeof parsed.size === 'number' ? { size: parsed.size } : {}),
      ...(typeof parsed.mimetype === 'string' ? { mimetype: parsed.mimetype } : {}),
      ...(typeof parsed.name === 'string' ? { name: parsed.name } : {}),
    };
  } catch {
    return undefined;
  }
}

async function download(
  source: SlackFileSource,
  url: string,
  maxBytes: number,
  declared: number | undefined,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!isSlackFileUrl(current, source)) {
      throw new AttachmentUnavailableError(
        `Refusing to download a Slack file from ${new URL(current).host}: ` +
          "the bot token is only sent to Slack's file hosts (files.slack.com, *.slack-edge.com) or SLACK_API_URL's host.",
      );
    }
    const response = await request(current, {
      method: 'GET',
      headers: { authorization: `Bearer ${source.botToken}` },
      ...(signal ? { signal } : {}),
    });
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
      await response.body.dump();
      current = new URL(location, current).toString();
      continue;
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      await response.body.dump();
      throw new AttachmentUnavailableError(
        `Slack file download answered HTTP ${response.statusCode}; the file may have been deleted, ask the user to share it again.`,
        { reason: response.statusCode === 404 || response.statusCode === 410 ? 'gone' : 'failed' },
      );
    }
    if (/text\/html/i.test(String(response.headers['content-type'] ?? ''))) {
      // Slack answers a file URL it will not serve this token with its sign-in page (status 200).
      await response.body.dump();
      throw new AttachmentUnavailableError(
        'Slack answered the file download with its sign-in page: ' +
          'the bot token lacks the files:read scope (reinstall the app from adapters/slack/manifest.yaml) ' +
          'or the file is not shared with the bot.',
      );
    }
    const contentLength = Number(response.headers['content-length']);
    try {
      return await readCapped(
        response.body,
        maxBytes,
        Number.isFinite(contentLength) && contentLength > 0 ? contentLength : declared,
      );
    } finally {
      if (!response.body.destroyed) {
        // Closing the body early (over the cap) aborts the download; undici reports that as an
        // 'error' event, which is expected here and must not become an uncaught exception.
        response.body.on('error', () => undefined);
        response.body.destroy();
      }
    }
  }
  throw new AttachmentUnavailableError(
    `Slack file download redirected more than ${MAX_REDIRECTS} times; ask the user to share it again.`,
  );
}

function attachmentFrom(
  source: SlackFileSource,
  ref: FileRef,
  info: Omit<InboundAttachment, 'fetch' | 'ref'>,
): InboundAttachment {
  const size = ref.size ?? info.size;
  return {
    ...info,
    ...(size !== undefined ? { size } : {}),
    ref: JSON.stringify(ref),
    async fetch({ maxBytes, signal }) {
      if (size !== undefined && size > maxBytes) throw new AttachmentTooLargeError(maxBytes, size);
      return download(source, ref.url, maxBytes, size, signal);
    },
  };
}

/** The attachments of a message's `files[]`; files with nothing to download (deleted, external) are left out. */
export function slackAttachments(source: SlackFileSource, files: SlackFile[] | undefined): InboundAttachment[] {
  return (files ?? []).flatMap((file) => {
    const url = file.url_private_download ?? file.url_private;
    if (!url || file.mode === 'tombstone' || file.mode === 'external') return [];
    const ref: FileRef = {
      url,
      ...(file.size !== undefined ? { size: file.size } : {}),
      ...(file.mimetype ? { mimetype: file.mimetype } : {}),
      ...(file.name ? { name: file.name } : {}),
    };
    return [
      attachmentFrom(source, ref, {
        kind: kindOfFile(file),
        ...(file.mimetype ? { mimeType: file.mimetype } : {}),
        ...(file.name ? { fileName: file.name } : {}),
        ...(file.duration_ms !== undefined ? { durationSeconds: file.duration_ms / 1000 } : {}),
      }),
    ];
  });
}

/**
 * An attachment rebuilt from its `ref` by any process serving the same bot. An unreadable
 * ref gives an attachment whose fetch says so, rather than a throw that fails the turn.
 */
export function restoreSlackAttachment(
  source: SlackFileSource,
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
            'This queued Slack file reference is unreadable; ask the user to share the file again.',
          ),
        ),
    };
  }
  return attachmentFrom(source, decoded, info);
}
