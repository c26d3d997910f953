/**
 * The WhatsApp adapter: whatsapp-web.js drives WhatsApp Web in the system's Chromium,
 * through WhatsAppConnection (connection.ts: the bot's lease across replicas, RemoteAuth on
 * Redis, the watchdog). This file wires the messages: `message`, `message_edit` and
 * `message_revoke_everyone` listeners attached to every client before its `initialize()`, a
 * chat's messages and the users' changes to them handed to the core in the order they came,
 * the greeting of a first contact, and the outbound on whichever client is ready.
 * See README.md for linking a number and what users get.
 */
import {
  CommandWords,
  DEFAULT_COMMANDS,
  FirstContactGreeter,
  greetingBefore,
  SerialByKey,
  SinkHolder,
  type Adapter,
  type Inbound,
  type InboundRevision,
  type Logger,
  type PlatformStorage,
} from '../../src/contract.js';
import { whatsappCapabilities } from './capabilities.js';
import { WhatsAppConnection, type ConnectionTimings } from './connection.js';
import { userPart } from './conversation.js';
import { isIgnored, messageToInbound, type WhatsAppIdentity } from './inbound.js';
import type { WaClient, WaMessage, WhatsAppLibrary } from './library.js';
import { loadWhatsAppLibrary } from './load-library.js';
import { restoreMediaAttachment } from './media.js';
import { WhatsAppOutbound } from './outbound.js';
import { qrPageRoute } from './qr-page.js';
import { editToRevision, revokeToRevision } from './revisions.js';

export interface WhatsAppAdapterOptions {
  /** Configured bot id (config `bots[].id`). */
  bot: string;
  logger: Logger;
  storage: PlatformStorage;
  /** The browser (CHROMIUM_PATH, resolved by module.ts). */
  chromiumPath: string;
  /** CHROMIUM_NO_SANDBOX (bots[].whatsapp.chromiumNoSandbox); default: only when running as root. */
  chromiumNoSandbox?: boolean;
  /** WHATSAPP_PAIR_PHONE: link by pairing code instead of a QR. */
  pairPhone?: string;
  /** Least time between two edits of one message (ms); default 2,000, and never less. */
  editIntervalMs?: number;
  /** Tests hand the fake library; default: whatsapp-web.js by its package name (load-library.ts). */
  library?: () => Promise<WhatsAppLibrary>;
  /**
   * Greet a private chat's first message with the chatbot's WelcomeMessage (default true).
   * Off, a user is greeted only when they write `start`.
   */
  welcomeNewChats?: boolean;
  /** Lease, restart and watchdog timings of the connection (tests shorten them); default DEFAULT_CONNECTION_TIMINGS. */
  timings?: Partial<ConnectionTimings>;
  /** Draw the QR in the terminal; default when stderr is a TTY. */
  terminalQr?: boolean;
}

function identityOf(client: WaClient): WhatsAppIdentity | undefined {
  const wid = client.info?.wid;
  if (!wid?._serialized) return undefined;
  return { wid: wid._serialized, user: wid.user || userPart(wid._serialized) };
}

export function createWhatsAppAdapter(options: WhatsAppAdapterOptions): Adapter {
  const { logger, bot } = options;
  const sink = new SinkHolder({ who: `whatsapp bot "${bot}"`, what: 'a message' });
  let words = new CommandWords(DEFAULT_COMMANDS);
  const greeter =
    options.welcomeNewChats === false
      ? undefined
      : new FirstContactGreeter(options.storage, logger, { platform: 'whatsapp' });
  /**
   * One chat's messages, and the users' edits and deletions of them, reach the core in the order they
   * came (reading a message and the greeting take time): an edit never overtakes the message it changes.
   */
  const order = new SerialByKey();
  const deliver = async (inbound: Inbound): Promise<void> => {
    const first = greeter ? await greeter.isFirstContact(inbound) : false;
    if (first && !words.isStart(inbound.text)) await sink.accept(greetingBefore(inbound));
    await sink.accept(inbound);
    if (first) await greeter?.greeted(inbound.conversation.id);
  };

  const revise = (revision: InboundRevision): Promise<void> => sink.revise(revision);

  /** Who the bot is; undefined before `ready` (which sets client.info): then no mention can be recognised. */
  const identityFor = (client: WaClient, what: string): WhatsAppIdentity | undefined => {
    const identity = identityOf(client);
    if (!identity) logger.warn({ bot }, `whatsapp: ${what} arrived before the client knew its own number; not taken`);
    return identity;
  };

  const handle = async (client: WaClient, message: WaMessage): Promise<void> => {
    const identity = identityFor(client, 'a message');
    if (!identity) return;
    const result = await messageToInbound(message, { bot, identity, words });
    if (isIgnored(result)) {
      logger.debug({ reason: result.ignored, message: message.id?._serialized }, 'whatsapp: message not answered');
      return;
    }
    await deliver(result);
  };

  const handleEdit = async (client: WaClient, message: WaMessage, newBody: string, prevBody: string) => {
    const identity = identityFor(client, 'an edit');
    if (!identity) return;
    const revision = await editToRevision(message, newBody, prevBody, { bot, identity, words });
    if ('ignored' in revision) {
      logger.debug({ reason: revision.ignored, message: message.id?._serialized }, 'whatsapp: edit not taken');
      return;
    }
    await revise(revision);
  };

  const handleRevoke = async (message: WaMessage, revoked: WaMessage | null | undefined): Promise<void> => {
    const revision = revokeToRevision(message, revoked, bot);
    if ('ignored' in revision) {
      logger.debug({ reason: revision.ignored, message: message.id?._serialized }, 'whatsapp: deletion not taken');
      return;
    }
    await revise(revision);
  };

  /** Runs `work` in the chat's order; `what` names it in the log when it fails. */
  const inOrder = (message: WaMessage, what: string, work: () => Promise<void>): void => {
    const chat = message.from;
    order.run(chat, work).catch((error: unknown) => {
      // WhatsApp Web does not deliver a message again: all that is left is to say so.
      logger.error(
        { err: error, chat, message: message.id?._serialized },
        `whatsapp: ${what} could not be handed to the gateway`,
      );
    });
  };

  const listen = (client: WaClient): void => {
    client.on('message', (message) => inOrder(message, 'a message', () => handle(client, message)));
    client.on('message_edit', (message, newBody, prevBody) => {
      // Most edits are the bot's own answers growing: dropped here, not queued behind the chat's messages.
      if (message.fromMe) return;
      inOrder(message, 'an edit', () => handleEdit(client, message, String(newBody), String(prevBody)));
    });
    client.on('message_revoke_everyone', (message, revoked) => {
      if (message.fromMe) return;
      inOrder(message, 'a deletion', () => handleRevoke(message, revoked));
    });
  };

  const connection = new WhatsAppConnection({
    bot,
    logger,
    storage: options.storage,
    library: options.library ?? loadWhatsAppLibrary,
    chromiumPath: options.chromiumPath,
    ...(options.chromiumNoSandbox !== undefined ? { chromiumNoSandbox: options.chromiumNoSandbox } : {}),
    ...(options.pairPhone ? { pairPhone: options.pairPhone } : {}),
    ...(options.timings ? { timings: options.timings } : {}),
    ...(options.terminalQr !== undefined ? { terminalQr: options.terminalQr } : {}),
    attach: listen,
  });

  const outbound = new WhatsAppOutbound({
    bot,
    logger,
    client: () => connection.client(),
    notReadyReason: () => connection.status().reason,
    library: options.library ?? loadWhatsAppLibrary,
  });

  return {
    platform: 'whatsapp',
    bot,
    capabilities: whatsappCapabilities(
      options.editIntervalMs === undefined ? {} : { editIntervalMs: options.editIntervalMs },
    ),
    outbound,
    routes: [qrPageRoute(bot, connection)],
    // WhatsApp Web hands a message to the linked device once: the core's PatientSink holds it while Redis is down.
    redeliversOnAcceptFailure: false,
    restoreAttachment: (ref, info) => restoreMediaAttachment(() => connection.client(), ref, info),
    async start(newSink, info) {
      if (info?.commands.length) words = new CommandWords(info.commands);
      sink.hold(newSink);
      try {
        await connection.start();
      } catch (error) {
        sink.release();
        throw error;
      }
    },
    status: () => connection.status(),
    async stop() {
      await connection.stop();
      // Messages already received are handed over (the core's PatientSink gives up on its own when stopping).
      await order.idle();
      sink.release();
    },
  };
}
