/**
 * Loads whatsapp-web.js by its package name, in the gateway's process, only when a bot
 * runs WhatsApp (it pulls in puppeteer, which the other platforms never need). Tests of
 * the whole process swap the package for the fake by a module hook (fakes/whatsapp),
 * so this is the only way the library is ever loaded.
 */
import type { WhatsAppLibrary } from './library.js';

export async function loadWhatsAppLibrary(): Promise<WhatsAppLibrary> {
  const module = await import('whatsapp-web.js');
  // The package is CommonJS: its exports arrive as `default`. Assigning it to the
  // interface is the compile-time check that library.ts still describes the real thing.
  const library: WhatsAppLibrary = module.default;
  return library;
}
