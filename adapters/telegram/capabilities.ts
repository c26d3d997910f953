import type { Capabilities, Outbound } from '../../src/contract.js';
import { MAX_CAPTION_LENGTH, MAX_UPLOAD_BYTES } from './files.js';
import { telegramMarkup } from './markdown.js';

/** getFile on the public Bot API server: "bots can download files of up to 20MB". */
export const PUBLIC_API_MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
/** A local Bot API server (`telegram-bot-api --local`) has no download limit; its upload limit is 2000 MB. */
export const LOCAL_API_MAX_DOWNLOAD_BYTES = 2000 * 1024 * 1024;
/** Bots can edit their messages for 48 h; after that "message can't be edited" (docs/platforms.md §A.7). */
export const EDIT_WINDOW_MS = 48 * 60 * 60 * 1000;

/**
 * What a Telegram bot can do (docs/platforms.md §A). Edit pacing follows the
 * flood limits: about 1 message/s in a chat, 20/min in a group. Edits and drafts
 * are not flags here: the outbound has `edit` and `draft` (outboundForChat).
 */
export function telegramCapabilities(options: { localApi: boolean }): Capabilities {
  return {
    maxMessageLength: 4096,
    markup: telegramMarkup,
    editIntervalMs: { private: 1100, group: 3000 },
    editWindowMs: EDIT_WINDOW_MS,
    typingLifetimeMs: 5000,
    buttons: true,
    maxFilesPerMessage: 10,
    maxDownloadBytes: options.localApi ? LOCAL_API_MAX_DOWNLOAD_BYTES : PUBLIC_API_MAX_DOWNLOAD_BYTES,
    // Multipart uploads on the public Bot API server (a photo over 10 MB goes as a document).
    maxUploadBytes: MAX_UPLOAD_BYTES,
    maxCaptionLength: MAX_CAPTION_LENGTH,
  };
}

/**
 * The outbound of a group: the same one without `draft`, since sendMessageDraft
 * works in private chats only (§A.3), so groups stream by editing. Whether a
 * conversation has drafts is said by the method being there, like everything a
 * platform can do, rather than by a flag next to it.
 */
export function withoutDrafts(outbound: Outbound): Outbound {
  return {
    send: (conversation, message) => outbound.send(conversation, message),
    ...(outbound.sendFile ? { sendFile: outbound.sendFile.bind(outbound) } : {}),
    ...(outbound.edit ? { edit: outbound.edit.bind(outbound) } : {}),
    ...(outbound.startStream ? { startStream: outbound.startStream.bind(outbound) } : {}),
    ...(outbound.stopStream ? { stopStream: outbound.stopStream.bind(outbound) } : {}),
    ...(outbound.typing ? { typing: outbound.typing.bind(outbound) } : {}),
  };
}
