import type { Capabilities } from '../../src/gateway/types.js';

/** A terminal redraws freely, so the answer is "edited" in place as it streams. */
export function consoleCapabilities(interactive: boolean): Capabilities {
  return {
    maxMessageLength: 100_000,
    format: 'plain',
    canEdit: interactive,
    editIntervalMs: { private: 50, group: 50 },
    drafts: false,
    nativeStreaming: false,
    typingLifetimeMs: 0,
    buttons: true,
    maxFilesPerMessage: 10,
    maxDownloadBytes: 100 * 1024 * 1024,
  };
}
