/**
 * The kit's part for WhatsApp, which both WhatsApp adapters (WhatsApp Web and the Cloud API)
 * need and an adapter imports no other adapter: a platform without a command menu or a Start
 * button reads commands as words and greets a first contact itself, and both write WhatsApp's
 * markers. The rest of the kit is what every adapter needs.
 */
export { CommandWords, DEFAULT_COMMANDS, textForCore, type CommandInfo } from './command-words.js';
export {
  FirstContactGreeter,
  GREETING_CHECK_MAX_MS,
  GREETING_ID_PREFIX,
  greetedKey,
  greetingBefore,
  type FirstContactGreeterOptions,
} from './first-contact-greeting.js';
export { whatsappMarkup } from './markers.js';
