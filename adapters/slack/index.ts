/**
 * The Slack adapter: Bolt on the Events API, over HTTP (an ExpressReceiver whose
 * router the gateway mounts at /slack/events and /slack/<bot>/events) or Socket
 * Mode (SLACK_APP_TOKEN). Events are acknowledged once queued (processBeforeResponse):
 * a message the gateway could not queue answers 500, and Slack sends it again.
 */
import { App, ExpressReceiver, SocketModeReceiver, type Receiver } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Adapter, HttpRoute, Inbound, InboundSink, Logger } from '../../src/contract.js';
import { AssistantPane } from './assistant.js';
import { boltLogger } from './bolt-logger.js';
import { slackCapabilities } from './capabilities.js';
import { createWebClient, webClientOptions } from './client.js';
import { restoreSlackAttachment, slackAttachments, type SlackFileSource } from './files.js';
import { SlackConnection } from './connection.js';
import { checkSocketModeToken } from './socket-token.js';
import { actionToInbound, assistantThreadToInbound, commandToInbound, isUserMessage, mentionsBot, messageToInbound, type SlackAssistantThreadEvent, type SlackBlockActions, type SlackCommandPayload, type SlackIdentity, type SlackMessageEvent } from './inbound.js';
import { BUTTON_ACTION_PREFIX, outboundForConversation, SlackOutbound } from './outbound.js';
import { ThreadMemory } from './threads.js';

export interface SlackAdapterOptions {
  /** Configured bot id (config `bots[].id`). */
  bot: string;
  /** xoxb- bot token (SLACK_BOT_TOKEN). */
  botToken: string;
  /** HTTP Events mode: the app's signing secret (SLACK_SIGNING_SECRET). */
  signingSecret?: string;
  /** Socket Mode: the xapp- app-level token with connections:write (SLACK_APP_TOKEN); wins over signingSecret. */
  appToken?: string;
  /** Web API base (SLACK_API_URL), e.g. a test fake; default https://slack.com/api/. */
  apiUrl?: string;
  /** Also serve the shared path POST /slack/events (the first bot with Slack); default true. */
  servesSharedPath?: boolean;
  logger: Logger;
}

export type SlackMode = 'http' | 'socket';

export type SlackAdapter = Adapter & {
  readonly mode: SlackMode;
  /** HTTP mode: the events endpoints, which the runtime mounts; none in Socket Mode. */
  readonly routes: readonly HttpRoute[];
};

/** Where a bot's events, interactivity and slash commands arrive (HTTP mode). */
export function eventsPath(bot: string): string {
  return `/slack/${bot}/events`;
}
/** The shared path, served by the first bot with Slack (mounted first, so it answers). */
export const SHARED_EVENTS_PATH = '/slack/events';

export function slackMode(options: Pick<SlackAdapterOptions, 'appToken' | 'signingSecret' | 'bot'>): SlackMode {
  if (options.appToken) return 'socket';
  if (options.signingSecret) return 'http';
  throw new Error(`Slack bot "${options.bot}" needs SLACK_SIGNING_SECRET (HTTP Events mode) or SLACK_APP_TOKEN (Socket Mode); set one (bots[].slack.signingSecret / appToken).`);
}

export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { logger } = options;
  const mode = slackMode(options);
  const client: WebClient = createWebClient(options.botToken, options.apiUrl, logger);
  const assistant = new AssistantPane(client, logger);
  const outbound = new SlackOutbound(client, assistant);
  const threads = new ThreadMemory(client, logger);
  let sink: InboundSink | undefined;
  let identity: SlackIdentity | undefined;

  const expressReceiver = mode === 'http'
    ? new ExpressReceiver({
      signingSecret: options.signingSecret!,
      // The runtime mounts the router at the events paths: it sees them as '/'.
      endpoints: '/',
      // The ack waits for the message to be queued: a failed accept answers 500 and Slack retries.
      // Queuing is one Redis step, well within Slack's 3 s; answering happens later, after the ack.
      processBeforeResponse: true,
      logger: boltLogger(logger),
    })
    : undefined;
  const receiver: Receiver = expressReceiver ?? new SocketModeReceiver({
    appToken: options.appToken!,
    logger: boltLogger(logger),
    installerOptions: { clientOptions: webClientOptions(options.apiUrl, logger) },
  });

  const app = new App({
    receiver,
    logger: boltLogger(logger),
    clientOptions: webClientOptions(options.apiUrl, logger),
    // Who we are comes from our own auth.test at start (retried while Slack is unreachable);
    // until then an event is refused (Slack retries it) instead of Bolt caching a failed auth.test.
    authorize: async () => {
      if (!identity) throw new Error(`Slack bot "${options.bot}" is not connected yet (auth.test pending)`);
      return { botToken: options.botToken, botId: identity.botId, botUserId: identity.botUserId, ...(identity.teamId ? { teamId: identity.teamId } : {}) };
    },
  });

  const deliver = async (inbound: Inbound): Promise<void> => {
    if (!sink) throw new Error(`Slack bot "${options.bot}" received an event before start() or after stop(); Slack will send it again`);
    await sink.accept(inbound);
  };
  const files: SlackFileSource = { botToken: options.botToken, ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}) };
  const context = (teamId: string | undefined) => ({
    bot: options.bot, identity: identity!, ...(teamId ? { teamId } : {}),
    attachments: (shared: Parameters<typeof slackAttachments>[1]) => slackAttachments(files, shared),
  });

  app.event('message', async ({ event, body }) => {
    const message = event as unknown as SlackMessageEvent;
    if (!identity || !isUserMessage(message, identity)) return;
    const teamId = (body as { team_id?: string }).team_id;
    if (message.channel_type === 'im') {
      // A DM: its top level is one conversation, each thread (the assistant pane's too) another.
      const inbound = messageToInbound(message, { channel: message.channel, ...(message.thread_ts ? { threadTs: message.thread_ts } : {}) }, context(teamId));
      await deliver(inbound);
      // After the message is queued, so the ack never waits for it; only DM threads are titled.
      void assistant.titleFromQuestion(inbound.conversation.id, inbound.text);
      return;
    }
    // In a channel: a mention comes again as app_mention (answered there); a thread reply
    // is answered without one when the bot answers in that thread.
    if (mentionsBot(message, identity) || !message.thread_ts) return;
    if (!(await threads.isOurs(message.channel, message.thread_ts, identity))) return;
    await deliver(messageToInbound(message, { channel: message.channel, threadTs: message.thread_ts }, context(teamId)));
  });

  app.event('app_mention', async ({ event, body }) => {
    const mention = event as unknown as SlackMessageEvent;
    if (!identity || !isUserMessage({ ...mention, subtype: undefined }, identity)) return;
    // Always answered in a thread: the one it was written in, or the one it starts.
    const threadTs = mention.thread_ts ?? mention.ts;
    threads.remember(mention.channel, threadTs);
    await deliver(messageToInbound(mention, { channel: mention.channel, threadTs }, context((body as { team_id?: string }).team_id)));
  });

  app.event('assistant_thread_started', async ({ event, body }) => {
    if (!identity) return;
    await deliver(assistantThreadToInbound(event as unknown as SlackAssistantThreadEvent, context((body as { team_id?: string }).team_id)));
  });

  // The user moved to another channel with the pane open. The chatbot does not use the
  // channel as context, so there is nothing to answer: acknowledging is all Slack needs.
  app.event('assistant_thread_context_changed', async () => undefined);

  app.command(/.*/, async ({ command, ack }) => {
    await ack();
    if (!identity) return;
    await deliver(commandToInbound(command as SlackCommandPayload, context(command.team_id)));
  });

  app.action(new RegExp(`^${BUTTON_ACTION_PREFIX}`), async ({ body, ack }) => {
    await ack();
    if (!identity || body.type !== 'block_actions') return;
    const inbound = actionToInbound(body as unknown as SlackBlockActions, context(undefined));
    if (inbound) await deliver(inbound);
  });

  app.error(async (error) => {
    // Rethrown so that the receiver answers 500 (HTTP) and Slack sends the event again.
    logger.error({ err: error }, 'slack: an event was not queued; Slack will send it again (HTTP mode)');
    throw error;
  });

  const routes: HttpRoute[] = expressReceiver
    ? [
      { path: eventsPath(options.bot), handler: expressReceiver.router },
      ...(options.servesSharedPath === false ? [] : [{ path: SHARED_EVENTS_PATH, handler: expressReceiver.router }]),
    ]
    : [];

  const connection = new SlackConnection({
    client, logger, bot: options.bot,
    onIdentity: (found) => {
      identity = found;
    },
  });
  let socketStarted = false;

  return {
    platform: 'slack',
    bot: options.bot,
    mode,
    capabilities: slackCapabilities,
    outbound,
    routes,
    outboundFor: (conversation) => outboundForConversation(outbound, conversation),
    restoreAttachment: (ref, info) => restoreSlackAttachment(files, ref, info),
    // HTTP: an event the gateway could not queue answers 500 and Slack retries it (3 times, up to
    // 5 minutes later). Socket Mode: Bolt acks the envelope and Slack does not send it again.
    redeliversOnAcceptFailure: mode === 'http',
    async start(newSink) {
      sink = newSink;
      try {
        await connection.start(async () => {
          if (mode === 'socket' && sink && !socketStarted) {
            // A refused app token fails here with what to fix, instead of Bolt retrying it forever.
            await checkSocketModeToken(options.appToken!, options.apiUrl, options.bot, logger);
            socketStarted = true;
            await app.start();
          }
          logger.info({ bot: options.bot, mode, botUserId: identity?.botUserId }, 'slack: started');
        });
      } catch (error) {
        // Not connected: /readyz must not count a bot whose socket could not open.
        connection.stop();
        sink = undefined;
        throw error;
      }
    },
    status: () => connection.status(),
    async stop() {
      connection.stop();
      if (socketStarted) {
        socketStarted = false;
        await app.stop().catch((error: unknown) => logger.warn({ err: error }, 'slack: Socket Mode did not stop cleanly'));
      }
      sink = undefined;
    },
  };
}
