/**
 * The WhatsApp Business Cloud API adapter: Meta's webhook in (webhook-route.ts: signature,
 * shape, each message queued before the 200), the Graph API out (outbound.ts). A user's
 * messages, and their edits and deletions of them (revisions.ts), reach the core in the order
 * Meta delivered them (SerialByKey per user), the first one greeted with the WelcomeMessage (the
 * kit's FirstContactGreeter), a reply with a number turned into the choice it names (choices.ts),
 * a reply to one of the bot's messages carrying what it said (sent-texts.ts). Webhooks make
 * replicas natural: any process serving the bot takes any message, and fetches any file again by
 * its media id. See README.md.
 */
import {
  CommandWords,
  CredentialWatch,
  DEFAULT_COMMANDS,
  FirstContactGreeter,
  greetingBefore,
  SerialByKey,
  SinkHolder,
  WebhookGate,
  type Adapter,
  type HttpRoute,
  type Inbound,
  type InboundRevision,
  type Logger,
  type PlatformMetrics,
  type PlatformStorage,
} from '../../src/contract.js';
import { cloudCapabilities } from './capabilities.js';
import { ACCESS_TOKEN_REFUSED } from './errors.js';
import { NumberedChoices } from './choices.js';
import type { CloudMessage, MessagesChange } from './events.js';
import { GraphClient } from './graph.js';
import { idChange, CloudIdentities } from './identities.js';
import { isIgnored, messageToInbound, PLATFORM, quotedId, senderOf, type Ignored } from './inbound.js';
import { restoreMediaAttachment } from './media.js';
import { CloudOutbound } from './outbound.js';
import { deletion, editedMessage } from './revisions.js';
import { SentTexts } from './sent-texts.js';
import { StatusLog } from './statuses.js';
import { cloudWebhookRouter } from './webhook-route.js';
import type { Backoff } from '../../src/contract.js';

export interface CloudAdapterOptions {
  /** Configured bot id (config `bots[].id`). */
  bot: string;
  /** WHATSAPP_CLOUD_ACCESS_TOKEN: a system user's token with whatsapp_business_messaging. */
  accessToken: string;
  /** WHATSAPP_CLOUD_PHONE_NUMBER_ID: the id of the business number (not the number). */
  phoneNumberId: string;
  /** WHATSAPP_CLOUD_APP_SECRET: the Meta app's secret, which signs every webhook. */
  appSecret: string;
  /** WHATSAPP_CLOUD_VERIFY_TOKEN: what Meta's webhook handshake must present. */
  verifyToken: string;
  /** WHATSAPP_CLOUD_API_URL: the Graph base with its version (a fake or a proxy in tests). */
  apiUrl: string;
  logger: Logger;
  storage: PlatformStorage;
  metrics?: PlatformMetrics;
  /** Also serve the shared path /whatsapp-cloud/webhook (the first bot mounted there answers); default true. */
  servesSharedPath?: boolean;
  /** Greet a user's first message with the WelcomeMessage (default true). */
  welcomeNewUsers?: boolean;
  /** Tests shorten the waits on Meta's rate limits (outbound.ts). */
  rateLimitBackoff?: Backoff;
  rateLimitPatienceMs?: number;
}

/** Where a bot's webhook is served (and set in the Meta app, under the gateway's public URL). */
export function webhookPath(bot: string): string {
  return `/whatsapp-cloud/${bot}/webhook`;
}
/** The shared path, served by the first bot with a Cloud number (mounted first, so it answers). */
export const SHARED_WEBHOOK_PATH = '/whatsapp-cloud/webhook';

export function createWhatsAppCloudAdapter(
  options: CloudAdapterOptions,
): Adapter & { readonly routes: readonly HttpRoute[] } {
  const { bot, logger } = options;
  const graph = new GraphClient({ apiUrl: options.apiUrl, accessToken: options.accessToken });
  const sink = new SinkHolder({
    who: `WhatsApp Cloud bot "${bot}"`,
    what: 'a message',
    then: 'Meta will send it again',
  });
  const gate = new WebhookGate(`WhatsApp Cloud bot "${bot}" is starting`);
  const order = new SerialByKey();
  const choices = new NumberedChoices(options.storage, logger);
  const identities = new CloudIdentities(options.storage, logger);
  const sentTexts = new SentTexts(options.storage, logger);
  const greeter =
    options.welcomeNewUsers === false
      ? undefined
      : new FirstContactGreeter(options.storage, logger, { platform: 'whatsapp-cloud' });
  const statuses = new StatusLog(logger, options.metrics);
  /** Ends the outbound's waits on Meta's rate limits when the adapter stops; a new one at each start. */
  let stopping = new AbortController();
  let words = new CommandWords(DEFAULT_COMMANDS);
  /** Numbers whose messages reached this bot's webhook, warned about once each. */
  const otherNumbers = new Set<string>();

  // A revoked token: not connected (/readyz) until a call or the probe gets through; the core waits the answers out.
  const credentials = new CredentialWatch({
    reason: `${ACCESS_TOKEN_REFUSED}, for bot "${bot}"`,
    probe: async (signal) => {
      await graph.get([options.phoneNumberId], 'GET /{phone-number-id}', signal);
    },
    logger,
  });
  const cloudOutbound = new CloudOutbound({
    graph,
    phoneNumberId: options.phoneNumberId,
    choices,
    addressOf: (conversationId) => identities.addressOf(conversationId),
    sentTexts,
    logger,
    stopping: () => stopping.signal,
    ...(options.rateLimitBackoff ? { rateLimitBackoff: options.rateLimitBackoff } : {}),
    ...(options.rateLimitPatienceMs !== undefined ? { rateLimitPatienceMs: options.rateLimitPatienceMs } : {}),
  });
  const outbound = credentials.watch(cloudOutbound);

  const deliver = async (inbound: Inbound): Promise<void> => {
    const message = await choices.resolve(inbound);
    const first = greeter ? await greeter.isFirstContact(message) : false;
    if (first && !words.isStart(message.text)) await sink.accept(greetingBefore(message));
    await sink.accept(message);
    if (first) await greeter?.greeted(message.conversation.id);
  };

  /** The message as the core gets it, with the bot's message it quotes. */
  const inboundOf = async (
    message: CloudMessage,
    names: ReadonlyMap<string, string>,
    conversationId: string | undefined,
  ): Promise<Inbound | Ignored> => {
    const inbound = messageToInbound(message, names, { bot, graph, words }, conversationId);
    if (isIgnored(inbound)) return inbound;
    const quoting = quotedId(message);
    const quoted = quoting ? await sentTexts.quoted(inbound.conversation.id, quoting) : undefined;
    return quoted ? { ...inbound, quoted } : inbound;
  };

  const revise = (revision: InboundRevision): Promise<void> => sink.revise(revision);

  /** A user's edit: never a new question; the message as it reads now, under its original wamid. */
  const handleEdit = async (
    message: CloudMessage,
    names: ReadonlyMap<string, string>,
    conversationId: string | undefined,
  ): Promise<void> => {
    const edited = editedMessage(message);
    const inbound = edited
      ? await inboundOf(edited, names, conversationId)
      : { ignored: 'an edit without its edit object' };
    if (isIgnored(inbound)) {
      logger.debug({ reason: inbound.ignored, message: message.id }, 'whatsapp-cloud: edit not taken');
      return;
    }
    await revise({ kind: 'edited', message: await choices.resolve(inbound) });
  };

  const handle = async (message: CloudMessage, names: ReadonlyMap<string, string>): Promise<void> => {
    const sender = senderOf(message);
    const conversationId = sender === undefined ? undefined : await identities.conversationOf(sender);
    if (message.type === 'edit') {
      await handleEdit(message, names, conversationId);
      return;
    }
    if (message.type === 'revoke') {
      const revision = deletion(message, names, bot, conversationId);
      if ('ignored' in revision)
        logger.debug({ reason: revision.ignored, message: message.id }, 'whatsapp-cloud: deletion not taken');
      else await revise(revision);
      return;
    }
    const result = await inboundOf(message, names, conversationId);
    if (isIgnored(result)) {
      logger.debug({ reason: result.ignored, message: message.id }, 'whatsapp-cloud: message not answered');
      return;
    }
    await deliver(result);
  };

  /** Meta's notice that a user's business-scoped id changed: the new id joins their conversation. */
  const noticeOf = async (message: CloudMessage): Promise<void> => {
    if (message.system?.type !== 'user_changed_user_id') {
      logger.debug({ type: message.system?.type, message: message.id }, 'whatsapp-cloud: system notice not answered');
      return;
    }
    const change = idChange(message);
    if (!change) {
      logger.warn({ message: message.id }, 'whatsapp-cloud: a user_changed_user_id notice without both ids; skipped');
      return;
    }
    await identities.changed(change.previous, change.next);
  };

  const dispatch = async (changes: readonly MessagesChange[]): Promise<void> => {
    const queued: Promise<void>[] = [];
    for (const change of changes) {
      if (change.phoneNumberId !== options.phoneNumberId) {
        if (!otherNumbers.has(change.phoneNumberId)) {
          otherNumbers.add(change.phoneNumberId);
          logger.warn(
            { bot, phoneNumberId: change.phoneNumberId, ours: options.phoneNumberId },
            `whatsapp-cloud: a webhook for another phone number id reached bot "${bot}"; not answered. ` +
              'Give each number its own bot and point its webhook at /whatsapp-cloud/<bot id>/webhook',
          );
        }
        continue;
      }
      for (const item of change.unreadable) {
        // Acknowledged with the rest: Meta would post the whole batch again for 7 days, and it would not read better then.
        logger.warn(
          { bot, ...item },
          'whatsapp-cloud: skipped a message or status of a shape the adapter does not read',
        );
      }
      for (const status of change.statuses) statuses.record(status);
      // Notices first: a user's text after their id changed, in the same batch, belongs to the conversation they had.
      const notices = change.messages.filter((message) => message.type === 'system');
      for (const notice of notices) await noticeOf(notice);
      for (const message of change.messages) {
        if (message.type === 'system') continue;
        const key = senderOf(message) ?? message.id;
        queued.push(order.run(key, () => handle(message, change.names)));
      }
    }
    // Every message handed over (or failed) before the answer: a 500 makes Meta send them all again.
    const settled = await Promise.allSettled(queued);
    const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  };

  const route = cloudWebhookRouter({
    bot,
    appSecret: options.appSecret,
    verifyToken: options.verifyToken,
    logger,
    admit: (maxWaitMs) => gate.admit(maxWaitMs),
    // The choices and the greeting read Redis too: the whole request is answered within the core's bound.
    dispatch: (changes) => sink.bounded(() => dispatch(changes)),
  });
  const routes: HttpRoute[] = [
    { path: webhookPath(bot), handler: route },
    ...(options.servesSharedPath === false ? [] : [{ path: SHARED_WEBHOOK_PATH, handler: route }]),
  ];

  return {
    platform: PLATFORM,
    bot,
    capabilities: cloudCapabilities,
    outbound,
    routes,
    // Meta retries a webhook that was not answered 200 for up to 7 days.
    redeliversOnAcceptFailure: true,
    restoreAttachment: (ref, info) => restoreMediaAttachment(graph, ref, info),
    // Nothing to connect to: connected unless Meta refuses the token.
    status: () => credentials.status() ?? { connected: true },
    async start(newSink, info) {
      if (info?.commands.length) words = new CommandWords(info.commands);
      if (stopping.signal.aborted) stopping = new AbortController();
      sink.hold(newSink);
      // Nothing to connect: Meta posts to us. The token is checked by `chatbridge doctor`; a refused one makes the bot not connected.
      gate.open();
      logger.info({ bot, phoneNumberId: options.phoneNumberId }, 'whatsapp-cloud: started');
    },
    async stop() {
      gate.close(`WhatsApp Cloud bot "${bot}" is stopping`);
      stopping.abort();
      credentials.stop();
      // What was received is handed over; Meta sends what was not acknowledged again.
      await order.idle();
      sink.release();
    },
  };
}
