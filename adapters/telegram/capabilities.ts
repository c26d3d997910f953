import type { Capabilities } from '../../src/gateway/types.js';

/** getFile on the public Bot API server: "bots can download files of up to 20MB". */
export const PUBLIC_API_MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
/** A local Bot API server (`telegram-bot-api --local`) has no download limit; its upload limit is 2000 MB. */
export const LOCAL_API_MAX_DOWNLOAD_BYTES = 2000 * 1024 * 1024;

/**
 * What a Telegram bot can do (notes/platforms.md §A). Edit pacing follows the
 * flood limits: about 1 message/s in a chat, 20/min in a group.
 */
export function telegramCapabilities(options: { localApi: boolean }): Capabilities {
  return {
    maxMessageLength: 4096,
    format: 'telegram-html',
    canEdit: true,
    editIntervalMs: { private: 1100, group: 3000 },
    drafts: true,
    nativeStreaming: false,
    typingLifetimeMs: 5000,
    buttons: true,
    maxFilesPerMessage: 10,
    maxDownloadBytes: options.localApi ? LOCAL_API_MAX_DOWNLOAD_BYTES : PUBLIC_API_MAX_DOWNLOAD_BYTES,
  };
}

/** sendMessageDraft works in private chats only, so groups stream by editing. */
export function capabilitiesForChat(base: Capabilities, isGroup: boolean): Capabilities {
  return isGroup ? { ...base, drafts: false } : base;
}
