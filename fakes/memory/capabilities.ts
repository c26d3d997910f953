import { plainMarkup, type Capabilities } from '../../src/contract.js';

/**
 * A platform that can do what most can: show buttons, take albums (whether it edits,
 * drafts or streams natively is said by the adapter's methods, see adapter.ts). No
 * pacing: nothing in memory needs it, and tests and benchmarks should not wait for a
 * pace they are not measuring.
 */
export const MEMORY_CAPABILITIES: Capabilities = Object.freeze({
  maxMessageLength: 4096,
  markup: plainMarkup,
  editIntervalMs: Object.freeze({ private: 0, group: 0 }),
  typingLifetimeMs: 0,
  buttons: true,
  maxFilesPerMessage: 10,
  maxDownloadBytes: 20 * 1024 * 1024,
}) as Capabilities;
