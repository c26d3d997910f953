/**
 * STUB (interface agreed between the adapter and the connection work; the body lands next):
 * the one WhatsApp Web client of a bot. It takes the bot's lease (one browser per number
 * across replicas), builds the client with RemoteAuth on the Redis session store, lets the
 * adapter attach its listeners before `initialize()`, and keeps it alive (watchdog).
 */
import type { AdapterStatus, Logger, PlatformStorage } from '../../src/contract.js';
import type { WaClient, WhatsAppLibrary } from './library.js';

export interface WhatsAppConnectionOptions {
  bot: string;
  logger: Logger;
  storage: PlatformStorage;
  /** How the library is loaded: loadWhatsAppLibrary in production; tests hand the fake. */
  library: () => Promise<WhatsAppLibrary>;
  /** The browser (CHROMIUM_PATH). */
  chromiumPath: string;
  /** Link by pairing code on this phone number (international, digits only) instead of a QR. */
  pairPhone?: string;
  /**
   * Called with every new client, before its `initialize()`: the adapter adds its
   * listeners here (messages), so that no event is emitted before someone listens.
   */
  attach(client: WaClient): void;
}

/** What the QR page and the terminal show about the link. */
export type LinkState =
  | { state: 'starting' }
  /** Another process holds the bot's lease and runs its browser. */
  | { state: 'standby' }
  | { state: 'waiting-for-scan'; qr: string; pairingCode?: string }
  | { state: 'linked'; number: string; name?: string }
  | { state: 'failed'; reason: string };

export class WhatsAppConnection {
  constructor(readonly options: WhatsAppConnectionOptions) {}

  /** Resolves at once (the browser starts in the background); rejects only for what retrying cannot fix (no Chromium at the path). */
  async start(): Promise<void> {
    throw new Error('WhatsAppConnection is not built yet');
  }

  /** Destroys the client (never logs out: that would delete the stored session) and releases the lease. */
  async stop(): Promise<void> {}

  status(): AdapterStatus {
    return { connected: false, reason: 'not built yet' };
  }

  /** The ready client, when this process holds the lease and WhatsApp Web is ready; undefined otherwise. */
  client(): WaClient | undefined {
    return undefined;
  }

  link(): LinkState {
    return { state: 'starting' };
  }
}
