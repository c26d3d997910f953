import { afterEach, describe, expect, it } from 'vitest';
import type { TelegramOperatorDoor } from '../../../../adapters/telegram/operators/index.js';
import { DOOR_POLL_LEASE } from '../../../../adapters/telegram/operators/leased-polling.js';
import { telegramModule } from '../../../../adapters/telegram/module.js';
import { silentLogger } from '../../../../src/logger.js';
import { platformStorage } from '../../../../src/runtime/platform-storage.js';
import { MemoryStateStore } from '../../../../src/state/index.js';
import { startFakeTelegram, type FakeTelegram } from '../../../../fakes/telegram/index.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { ANA, CARD, FORUM, RecordingSink, doorSection, ownBotDoor } from './door-stack.js';

const LEASE = { ttlMs: 1_500, renewEveryMs: 500, retryEveryMs: 100 };

let fake: FakeTelegram | undefined;
let store: ReturnType<typeof isolatedRedisStore> | undefined;
const doors: TelegramOperatorDoor[] = [];

afterEach(async () => {
  await Promise.all(doors.splice(0).map((door) => door.stop()));
  await fake?.close();
  await store?.cleanup();
  fake = undefined;
  store = undefined;
});

describe('Telegram operator door with a bot of its own (HANDOFF_TELEGRAM_BOT_TOKEN)', () => {
  it('polls in one replica only (a lease in Redis), and a standby takes over when it stops', async () => {
    fake = await startFakeTelegram({ rateLimit: false });
    fake.createForum({ id: FORUM });
    store = isolatedRedisStore('telegram-door');
    // Two gateway replicas: the same configuration, one Redis.
    const sinks = [new RecordingSink(), new RecordingSink()];
    for (const sink of sinks) {
      const door = ownBotDoor(fake, platformStorage(store, 'telegram', 'main'), LEASE);
      doors.push(door);
      await door.start(sink);
    }
    await fake.waitFor(() => doors.some((door) => door.polls()), { what: 'one replica polling' });
    expect(doors.filter((door) => door.polls())).toHaveLength(1);

    const thread = Number((await doors[0]!.open(CARD)).id);
    fake.memberWrites({ chat: FORUM, thread, from: ANA, text: 'first' });
    await fake.waitFor(() => sinks.some((sink) => sink.messages.length === 1), { what: 'the first message' });
    const holder = doors.findIndex((door) => door.polls());
    expect(sinks[holder]?.messages.map((m) => m.text)).toEqual(['first']);

    // The holder stops (a replica goes away): the other one takes the lease and receives the next message.
    const [stopped] = doors.splice(holder, 1);
    await stopped?.stop();
    const standby = doors[0]!;
    await fake.waitFor(() => standby.polls(), { what: 'the standby taking over', timeoutMs: 10_000 });
    fake.memberWrites({ chat: FORUM, thread, from: ANA, text: 'second' });
    const standbySink = sinks[1 - holder]!;
    await fake.waitFor(() => standbySink.messages.length === 1, { what: 'the second message' });
    expect(standbySink.messages.map((m) => m.text)).toEqual(['second']);
    expect(fake.globalLog().some((call) => call.errorCode === 409)).toBe(false);
  });

  it('takes over from a holder that died without giving the lease up, once the lease runs out', async () => {
    fake = await startFakeTelegram({ rateLimit: false });
    fake.createForum({ id: FORUM });
    store = isolatedRedisStore('telegram-door');
    const storage = platformStorage(store, 'telegram', 'main');
    // A replica that took the lease and then died: nobody renews it.
    expect(await storage.acquireLease(DOOR_POLL_LEASE, LEASE.ttlMs)).not.toBeNull();
    const door = ownBotDoor(fake, storage, LEASE);
    doors.push(door);
    const sink = new RecordingSink();
    await door.start(sink);
    await fake.waitFor(() => door.polls(), { what: 'the standby taking over', timeoutMs: 10_000 });
    const thread = Number((await door.open(CARD)).id);
    fake.memberWrites({ chat: FORUM, thread, from: ANA, text: 'after the takeover' });
    await fake.waitFor(() => sink.messages.length === 1, { what: 'the message' });
  });

  it('drops its own bot’s messages in the topic (the card, what it posted)', async () => {
    fake = await startFakeTelegram({ rateLimit: false });
    fake.createForum({ id: FORUM });
    const door = ownBotDoor(fake, platformStorage(new MemoryStateStore(), 'telegram', 'main'), LEASE);
    doors.push(door);
    const sink = new RecordingSink();
    await door.start(sink);
    const thread = await door.open(CARD);
    await door.post(thread, { markdown: 'the user wrote this' });
    fake.memberWrites({ chat: FORUM, thread: Number(thread.id), from: ANA, text: 'operator' });
    await fake.waitFor(() => sink.messages.length === 1, { what: 'the operator message' });
    expect(sink.messages.map((m) => m.text)).toEqual(['operator']);
  });
});

describe('Telegram operator door: which bot', () => {
  const context = {
    bot: 'main',
    logger: silentLogger(),
    storage: platformStorage(new MemoryStateStore(), 'telegram', 'main'),
  };

  it('refuses a section without a bot of its own when the bot does not run on Telegram, naming both variables', () => {
    expect(() => telegramModule.operatorDoor!.create(doorSection({ chat: '-1001234567890' }), context)).toThrow(
      /HANDOFF_TELEGRAM_BOT_TOKEN.*TELEGRAM_BOT_TOKEN/,
    );
  });

  it('reads HANDOFF_TELEGRAM_CHAT as an id or an @username, and refuses anything else naming the shape', () => {
    const schema = telegramModule.operatorDoor!.configSection;
    expect(schema.parse({ chat: '-1001234567890' })).toEqual({ chat: -1001234567890 });
    expect(schema.parse({ chat: '@acme_support' })).toEqual({ chat: '@acme_support' });
    expect(() => schema.parse({ chat: 'support' })).toThrow(/supergroup id like -1001234567890, or @username/);
    expect(() => schema.parse({ chat: '-1001', tokn: 'x' })).toThrow(/tokn/);
  });
});
