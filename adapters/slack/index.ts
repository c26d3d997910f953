/**
 * The Slack adapter: the Events API over HTTP (our own endpoint, events-route.ts, which the
 * gateway mounts at /slack/events and /slack/<bot>/events) or Socket Mode (SLACK_APP_TOKEN,
 * through Bolt: socket-mode.ts); both parse what Slack sends with one set of schemas
 * (events.ts) and hand it to one dispatcher (dispatch.ts). Over HTTP an event is
 * acknowledged once queued: a message the gateway could not queue answers 500, and Slack
 * sends it again. An operator door sharing the app (operators/) takes the events of its
 * channel through `divertChannel`; they never reach the user intake.
 */
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import {
  CredentialWatch,
  SerialByKey,
  SinkHolder,
  WebhookGate,
  type Adapter,
  type HttpRoute,
  type Logger,
} from '../../src/contract.js';
import { AssistantPane } from './assistant.js';
import { slackCapabilities } from './capabilities.js';
import { createWebClient } from './client.js';
import { createSlackDispatch, type SlackDispatch } from './dispatch.js';
import { TOKEN_REFUSED } from './errors.js';
import { slackEventsRouter } from './events-route.js';
import { restoreSlackAttachment, type SlackFileSource } from './files.js';
import { SlackConnection } from './connection.js';
import { createSocketModeApp } from './socket-mode.js';
import { checkSocketModeToken } from './socket-token.js';
import type { SlackInput } from './events.js';
import type { SlackIdentity } from './inbound.js';
import { outboundForConversation, SlackOutbound } from './outbound.js';
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

/** Takes what Slack sends from one channel instead of the user intake (an operator door's channel). */
export type ChannelHandler = (input: SlackInput) => Promise<void>;

export type SlackAdapter = Adapter & {
  readonly mode: SlackMode;
  /** HTTP mode: the events endpoints, which the runtime mounts; none in Socket Mode. */
  readonly routes: readonly HttpRoute[];
  /** The app's Web API client, for an operator door that shares this app (operators/). */
  readonly client: WebClient;
  /** How this app downloads files people share, for the same door. */
  readonly fileSource: SlackFileSource;
  /**
   * Hands the messages and button presses of `channel` (an operators' channel) to `handler`
   * instead of the user intake; everything else (DMs, other channels, slash commands) is
   * unchanged. Set before start. Over HTTP the request answers 200 once `handler` resolved,
   * 500 when it rejected (Slack sends it again); over Socket Mode it is acknowledged first.
   */
  divertChannel(channel: string, handler: ChannelHandler): void;
};

/** The adapters this folder built: an operator door shares only one of these. */
const built = new WeakSet<Adapter>();

export function isSlackAdapter(adapter: Adapter | undefined): adapter is SlackAdapter {
  return adapter !== undefined && built.has(adapter);
}

/** Whether Slack's request comes from `channel`: a message (or mention) there, or a press on a message there. */
function fromChannel(input: SlackInput, channel: string): boolean {
  if (input.kind === 'event') return input.event.type !== 'assistant_thread_started' && input.event.channel === channel;
  return input.kind === 'action' && input.payload.channel?.id === channel;
}

/** Where a bot's events, interactivity and slash commands arrive (HTTP mode). */
export function eventsPath(bot: string): string {
  return `/slack/${bot}/events`;
}
/** The shared path, served by the first bot with Slack (mounted first, so it answers). */
export const SHARED_EVENTS_PATH = '/slack/events';

export function slackMode(options: Pick<SlackAdapterOptions, 'appToken' | 'signingSecret' | 'bot'>): SlackMode {
  if (options.appToken) return 'socket';
  if (options.signingSecret) return 'http';
  throw new Error(
    `Slack bot "${options.bot}" needs SLACK_SIGNING_SECRET (HTTP Events mode) or SLACK_APP_TOKEN (Socket Mode); ` +
      'set one (bots[].slack.signingSecret / appToken).',
  );
}

export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { logger } = options;
  const mode = slackMode(options);
  const client: WebClient = createWebClient(options.botToken, options.apiUrl, logger);
  const assistant = new AssistantPane(client, logger);
  // A token revoked after the start: not connected (/readyz) until a call or the probe gets through; the core waits the answers out.
  const credentials = new CredentialWatch({
    reason: `${TOKEN_REFUSED}, for bot "${options.bot}"`,
    probe: async () => {
      await client.auth.test();
    },
    logger,
  });
  const outbound = credentials.watch(new SlackOutbound(client, assistant));
  const threads = new ThreadMemory(client, logger);
  const sink = new SinkHolder({
    who: `Slack bot "${options.bot}"`,
    what: 'an event',
    then: 'Slack will send it again',
  });
  const order = new SerialByKey();
  let identity: SlackIdentity | undefined;
  // Over HTTP, events wait here (bounded) until the adapter has its sink and knows who the bot is.
  const gate = new WebhookGate(`Slack bot "${options.bot}" is starting`);

  const files: SlackFileSource = { botToken: options.botToken, ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}) };
  let diversion: { channel: string; handler: ChannelHandler } | undefined;
  /** The diverted channel's handling, or undefined for the user intake's. */
  const diverted = (input: SlackInput): Promise<void> | undefined =>
    diversion && fromChannel(input, diversion.channel) ? diversion.handler(input) : undefined;
  const intake = createSlackDispatch({
    bot: options.bot,
    files,
    threads,
    assistant,
    deliver: (inbound) => sink.accept(inbound),
    revise: (revision) => sink.revise(revision),
    order,
  });
  const dispatch: SlackDispatch = (input, identity) => diverted(input) ?? intake(input, identity);

  const socketApp: App | undefined =
    mode === 'socket'
      ? createSocketModeApp({
          bot: options.bot,
          botToken: options.botToken,
          appToken: options.appToken!,
          ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}),
          logger,
          identity: () => identity,
          dispatch,
        })
      : undefined;
  const eventsRoute =
    mode === 'http'
      ? slackEventsRouter({
          bot: options.bot,
          signingSecret: options.signingSecret!,
          logger,
          admit: (maxWaitMs) => gate.admit(maxWaitMs),
          // Admitted: the identity is known. Answered within the core's bound for a webhook (InboundSink.bounded);
          // a diverted channel's within its door's own time.
          dispatch: (input) => diverted(input) ?? sink.bounded(() => intake(input, identity!)),
        })
      : undefined;
  const routes: HttpRoute[] = eventsRoute
    ? [
        { path: eventsPath(options.bot), handler: eventsRoute },
        ...(options.servesSharedPath === false ? [] : [{ path: SHARED_EVENTS_PATH, handler: eventsRoute }]),
      ]
    : [];

  const connection = new SlackConnection({
    client,
    logger,
    bot: options.bot,
    onIdentity: (found) => {
      identity = found;
    },
  });
  let socketStarted = false;

  const adapter: SlackAdapter = {
    platform: 'slack',
    bot: options.bot,
    mode,
    capabilities: slackCapabilities,
    outbound,
    routes,
    client,
    fileSource: files,
    divertChannel(channel, handler) {
      diversion = { channel, handler };
    },
    outboundFor: (conversation) => outboundForConversation(outbound, conversation),
    restoreAttachment: (ref, info) => restoreSlackAttachment(files, ref, info),
    // HTTP: an event the gateway could not queue answers 500 and Slack retries it (3 times, up to
    // 5 minutes later). Socket Mode: Bolt acks the envelope and Slack does not send it again.
    redeliversOnAcceptFailure: mode === 'http',
    async start(newSink) {
      sink.hold(newSink);
      gate.starting(`Slack bot "${options.bot}" is starting (auth.test pending)`);
      try {
        await connection.start(async () => {
          if (socketApp && sink.holding && !socketStarted) {
            // A refused app token fails here with what to fix, instead of Bolt retrying it forever.
            await checkSocketModeToken(options.appToken!, options.apiUrl, options.bot, logger);
            socketStarted = true;
            await socketApp.start();
          }
          gate.open();
          logger.info({ bot: options.bot, mode, botUserId: identity?.botUserId }, 'slack: started');
        });
      } catch (error) {
        // Not connected: /readyz must not count a bot whose socket could not open.
        connection.stop();
        sink.release();
        gate.close(`Slack bot "${options.bot}" could not start: ${(error as Error).message}`);
        throw error;
      }
      const status = connection.status();
      // auth.test is retried in the background; until it answers, who the bot is stays unknown.
      if (!status.connected)
        gate.close(
          `Slack's Web API did not answer auth.test for bot "${options.bot}" (${status.reason ?? 'unreachable'}); trying again`,
        );
    },
    status: () => credentials.status() ?? connection.status(),
    async stop() {
      gate.close(`Slack bot "${options.bot}" is stopping`);
      connection.stop();
      credentials.stop();
      if (socketStarted && socketApp) {
        socketStarted = false;
        await socketApp
          .stop()
          .catch((error: unknown) => logger.warn({ err: error }, 'slack: Socket Mode did not stop cleanly'));
      }
      // What was received is handed over (over the socket it was acknowledged: Slack will not send it again).
      await order.idle();
      sink.release();
    },
  };
  built.add(adapter);
  return adapter;
}
