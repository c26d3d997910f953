/**
 * What the door tests build: the fake Bot API with an operators' forum, the bot's own Telegram
 * adapter (polling or webhook) with a door sharing it, or a door with a bot of its own; and a
 * sink that remembers what operators wrote and pressed.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createTelegramAdapter, type TelegramAdapter } from '../../../../adapters/telegram/index.js';
import type { TelegramSection } from '../../../../adapters/telegram/module.js';
import { telegramModule } from '../../../../adapters/telegram/module.js';
import {
  createTelegramOperatorDoor,
  type OperatorDoorSection,
  type TelegramOperatorDoor,
} from '../../../../adapters/telegram/operators/index.js';
import type {
  LeaseTimings,
  OperatorActionEvent,
  OperatorDoorContext,
  OperatorMessage,
  OperatorSink,
  PlatformStorage,
  ThreadCard,
} from '../../../../src/contract.js';
import { silentLogger } from '../../../../src/logger.js';
import { platformStorage } from '../../../../src/runtime/platform-storage.js';
import { MemoryStateStore } from '../../../../src/state/index.js';
import { startFakeTelegram, type FakeTelegram, type ForumSetup } from '../../../../fakes/telegram/index.js';
import { CollectingSink } from '../collecting-sink.js';

/** The operators' supergroup. */
export const FORUM = -1001234567890;
/** A person of the support team. */
export const ANA = { id: 501, first_name: 'Ana', last_name: 'Pérez', username: 'ana_support' };

export const CARD: ThreadCard = {
  title: 'Ada Lovelace · WhatsApp',
  markdown:
    '**Ada Lovelace** (+44 20 7946 0000) on WhatsApp\n\nWhy: asked for a person\n\n[Open in the inbox](https://gateway.example/inbox/c/1)',
  actions: [
    { kind: 'claim', label: 'Claim' },
    { kind: 'hand-back', label: 'Hand back' },
  ],
};

/** The handoff's side: remembers every message and press, in order; `failures` makes the next ones fail. */
export class RecordingSink implements OperatorSink {
  readonly messages: OperatorMessage[] = [];
  readonly actions: OperatorActionEvent[] = [];
  /** How many of the next calls fail, as when the handoff cannot reach Redis. */
  failuresToCome = 0;
  /** Calls that failed so. */
  failed = 0;

  message(message: OperatorMessage): Promise<void> {
    if (this.failuresToCome > 0) {
      this.failuresToCome--;
      this.failed++;
      return Promise.reject(new Error('test sink: the handoff cannot reach its store'));
    }
    this.messages.push(message);
    return Promise.resolve();
  }

  action(action: OperatorActionEvent): Promise<void> {
    this.actions.push(action);
    return Promise.resolve();
  }
}

export interface SharedDoorStack {
  fake: FakeTelegram;
  adapter: TelegramAdapter;
  door: TelegramOperatorDoor;
  /** The users' intake of the bot's adapter. */
  intake: CollectingSink;
  sink: RecordingSink;
  stop(): Promise<void>;
}

function memoryStorage(bot = 'main'): PlatformStorage {
  return platformStorage(new MemoryStateStore(), 'telegram', bot);
}

function doorContext(
  own: OperatorDoorContext<TelegramSection>['own'],
  storage: PlatformStorage = memoryStorage(),
): OperatorDoorContext<TelegramSection> {
  return { bot: 'main', logger: silentLogger(), storage, ...(own ? { own } : {}) };
}

/** The door's section as the config loader parses it (HANDOFF_TELEGRAM_CHAT and co.). */
export function doorSection(input: Record<string, unknown>): OperatorDoorSection {
  return telegramModule.operatorDoor!.configSection.parse(input) as OperatorDoorSection;
}

/**
 * The bot's own adapter (polling by default, or webhook on a local HTTP server) and a door on it,
 * built as the runtime does: through the module, with the bot's section and adapter as `own`.
 */
export async function startSharedDoor(
  options: { mode?: 'polling' | 'webhook'; forum?: Partial<ForumSetup>; chat?: string } = {},
): Promise<SharedDoorStack> {
  const fake = await startFakeTelegram({ rateLimit: false, webhookRetryDelayMs: 20 });
  fake.createForum({ id: FORUM, title: 'Support', ...options.forum });
  let server: Server | undefined;
  let webhookPublicUrl: string | undefined;
  const app = express();
  if (options.mode === 'webhook') {
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    webhookPublicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const section: TelegramSection = telegramModule.configSection.parse({
    token: fake.token,
    apiRoot: fake.apiRoot,
    mode: options.mode ?? 'polling',
    ...(webhookPublicUrl ? { webhookPublicUrl, webhookSecret: 'door-test-secret' } : {}),
  });
  const adapter = createTelegramAdapter({
    bot: 'main',
    token: fake.token,
    apiRoot: fake.apiRoot,
    mode: section.mode,
    logger: silentLogger(),
    botInfo: fake.botInfo,
    ...(webhookPublicUrl ? { webhookPublicUrl, webhookSecret: 'door-test-secret' } : {}),
  });
  for (const route of adapter.routes) app.use(route.path, route.handler);
  const door = telegramModule.operatorDoor!.create(
    doorSection({ chat: options.chat ?? String(FORUM) }),
    doorContext({ section, adapter }),
  ) as TelegramOperatorDoor;
  const sink = new RecordingSink();
  const intake = new CollectingSink();
  await door.start(sink);
  await adapter.start(intake);
  return {
    fake,
    adapter,
    door,
    intake,
    sink,
    async stop() {
      await door.stop();
      await adapter.stop();
      await fake.close();
      if (server) await new Promise((resolve) => server?.close(resolve));
    },
  };
}

/** A door with a bot of its own (HANDOFF_TELEGRAM_BOT_TOKEN), polled under a lease in `storage`. */
export function ownBotDoor(
  fake: FakeTelegram,
  storage: PlatformStorage,
  leaseTimings: LeaseTimings,
): TelegramOperatorDoor {
  return createTelegramOperatorDoor(
    doorSection({ chat: String(FORUM), token: fake.token, apiRoot: fake.apiRoot }),
    doorContext(undefined, storage),
    { leaseTimings },
  );
}
