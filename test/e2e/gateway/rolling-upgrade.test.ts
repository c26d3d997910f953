/**
 * A rolling upgrade across the change of the conversation locks (owner fields of the shard's hash, where earlier
 * versions kept a lock string per conversation and a pending set per shard: src/gateway/drain/queue-layout.ts), tested
 * with an old and a new process on one Redis: the earlier version built from git (test/support/earlier-build.ts) and
 * this checkout's build, both `chatbridge start` in Telegram webhook mode behind a round-robin load balancer, as
 * replicas.test.ts runs them. Each version talks to a Chatbot Service of its own (the same answers), so the test knows
 * which version answered what.
 *
 * - The new process, started on a store the old one seeded, keeps the earlier layout beside the owner fields.
 * - Many conversations, their messages landing on both versions, are answered in order, each message once.
 * - Takeover both ways: the old process killed mid-run, the new one answers what it left (a conversation it held, in
 *   the earlier layout only); a new process killed mid-answer, an old one answers what it left.
 * - `chatbridge migrate-state` refuses while an old process answers a conversation, naming it; once only new processes
 *   run it ends the earlier layout, and the new process stops writing lock strings while it goes on answering.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRef } from '../../../src/contract.js';
import { conversationMember, gatewayKeys, OWNER_FIELDS_ONLY, QUEUE_LAYOUT_KEY } from '../../../src/gateway/index.js';
import { SEED_MARKER_KEY } from '../../../src/runtime/state-watch.js';
import { allShardTags } from '../../../src/state/slots.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../../fakes/round-robin-proxy.js';
import { startScriptedService, until, type ScriptedService } from '../../support/delivery-gateway.js';
import { earlierBuild, earlierBuildUnavailable, EARLIER_LOCK_LAYOUT_COMMIT } from '../../support/earlier-build.js';
import { testRedisUrl } from '../../support/redis.js';
import { replicaSet, type Replica, type ReplicaSet } from '../../support/replicas.js';

const CLI = join(import.meta.dirname, '../../../bin/chatbridge.js');
const UNAVAILABLE = earlierBuildUnavailable(EARLIER_LOCK_LAYOUT_COMMIT);

const CONVERSATIONS = 40;
const FIRST_CHAT = 830_000;
/** Conversations whose answer the service holds open at its first ask: a process is answering them when the test acts. */
const HELD = {
  /** By the old process when it is killed. */
  byKilledEarlier: 839_001,
  /** By a new process when it is killed. */
  byKilledCurrent: 839_002,
  /** By an old process while migrate-state is run. */
  atRefusedMigration: 839_003,
  /** By the new process while migrate-state ends the earlier layout. */
  atMigration: 839_004,
  /** By the new process after it stopped keeping the earlier layout. */
  afterMigration: 839_005,
};
const AFTER_MIGRATION_CHATS = 10;
const FIRST_CHAT_AFTER_MIGRATION = 838_000;

/**
 * Short enough for three takeovers within the test's time; not shorter, so that a replica slowed down by the load
 * (four gateway processes start here, beside the other test files of a full run) keeps its locks: see replicas.test.ts.
 * A short grace on SIGTERM: an answer held open is cut off and handed over instead of waited for.
 */
const TIMINGS = { lockTtlMs: 8_000, heartbeatMs: 1_000, sweepIntervalMs: 500, stopGraceMs: 500 };

const question = (chat: number, n: number) => `Question ${n} from ${chat}`;
const held = (chat: number) => `Hold on, question from ${chat}`;
const answer = (text: string) => `Answer to: ${text}`;
const conversation = (chat: number): ConversationRef => ({ bot: 'main', platform: 'telegram', id: String(chat) });
/** Which build answered: the earlier version's or this checkout's (each talks to a Chatbot Service of its own). */
type Version = 'earlier' | 'current';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `chatbridge migrate-state` of this checkout, on the replicas' Redis and key prefix. */
function migrateState(prefix: string): Promise<Run> {
  const config = join(mkdtempSync(join(tmpdir(), 'cb-migrate-')), 'chatbridge.yaml');
  writeFileSync(config, `keyPrefix: "${prefix}"\nconsole: off\n`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'migrate-state'],
      { env: { PATH: process.env.PATH, CHATBRIDGE_CONFIG: config, REDIS_URL: testRedisUrl() }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(UNAVAILABLE !== null)(
  `a rolling upgrade: the version before owner fields (${EARLIER_LOCK_LAYOUT_COMMIT.slice(0, 7)}) and this one on one Redis` +
    (UNAVAILABLE ? ` (skipped: ${UNAVAILABLE})` : ''),
  () => {
    let earlierCli: string;
    let fake: FakeTelegram;
    let earlierService: ScriptedService;
    let currentService: ScriptedService;
    let proxy: RoundRobinProxy;
    let replicas: ReplicaSet;

    // Once per commit on this machine (as long as `npm run build:emit`); later runs find it built.
    beforeAll(() => {
      earlierCli = earlierBuild(EARLIER_LOCK_LAYOUT_COMMIT);
    }, 180_000);

    afterEach(async () => {
      await replicas?.cleanup();
      await proxy?.close();
      await earlierService?.close();
      await currentService?.close();
      await fake?.close();
    });

    it('answers each message once, in order, across both versions and both takeovers; migrate-state then ends the earlier layout', async () => {
      fake = await startFakeTelegram({ rateLimit: false, webhookConnections: 40, webhookRetryDelayMs: 50 });
      const chats = Array.from({ length: CONVERSATIONS }, (_, i) => FIRST_CHAT + i);
      // Both services answer alike; a held question hangs at its first ask, by either, and is answered after.
      const asks: { text: string; by: Version }[] = [];
      const scriptOf = (by: Version) => (text: string) => {
        const first = !asks.some((ask) => ask.text === text);
        asks.push({ text, by });
        return text.startsWith('Hold on') && first
          ? { fragments: [`Working on it: ${text}`], hangAfter: 1 }
          : { fragments: [answer(text)] };
      };
      earlierService = await startScriptedService(scriptOf('earlier'));
      currentService = await startScriptedService(scriptOf('current'));
      /**
       * The questions of `numbers` asked other than once, by the version that answers it, or once more by the other
       * after the killed process (of version `killed`) had asked: it answers again what the killed one left.
       */
      const askedWrongly = (numbers: number[], killed: Version) =>
        chats.flatMap((chat) =>
          numbers.flatMap((n) => {
            const by = asks.filter((ask) => ask.text === question(chat, n)).map((ask) => ask.by);
            const takenOver = by.length === 2 && by[0] === killed && by[1] !== killed;
            return by.length === 1 || takenOver ? [] : [{ question: question(chat, n), by }];
          }),
        );
      proxy = await startRoundRobinProxy();
      replicas = replicaSet({
        telegram: { token: fake.token, apiRoot: fake.apiRoot },
        webhookUrl: proxy.url,
        upstreamUrl: currentService.url,
        gateway: TIMINGS,
      });
      const { state } = replicas;
      const earlier = { cli: earlierCli, env: { UPSTREAM_BASE_URL: earlierService.url } };
      const texts = (chat: number) => fake.visibleMessages(chat).map((message) => message.text);
      const lastText = (chat: number) => fake.visibleMessages(chat).at(-1)?.text;
      const lock = (chat: number) => state.get(gatewayKeys.lock(conversation(chat)));
      const owner = async (chat: number) =>
        (await state.hashGetAll(gatewayKeys.owners(conversation(chat))))[conversationMember(conversation(chat))];
      const indexedInEarlierLayout = async (chat: number) =>
        (await state.setMembers(gatewayKeys.pending(conversation(chat)))).includes(
          conversationMember(conversation(chat)),
        );
      /** A held question sent through `replica` alone, once its service is answering it. */
      const holdOn = async (replica: Replica, chat: number, service: ScriptedService, backends: Replica[]) => {
        proxy.setBackends([replica.port]);
        fake.userSends({ chat, from: { id: chat, first_name: `User ${chat}` }, text: held(chat) });
        await until(() => service.questions.includes(held(chat)), `${held(chat)} to reach its service`, 30_000);
        proxy.setBackends(backends.map((backend) => backend.port));
      };

      // 1. The old process first, on a new store: it seeds it. The new one then keeps the earlier layout beside.
      const old1 = await replicas.start(earlier);
      expect(await state.get(SEED_MARKER_KEY)).not.toBeNull();
      const new1 = await replicas.start();
      expect(new1.process.log()).toContain('conversation locks are also kept as earlier versions keep them');
      expect(await state.get(QUEUE_LAYOUT_KEY)).toBeNull();

      // The old process answers a conversation (held open): in the earlier layout only, a lock string and the pending set.
      await holdOn(old1, HELD.byKilledEarlier, earlierService, [old1, new1]);
      expect(await lock(HELD.byKilledEarlier)).not.toBeNull();
      expect(await indexedInEarlierLayout(HELD.byKilledEarlier)).toBe(true);
      expect(await owner(HELD.byKilledEarlier)).toBeUndefined();

      // 2. Many conversations through both, the old one killed mid-run (replicas.test.ts: half the messages before the kill).
      const userSends = (n: number) => {
        for (const chat of chats)
          fake.userSends({ chat, from: { id: chat, first_name: `User ${chat}` }, text: question(chat, n) });
      };
      const answeredOf = (n: number) => chats.filter((chat) => texts(chat).includes(answer(question(chat, n)))).length;
      userSends(1);
      userSends(2);
      await fake.waitFor(() => answeredOf(1) >= CONVERSATIONS / 2, {
        timeoutMs: 60_000,
        what: 'half the first answers',
      });
      old1.process.child.kill('SIGKILL');
      userSends(3);
      userSends(4);
      await fake.waitFor(() => chats.every((chat) => lastText(chat) === answer(question(chat, 4))), {
        timeoutMs: 60_000,
        what: 'the fourth answer in every conversation',
      });
      // The new process took over the conversation the old one held, known to it only by the earlier layout.
      await fake.waitFor(() => lastText(HELD.byKilledEarlier) === answer(held(HELD.byKilledEarlier)), {
        timeoutMs: 30_000,
        what: 'the held conversation answered by the new process',
      });
      expect(currentService.questions).toContain(held(HELD.byKilledEarlier));
      expect(new1.process.log()).toContain('taking over a conversation queue whose holder stopped');

      const expected = (chat: number, numbers: number[]) => numbers.map((n) => answer(question(chat, n)));
      // A repeat right after itself set aside: the killed process's answer sent but not yet recorded as sent
      // (replicas.test.ts), at most one per conversation per kill.
      const collapsed = (list: string[]) => list.filter((text, i) => text !== list[i - 1]);
      const wrong = (numbers: number[], from: (chat: number) => number) =>
        chats
          .map((chat) => ({ chat, texts: texts(chat).slice(from(chat)) }))
          .filter(
            ({ chat, texts: got }) =>
              JSON.stringify(collapsed(got)) !== JSON.stringify(expected(chat, numbers)) ||
              got.length > numbers.length + 1,
          );
      expect(wrong([1, 2, 3, 4], () => 0)).toEqual([]);
      expect(askedWrongly([1, 2, 3, 4], 'earlier')).toEqual([]);
      // Messages of one conversation landed on both versions (the load balancer takes turns).
      const askedBy = (by: Version, chat: number) =>
        asks.some((ask) => ask.by === by && ask.text.endsWith(` from ${chat}`));
      const answeredByBoth = chats.filter((chat) => askedBy('earlier', chat) && askedBy('current', chat));
      expect(answeredByBoth.length).toBeGreaterThan(0);

      // 3. The other way: a new process killed mid-answer while an old one runs; the old one answers what it left.
      const old2 = await replicas.start(earlier);
      await holdOn(new1, HELD.byKilledCurrent, currentService, [old2, new1]);
      // The new process keeps the earlier layout: its lock string beside its owner field, and the pending set.
      const heldLock = await lock(HELD.byKilledCurrent);
      expect(heldLock).not.toBeNull();
      expect(await owner(HELD.byKilledCurrent)).toMatch(new RegExp(`^${heldLock}(#|$)`));
      expect(await indexedInEarlierLayout(HELD.byKilledCurrent)).toBe(true);
      const before = new Map(chats.map((chat) => [chat, texts(chat).length]));
      userSends(5);
      await fake.waitFor(() => answeredOf(5) >= CONVERSATIONS / 4, {
        timeoutMs: 60_000,
        what: 'a quarter of the fifth answers',
      });
      new1.process.child.kill('SIGKILL');
      await fake.waitFor(() => chats.every((chat) => lastText(chat) === answer(question(chat, 5))), {
        timeoutMs: 60_000,
        what: 'the fifth answer in every conversation',
      });
      await fake.waitFor(() => lastText(HELD.byKilledCurrent) === answer(held(HELD.byKilledCurrent)), {
        timeoutMs: 30_000,
        what: 'the held conversation answered by the old process',
      });
      expect(earlierService.questions).toContain(held(HELD.byKilledCurrent));
      expect(old2.process.log()).toContain('taking over a conversation queue whose holder stopped');
      expect(wrong([5], (chat) => before.get(chat)!)).toEqual([]);
      expect(askedWrongly([5], 'current')).toEqual([]);

      // 4. A new process beside the old one; migrate-state refuses while the old one answers a conversation.
      const new2 = await replicas.start();
      expect(new2.process.log()).toContain('conversation locks are also kept as earlier versions keep them');
      await holdOn(old2, HELD.atRefusedMigration, earlierService, [old2, new2]);
      const refused = await migrateState(replicas.prefix);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(conversationMember(conversation(HELD.atRefusedMigration)));
      expect(refused.stderr).toContain('Nothing was changed');
      expect(await state.get(QUEUE_LAYOUT_KEY)).toBeNull();

      // The old process stops (SIGTERM: its answer is cut off and handed over); the new one answers the conversation.
      expect(await old2.process.stop()).toBe(0);
      proxy.setBackends([new2.port]);
      await fake.waitFor(() => lastText(HELD.atRefusedMigration) === answer(held(HELD.atRefusedMigration)), {
        timeoutMs: 30_000,
        what: 'the conversation the old process handed over, answered by the new one',
      });

      // Only new processes run: migrate-state ends the earlier layout while one of them answers a conversation.
      await holdOn(new2, HELD.atMigration, currentService, [new2]);
      const heldAtMigration = await lock(HELD.atMigration);
      expect(heldAtMigration).not.toBeNull();
      // Its lock string is renewed (its lifetime grows again) as long as it keeps the earlier layout.
      const lockKey = gatewayKeys.lock(conversation(HELD.atMigration));
      const lifetime = await state.ttlMs(lockKey);
      await until(async () => (await state.ttlMs(lockKey)) > lifetime, 'a renewal of the lock string', 30_000);
      const migrated = await migrateState(replicas.prefix);
      expect(migrated.stderr).toBe('');
      expect(migrated.code).toBe(0);
      expect(migrated.stdout).toContain('Conversation locks: owner fields only from now on');
      expect(await state.get(QUEUE_LAYOUT_KEY)).toBe(OWNER_FIELDS_ONLY);
      for (const tag of allShardTags()) expect(await state.setMembers(gatewayKeys.pendingOfShard(tag))).toEqual([]);
      // Its next sweep reads the marker: its lock string is no longer renewed and expires, its owner field still renewed.
      await until(async () => (await lock(HELD.atMigration)) === null, 'the lock string to be left to expire', 30_000);
      expect(await owner(HELD.atMigration)).toMatch(new RegExp(`^${heldAtMigration}(#|$)`));

      // From then on it writes owner fields only, and goes on answering.
      await holdOn(new2, HELD.afterMigration, currentService, [new2]);
      expect(await owner(HELD.afterMigration)).toBeTruthy();
      expect(await lock(HELD.afterMigration)).toBeNull();
      const later = Array.from({ length: AFTER_MIGRATION_CHATS }, (_, i) => FIRST_CHAT_AFTER_MIGRATION + i);
      for (const chat of later)
        fake.userSends({ chat, from: { id: chat, first_name: `User ${chat}` }, text: question(chat, 1) });
      await fake.waitFor(() => later.every((chat) => lastText(chat) === answer(question(chat, 1))), {
        timeoutMs: 30_000,
        what: 'the answers after the migration',
      });
      expect(later.filter((chat) => texts(chat).length !== 1)).toEqual([]);
      const everyChat = [...chats, ...later, ...Object.values(HELD)];
      expect(await state.getMany(everyChat.map((chat) => gatewayKeys.lock(conversation(chat))))).toEqual(
        everyChat.map(() => null),
      );
      expect(new2.process.log()).not.toMatch(/"level":(50|60)/);
    }, 180_000);
  },
);
