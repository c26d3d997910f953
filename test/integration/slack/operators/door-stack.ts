/**
 * The Slack operator door for integration tests, built as the runtime builds it (the Slack
 * module's `operatorDoor.create`) against the fake Slack, with the real web-api and Bolt: its
 * own app over HTTP (routes mounted on a port as the runtime mounts them) or Socket Mode, or
 * the bot's own Slack app (the adapter, HTTP mode, handing the channel over). The handoff's
 * side is a sink that records what operators did.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSlackAdapter, type SlackAdapter } from '../../../../adapters/slack/index.js';
import { slackOperatorDoor, type SlackDoorSection } from '../../../../adapters/slack/operators/module.js';
import type {
  HttpRoute,
  Inbound,
  OperatorActionEvent,
  OperatorDoor,
  OperatorMessage,
  OperatorSink,
} from '../../../../src/contract.js';
import { silentLogger } from '../../../../src/logger.js';
import { platformStorage } from '../../../../src/runtime/platform-storage.js';
import { MemoryStateStore } from '../../../../src/state/index.js';
import {
  DEFAULT_SCOPES,
  startFakeSlack,
  type FakeSlack,
  type FakeSlackOptions,
} from '../../../../fakes/slack/index.js';

export const OPS_CHANNEL = 'C0OPS00001';
/** The scopes of adapters/slack/operators/manifest.yaml, with the bot's own (a shared app has both). */
export const DOOR_SCOPES = [
  ...DEFAULT_SCOPES,
  'channels:read',
  'groups:read',
  'users:read',
  'users:read.email',
  'files:write',
];
export const OPERATOR = { id: 'U0OPER0001', display_name: 'Ana', real_name: 'Ana Pérez', email: 'ana@example.com' };

/** What the handoff was told, and whether it accepts more (a refusal makes the route answer 500). */
export class RecordingSink implements OperatorSink {
  readonly messages: OperatorMessage[] = [];
  readonly actions: OperatorActionEvent[] = [];
  refusing = false;

  async message(message: OperatorMessage): Promise<void> {
    if (this.refusing) throw new Error('the handoff could not take it');
    this.messages.push(message);
  }

  async action(action: OperatorActionEvent): Promise<void> {
    if (this.refusing) throw new Error('the handoff could not take it');
    this.actions.push(action);
  }
}

/** The door's own app over HTTP or Socket Mode, or the bot's own app (its adapter over HTTP, or over Socket Mode). */
export type DoorSetup = 'http' | 'socket' | 'shared' | 'shared-socket';

export interface DoorStack {
  fake: FakeSlack;
  door: OperatorDoor;
  sink: RecordingSink;
  /** Shared set-up: the bot's adapter, and what reached its user intake. */
  adapter?: SlackAdapter;
  intake: Inbound[];
  /** Delivers what Slack sends the operators' app: signed over HTTP (with X-Slack-Retry-Num) or over the socket. */
  deliver(body: object, options?: { retryNum?: number }): Promise<Response | undefined>;
  /** The URL events reach over HTTP (the door's route, or the shared app's). */
  eventsUrl?: string;
  close(): Promise<void>;
}

export interface DoorStackOptions {
  setup: DoorSetup;
  mode?: SlackDoorSection['mode'];
  fake?: FakeSlackOptions;
}

async function listen(routes: readonly HttpRoute[]): Promise<{ server: Server; base: string }> {
  const app = express();
  for (const route of routes) app.use(route.path, route.handler);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function startDoorStack(options: DoorStackOptions): Promise<DoorStack> {
  const fake = await startFakeSlack({ rateLimits: false, scopes: DOOR_SCOPES, ...options.fake });
  fake.addConversation({ id: OPS_CHANNEL, name: 'support' });
  fake.addUser(OPERATOR);
  const logger = silentLogger();
  const context = { bot: 'main', logger, storage: platformStorage(new MemoryStateStore(), 'slack', 'main') };
  const intake: Inbound[] = [];
  const sink = new RecordingSink();
  // The module's operatorDoor (adapters/slack/module.ts declares this one).
  const doorModule = slackOperatorDoor;
  const section = (extra: Partial<SlackDoorSection>): SlackDoorSection =>
    doorModule.configSection.parse({
      channel: OPS_CHANNEL,
      ...(options.mode ? { mode: options.mode } : {}),
      ...extra,
    });

  let adapter: SlackAdapter | undefined;
  let door: OperatorDoor;
  if (options.setup === 'shared' || options.setup === 'shared-socket') {
    const own =
      options.setup === 'shared'
        ? { botToken: fake.botToken, signingSecret: fake.signingSecret, apiUrl: fake.apiUrl }
        : { botToken: fake.botToken, appToken: fake.appToken, apiUrl: fake.apiUrl };
    adapter = createSlackAdapter({ bot: 'main', ...own, logger });
    door = doorModule.create(section({}), { ...context, own: { section: own, adapter } })!;
  } else {
    const ownApp =
      options.setup === 'http'
        ? { botToken: fake.botToken, signingSecret: fake.signingSecret, apiUrl: fake.apiUrl }
        : { botToken: fake.botToken, appToken: fake.appToken, apiUrl: fake.apiUrl };
    door = doorModule.create(section(ownApp), context)!;
  }
  const { server, base } = await listen([...(door.routes ?? []), ...(adapter?.routes ?? [])]);
  await door.start(sink);
  await adapter?.start({ accept: async (inbound) => void intake.push(inbound) });
  if (options.setup === 'socket' || options.setup === 'shared-socket')
    await fake.waitFor(() => fake.socket.openConnections() > 0, { what: 'the socket' });
  const eventsUrl =
    options.setup === 'http'
      ? `${base}/slack/operators/events`
      : options.setup === 'shared'
        ? `${base}/slack/main/events`
        : undefined;

  return {
    fake,
    door,
    sink,
    ...(adapter ? { adapter } : {}),
    intake,
    ...(eventsUrl ? { eventsUrl } : {}),
    async deliver(body, { retryNum } = {}) {
      if (eventsUrl) return fake.postSigned(eventsUrl, body, retryNum !== undefined ? { retryNum } : {});
      const isPress = (body as { type?: unknown }).type === 'block_actions';
      const envelope = isPress
        ? fake.socket.pushInteractive(body as Record<string, unknown>)
        : fake.socket.pushEvent(body as Parameters<FakeSlack['socket']['pushEvent']>[0], {
            ...(retryNum !== undefined ? { retryAttempt: retryNum } : {}),
          });
      await fake.socket.waitForAck(envelope);
      return undefined;
    },
    async close() {
      await adapter?.stop();
      await door.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await fake.close();
    },
  };
}
