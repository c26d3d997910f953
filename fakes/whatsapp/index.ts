/**
 * A fake WhatsApp for tests and benchmarks: whatsapp-web.js cannot run offline, so the
 * adapter runs on a fake of the library (library.ts: Client, RemoteAuth, MessageMedia)
 * whose clients talk to this world over a WebSocket, in this process or another one.
 *
 *   const fake = await startFakeWhatsApp({ qrIntervalMs: 200 });
 *   const { Client, RemoteAuth } = fake.library;          // in this process
 *   // or another process: NODE_OPTIONS="--import <abs>/fakes/whatsapp/register.mjs", FAKE_WHATSAPP_URL=fake.url
 *   fake.scanQr();                                        // once a client shows a QR
 *   const sent = fake.userSends({ from: '4915112345678', text: 'hi' });
 *   await fake.waitFor(() => fake.screen(sent.from).length > 0);
 */
import type { WhatsAppLibrary } from '../../adapters/whatsapp/library.js';
import { waitForChange } from '../wait-for.js';
import { createFakeLibrary } from './library.js';
import type { MessageData } from './protocol.js';
import { startWorldServer } from './server.js';
import {
  World,
  type ClientView,
  type LoggedCall,
  type UserMedia,
  type UserMessageInput,
  type WorldOptions,
} from './world.js';

export type { ClientView, LoggedCall, MessageData, UserMedia, UserMessageInput, WorldOptions };
export { MAX_DOCUMENT_BYTES, MAX_MEDIA_BYTES, MAX_TEXT_LENGTH, TYPING_MS } from './world.js';
export { readZip, writeZip } from './zip.js';

export interface FakeWhatsApp {
  /** The world's address: FAKE_WHATSAPP_URL for a process whose whatsapp-web.js is the fake (register.mjs). */
  readonly url: string;
  /** The fake library bound to this world, for a client in the test's process. */
  readonly library: WhatsAppLibrary;
  /** The bot's number (digits) and id (`<number>@c.us`). */
  readonly number: string;
  readonly botId: string;
  /** The world itself, for what this handle does not name. */
  readonly world: World;

  // linking and the devices
  scanQr(options?: { client?: number }): number;
  enterPairingCode(code: string): number;
  clients(): ClientView[];
  linkedClients(): ClientView[];
  /** Every linked device gets disconnected(reason); 'LOGOUT' also invalidates the stored session. */
  disconnect(reason: string): void;
  refuseSession(): void;

  // users
  userSends(input: UserMessageInput): MessageData;
  /** The user edits their message (by its id `_serialized`): `message_edit` with the new text. */
  userEdits(messageId: string, text: string): MessageData;
  /** The user deletes their message for everyone: `message_revoke_everyone`; returns the revoked message. */
  userRevokes(messageId: string, options?: { withoutBefore?: boolean }): MessageData;
  redeliver(message: MessageData): void;
  expireMedia(messageId: string): void;

  // faults
  goUnreachable(): void;
  comeBack(): void;
  hangGetState(on?: boolean): void;
  refuseNextEdit(times?: number): void;
  /** Edits of messages older than this resolve null (default 15 minutes). */
  setEditWindowMs(ms: number): void;

  // the user's screen
  screen(chat: string): string[];
  renders(chat: string): string[];
  sentMedia(chat: string): ReturnType<World['sentMedia']>;
  typing(chat: string): boolean;
  seen(chat: string): boolean;
  calls(): LoggedCall[];

  /** Resolves once `predicate` holds (checked on every change of the world and every 25 ms); rejects after timeoutMs (default 5000). */
  waitFor(predicate: () => boolean, options?: { timeoutMs?: number; what?: string }): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeWhatsApp(options: WorldOptions = {}): Promise<FakeWhatsApp> {
  const world = new World(options);
  const server = await startWorldServer(world);
  return {
    url: server.url,
    library: createFakeLibrary(server.url),
    number: world.number,
    botId: world.botId,
    world,
    scanQr: (o) => world.scanQr(o),
    enterPairingCode: (code) => world.enterPairingCode(code),
    clients: () => world.clients(),
    linkedClients: () => world.linkedClients(),
    disconnect: (reason) => world.disconnect(reason),
    refuseSession: () => world.refuseSession(),
    userSends: (input) => world.userSends(input),
    userEdits: (id, text) => world.userEdits(id, text),
    userRevokes: (id, o) => world.userRevokes(id, o),
    redeliver: (message) => world.redeliver(message),
    expireMedia: (id) => world.expireMedia(id),
    goUnreachable: () => world.goUnreachable(),
    comeBack: () => world.comeBack(),
    hangGetState: (on) => world.hangGetState(on),
    refuseNextEdit: (times) => world.refuseNextEdit(times),
    setEditWindowMs: (ms) => {
      world.editWindowMs = ms;
    },
    screen: (chat) => world.screen(chat),
    renders: (chat) => world.renders(chat),
    sentMedia: (chat) => world.sentMedia(chat),
    typing: (chat) => world.typing(chat),
    seen: (chat) => world.seen(chat),
    calls: () => world.calls(),
    waitFor: (predicate, o) => waitForChange('fake WhatsApp', world, predicate, o),
    close: async () => {
      world.shutdown();
      await server.close();
    },
  };
}
