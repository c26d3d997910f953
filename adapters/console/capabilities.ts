import { plainMarkup, type Capabilities } from '../../src/contract.js';

/**
 * A terminal has no limits worth the name and no edit window. Whether answers are
 * "edited" in place as they stream is not a flag: an interactive terminal gets an
 * outbound that can redraw (`RedrawingConsoleOutbound`, with `edit`), a pipe one that
 * cannot, so a piped answer arrives once, whole.
 */
export function consoleCapabilities(): Capabilities {
  return {
    maxMessageLength: 100_000,
    markup: plainMarkup,
    editIntervalMs: { private: 50, group: 50 },
    typingLifetimeMs: 0,
    buttons: true,
    maxFilesPerMessage: 10,
    maxDownloadBytes: 100 * 1024 * 1024,
  };
}
