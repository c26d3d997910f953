/**
 * The contract's kit: machinery every adapter needs, written once (docs/architecture.md §3):
 * the project's one backoff and a retry loop on it, staying connected to a platform, handing a
 * conversation's messages over in order, and the sink held between start() and stop(); for
 * platforms without a command menu or a Start button (WhatsApp Web, the Cloud API), commands
 * as words and the greeting of a first contact, and WhatsApp's marker markup both declare.
 * `readCapped` (src/contract/adapter.ts) is the kit's attachment reader.
 */
export { backoffDelay, retryWithBackoff, type Backoff, type RetryWithBackoffOptions } from './backoff.js';
export { ConnectRefusedError, RECONNECT_BACKOFF, StayConnected, type StayConnectedOptions } from './stay-connected.js';
export { SerialByKey } from './serial-by-key.js';
export { AdapterNotStartedError, SinkHolder, type NotStartedWords } from './sink-holder.js';
export { CommandWords, DEFAULT_COMMANDS, textForCore, type CommandInfo } from './command-words.js';
export {
  FirstContactGreeter,
  GREETING_CHECK_MAX_MS,
  GREETING_ID_PREFIX,
  greetedKey,
  greetingBefore,
  type FirstContactGreeterOptions,
} from './first-contact-greeting.js';
export { whatsappMarkup } from './whatsapp-markers.js';
