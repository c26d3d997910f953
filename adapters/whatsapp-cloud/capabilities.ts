import { whatsappMarkup, type Capabilities } from '../../src/contract.js';
import { CLOUD_MAX_CAPTION_LENGTH, CLOUD_MAX_UPLOAD_BYTES } from './outbound-file.js';

/** Meta's text-messages page: a text body holds at most 4,096 characters. */
export const CLOUD_MAX_MESSAGE_LENGTH = 4096;
/**
 * The typing indicator shows until the reply or 25 s (Meta's typing-indicators page); the core
 * refreshes it before then while nothing is visible.
 */
export const CLOUD_TYPING_LIFETIME_MS = 25_000;
/** Meta retries a webhook that was not answered 200 for up to 7 days (the notes, "Delivery"). */
export const CLOUD_REDELIVERY_WINDOW_MS = 7 * 24 * 60 * 60_000;
/** The largest media Meta carries: a document of 100 MB (images 5 MB, audio and video 16 MB). */
export const CLOUD_MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;
/**
 * The pair rate limit's sustained pace: about one message per 6 s from one business number to
 * one user (Meta's throughput page, as the notes copy it). The Cloud API has no edits, so no
 * streaming message is ever updated; the interval is declared at this pace for completeness.
 */
export const CLOUD_PAIR_INTERVAL_MS = 6_000;

/**
 * No `edit`, `draft` or `startStream` on the outbound: a business message cannot be changed once
 * sent, so the core shows "typing…" and sends the answer whole at its end (README, "Long answers").
 */
export const cloudCapabilities: Capabilities = Object.freeze({
  maxMessageLength: CLOUD_MAX_MESSAGE_LENGTH,
  markup: whatsappMarkup,
  editIntervalMs: Object.freeze({ private: CLOUD_PAIR_INTERVAL_MS, group: CLOUD_PAIR_INTERVAL_MS }),
  typingLifetimeMs: CLOUD_TYPING_LIFETIME_MS,
  // Reply buttons and list messages (outbound.ts, interactive.ts).
  buttons: true,
  // One media per message; several photos arrive as several messages.
  maxFilesPerMessage: 1,
  maxDownloadBytes: CLOUD_MAX_DOWNLOAD_BYTES,
  // A document of 100 MB; photos 5 MB, audio and video 16 MB (outbound-file.ts refuses more by type).
  maxUploadBytes: CLOUD_MAX_UPLOAD_BYTES,
  maxCaptionLength: CLOUD_MAX_CAPTION_LENGTH,
  redeliveryWindowMs: CLOUD_REDELIVERY_WINDOW_MS,
});
