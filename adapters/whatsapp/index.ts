/**
 * STUB (the adapter lands next): the WhatsApp adapter, on whatsapp-web.js through
 * WhatsAppConnection (connection.ts). Options agreed between the adapter and module.ts.
 */
import type { Adapter, Logger, PlatformStorage } from '../../src/contract.js';
import type { WhatsAppLibrary } from './library.js';

export interface WhatsAppAdapterOptions {
  /** Configured bot id (config `bots[].id`). */
  bot: string;
  logger: Logger;
  storage: PlatformStorage;
  /** The browser (CHROMIUM_PATH, resolved by module.ts). */
  chromiumPath: string;
  /** WHATSAPP_PAIR_PHONE: link by pairing code instead of a QR. */
  pairPhone?: string;
  /** Least time between two edits of one message (ms); default 2,000. */
  editIntervalMs?: number;
  /** Tests hand the fake library; default: whatsapp-web.js by its package name (load-library.ts). */
  library?: () => Promise<WhatsAppLibrary>;
}

export function createWhatsAppAdapter(options: WhatsAppAdapterOptions): Adapter {
  throw new Error(`the WhatsApp adapter (bot "${options.bot}") is not built yet`);
}
