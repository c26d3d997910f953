/**
 * How what people do in the operators' channel reaches the door, in its three set-ups:
 *
 * - its own app over HTTP (signing secret): events and button presses at
 *   POST /slack/operators/events (and /slack/operators/<bot>/events, when several bots each
 *   have an operators' app), checked and answered as the adapter's own events route does
 *   (events-route.ts: 401 unsigned, url_verification answered, 200 once the handoff dealt
 *   with it, 500 otherwise so that Slack sends it again, 503 until the door is started);
 * - its own app over Socket Mode (app token), through Bolt as the adapter's socket-mode.ts;
 * - the bot's own Slack app: that adapter hands over the channel's events (divertChannel).
 */
import { App, SocketModeReceiver } from '@slack/bolt';
import { WebhookGate, type HttpRoute, type Logger } from '../../../src/contract.js';
import { boltLogger } from '../bolt-logger.js';
import { webClientOptions } from '../client.js';
import { classifySlackBody } from '../events.js';
import { slackEventsRouter } from '../events-route.js';
import type { SlackAdapter } from '../index.js';
import { checkSocketModeToken } from '../socket-token.js';
import type { DoorEventHandler } from './events.js';

/** Where the door's own app sends events and interactivity (its manifest's request URLs). */
export const OPERATORS_EVENTS_PATH = '/slack/operators/events';
export function operatorsEventsPath(bot: string): string {
  return `/slack/operators/${bot}/events`;
}

export interface DoorReceiver {
  readonly routes: readonly HttpRoute[];
  /** Starts handing what Slack sends to `handler`. */
  start(handler: DoorEventHandler): Promise<void>;
  stop(): Promise<void>;
}

export function httpReceiver(options: { bot: string; signingSecret: string; logger: Logger }): DoorReceiver {
  const name = `Slack operators' app of bot "${options.bot}"`;
  const gate = new WebhookGate(`${name} is starting`);
  let handler: DoorEventHandler | undefined;
  const route = slackEventsRouter({
    bot: options.bot,
    signingSecret: options.signingSecret,
    logger: options.logger,
    admit: (maxWaitMs) => gate.admit(maxWaitMs),
    // Admitted: started, so the handler is set.
    dispatch: (input) => handler!(input),
  });
  return {
    routes: [
      { path: operatorsEventsPath(options.bot), handler: route },
      { path: OPERATORS_EVENTS_PATH, handler: route },
    ],
    async start(newHandler) {
      handler = newHandler;
      gate.open();
    },
    async stop() {
      gate.close(`${name} is stopping`);
    },
  };
}

export function socketReceiver(options: {
  bot: string;
  botToken: string;
  appToken: string;
  apiUrl?: string;
  logger: Logger;
}): DoorReceiver {
  const { bot, logger } = options;
  let app: App | undefined;
  return {
    routes: [],
    async start(handler) {
      // A refused app token fails here with what to fix, instead of Bolt retrying it forever.
      await checkSocketModeToken(options.appToken, options.apiUrl, bot, logger);
      const receiver = new SocketModeReceiver({
        appToken: options.appToken,
        logger: boltLogger(logger),
        installerOptions: { clientOptions: webClientOptions(options.apiUrl, logger) },
        processEventErrorHandler: async ({ error }) => {
          logger.warn({ err: error, bot }, 'slack operators: acknowledged an envelope that could not be handled');
          return true;
        },
      });
      app = new App({
        receiver,
        logger: boltLogger(logger),
        clientOptions: webClientOptions(options.apiUrl, logger),
        // Bolt's own filters stay off: the door drops its own posts itself (events.ts).
        ignoreSelf: false,
        authorize: async () => ({ botToken: options.botToken }),
      });
      app.use(async (args) => {
        if ('ack' in args) await args.ack?.();
        const request = classifySlackBody(args.body);
        if (request.kind !== 'event' && request.kind !== 'action') return;
        try {
          await handler(request);
        } catch (error) {
          // Acknowledged already: Slack will not send it again over the socket.
          logger.error({ err: error, bot }, "slack operators: an operator's message or press was not handled");
        }
      });
      await app.start();
    },
    async stop() {
      await app
        ?.stop()
        .catch((error: unknown) => logger.warn({ err: error }, 'slack operators: Socket Mode did not stop cleanly'));
      app = undefined;
    },
  };
}

/** The bot's own app: its adapter hands over the operators' channel (set before the adapter starts). */
export function sharedReceiver(adapter: SlackAdapter, channel: string): DoorReceiver {
  let handler: DoorEventHandler | undefined;
  adapter.divertChannel(channel, (input) => {
    if (!handler)
      return Promise.reject(new Error("Slack operators' door is not started yet; Slack will send it again"));
    return handler(input);
  });
  return {
    routes: [],
    async start(newHandler) {
      handler = newHandler;
    },
    async stop() {
      handler = undefined;
    },
  };
}
