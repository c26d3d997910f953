import { plainMarkup, type Capabilities } from '../../src/contract.js';

/**
 * A terminal has no limits worth the name and no edit window. Whether answers are
 * "edited" in place as they stream is not a flag: an interactive terminal gets an
 * outbound that can redraw (`RedrawingConsoleOutbound`, with `edit`), a pipe one that
 * cannot, so a piped answer arrives once, whole.
 */
/** The largest file the console saves for the person at the terminal (a WhatsApp document's size). */
export const CONSOLE_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

export function consoleCapabilities(): Capabilities {
  return {
    maxMessageLength: 100_000,
    markup: plainMarkup,
    editIntervalMs: { private: 50, group: 50 },
    typingLifetimeMs: 0,
    buttons: true,
    maxFilesPerMessage: 10,
    maxDownloadBytes: 100 * 1024 * 1024,
    // Files are saved to a directory, their captions printed under them (outbound.ts).
    maxUploadBytes: CONSOLE_MAX_UPLOAD_BYTES,
    maxCaptionLength: 100_000,
    // A line is a finished question: a piped script gets an answer per line, and nobody types in bubbles here.
    bursts: false,
  };
}
