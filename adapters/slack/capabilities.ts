import type { Capabilities } from '../../src/contract.js';
import { slackMarkup } from './markdown.js';
import { SLACK_MAX_UPLOAD_BYTES } from './upload.js';

/**
 * One message is one `section` block (so that buttons can always go with it in an
 * `actions` block), and a section's text holds at most 3,000 characters
 * (docs/platforms.md §B.2); this is also under the 4,000 Slack recommends per message.
 */
export const SLACK_MAX_MESSAGE_LENGTH = 3000;
/** chat.startStream / appendStream / stopStream take at most 12,000 characters of markdown_text per call (§B.2). */
export const SLACK_NATIVE_STREAM_MAX_CHARS = 12_000;
/**
 * chat.update is Tier 3 (50+/min per workspace); postMessage about 1/s per channel.
 * Edits of one message at most every 1.2 s keep a single answer under both.
 */
export const SLACK_EDIT_INTERVAL_MS = 1200;
/** assistant.threads.setStatus lasts until the next message or 2 minutes (§B.6); refreshed well before. */
export const SLACK_STATUS_LIFETIME_MS = 60_000;
/** Slack files can be large; the core's media policy sets the real cap (this is what the bot may download). */
export const SLACK_MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024;

export const slackCapabilities: Capabilities = {
  maxMessageLength: SLACK_MAX_MESSAGE_LENGTH,
  markup: slackMarkup,
  editIntervalMs: { private: SLACK_EDIT_INTERVAL_MS, group: SLACK_EDIT_INTERVAL_MS },
  nativeStreamMaxChars: SLACK_NATIVE_STREAM_MAX_CHARS,
  typingLifetimeMs: SLACK_STATUS_LIFETIME_MS,
  buttons: true,
  // One file_share message may carry several files.
  maxFilesPerMessage: 10,
  maxDownloadBytes: SLACK_MAX_DOWNLOAD_BYTES,
  maxUploadBytes: SLACK_MAX_UPLOAD_BYTES,
  // A file's comment is a message's text: the same mrkdwn within the same limit.
  maxCaptionLength: SLACK_MAX_MESSAGE_LENGTH,
};
