/**
 * Socket Mode (SLACK_APP_TOKEN): Bolt's SocketModeReceiver holds the WebSocket, and every
 * envelope goes through the same parser (events.ts) and dispatcher (dispatch.ts) as an HTTP
 * request. The socket is opened only once auth.test has named the bot (index.ts), so no
 * envelope arrives before the adapter knows who it is. Slack does not send an acknowledged
 * envelope again; one left unacknowledged comes back, so what cannot be handled is
 * acknowledged too, and logged once.
 */
import { App, SocketModeReceiver } from '@slack/bolt';
import type { Logger } from '../../src/contract.js';
import { boltLogger } from './bolt-logger.js';
import { webClientOptions } from './client.js';
import type { SlackDispatch } from './dispatch.js';
import { classifySlackBody } from './events.js';
import type { SlackIdentity } from './inbound.js';

export interface SocketModeAppOptions {
  bot: string;
  botToken: string;
  appToken: string;
  apiUrl?: string;
  logger: Logger;
  /** Who the bot is; known before the socket opens. */
  identity(): SlackIdentity | undefined;
  dispatch: SlackDispatch;
}

export function createSocketModeApp(options: SocketModeAppOptions): App {
  const { bot, logger } = options;
  const receiver = new SocketModeReceiver({
    appToken: options.appToken,
    logger: boltLogger(logger),
    installerOptions: { clientOptions: webClientOptions(options.apiUrl, logger) },
    // What Bolt itself cannot read (e.g. `event: null`): acknowledged, or Slack sends it again.
    processEventErrorHandler: async ({ error, event }) => {
      logger.warn(
        { err: error, bot, retryNum: event.retryNum },
        'slack: acknowledged an envelope that could not be handled; dropped, not answered',
      );
      return true;
    },
  });
  const app = new App({
    receiver,
    logger: boltLogger(logger),
    clientOptions: webClientOptions(options.apiUrl, logger),
    authorize: async () => {
      const identity = options.identity();
      if (!identity) throw new Error(`Slack bot "${bot}" is not connected yet (auth.test pending)`);
      return {
        botToken: options.botToken,
        botId: identity.botId,
        botUserId: identity.botUserId,
        ...(identity.teamId ? { teamId: identity.teamId } : {}),
      };
    },
  });

  app.use(async (args) => {
    // Commands and button presses: acknowledged at once (events Bolt acknowledged already).
    if ('ack' in args) await args.ack?.();
    const request = classifySlackBody(args.body);
    const identity = options.identity();
    if (request.kind === 'malformed') {
      logger.warn(
        { bot, reason: request.reason, ...(request.eventId ? { eventId: request.eventId } : {}) },
        'slack: acknowledged an envelope it cannot understand; dropped, not answered',
      );
      return;
    }
    if (request.kind !== 'event' && request.kind !== 'action' && request.kind !== 'command') return;
    if (!identity) return;
    try {
      await options.dispatch(request, identity);
    } catch (error) {
      // Acknowledged already: Slack will not send it again over the socket.
      logger.error({ err: error, bot }, 'slack: a message from the socket was not queued');
    }
  });
  return app;
}
