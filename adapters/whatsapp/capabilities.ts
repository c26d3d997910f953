import { whatsappMarkup, type Capabilities } from '../../src/contract.js';
import { WHATSAPP_MAX_CAPTION_LENGTH, WHATSAPP_MAX_UPLOAD_BYTES } from './outbound-file.js';

/**
 * WhatsApp takes 65,536 characters in one message, but a wall of text reads badly on a
 * phone: answers are split at Telegram's length, a screen or two each.
 */
export const WHATSAPP_MAX_MESSAGE_LENGTH = 4096;
/**
 * WhatsApp documents no edit rate; edits are kept sparse (docs/platforms.md §C.3): one
 * message is edited at most every 2 s unless the bot's `editIntervalMs` says otherwise.
 */
export const WHATSAPP_EDIT_INTERVAL_MS = 2000;
/** A setting below this is raised to it: edits stay at least 2 s apart, whatever is configured. */
export const WHATSAPP_MIN_EDIT_INTERVAL_MS = 2000;
/** A message can be edited for 15 minutes after it was sent (§C.3); the core stops a little before. */
export const WHATSAPP_EDIT_WINDOW_MS = 15 * 60 * 1000;
/** `sendStateTyping` shows "typing…" for about 25 s (§C.5); the core renews it before then. */
export const WHATSAPP_TYPING_LIFETIME_MS = 25_000;
/**
 * `downloadMedia()` brings the whole file into memory as base64 through the browser, so
 * the adapter downloads at most this much whatever WhatsApp allows (2 GB documents).
 */
export const WHATSAPP_MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

export function whatsappCapabilities(options: { editIntervalMs?: number } = {}): Capabilities {
  const interval = Math.max(WHATSAPP_MIN_EDIT_INTERVAL_MS, options.editIntervalMs ?? WHATSAPP_EDIT_INTERVAL_MS);
  return {
    maxMessageLength: WHATSAPP_MAX_MESSAGE_LENGTH,
    markup: whatsappMarkup,
    editIntervalMs: { private: interval, group: interval },
    editWindowMs: WHATSAPP_EDIT_WINDOW_MS,
    typingLifetimeMs: WHATSAPP_TYPING_LIFETIME_MS,
    // A linked device cannot send buttons (WhatsApp deprecated them): listings say which words page them.
    buttons: false,
    // One WhatsApp message carries one file; an album arrives as separate messages.
    maxFilesPerMessage: 1,
    maxDownloadBytes: WHATSAPP_MAX_DOWNLOAD_BYTES,
    // A document of 100 MB (photos and videos up to 16 MB go as media, larger ones as documents: outbound-file.ts).
    maxUploadBytes: WHATSAPP_MAX_UPLOAD_BYTES,
    maxCaptionLength: WHATSAPP_MAX_CAPTION_LENGTH,
  };
}
