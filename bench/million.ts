/**
 * Issue 32, a million conversations: a Redis of the bench's own (redis-server on a free port, no persistence) filled
 * with N idle conversations in the project's own key layout (bench/support/idle-conversations.ts says what each
 * holds: its session, its transcript packed as the packer packs it, its day index entry; a few thousand paused with
 * their pause hash and their shard's paused index), then, for each N (10,000 and 1,000,000; MILLION_SIZES=10000,50000
 * for a quick run), what a company keeping N conversations pays:
 *
 * 1. Redis's used_memory after the fill, in total and per conversation;
 * 2. start-up of a `chatbridge start` process (compiled, as the Docker image runs it; Telegram through the fake Bot
 *    API, the embedded service, the handoff and the inbox: ADMIN_TOKEN, SMTP_URL) until /readyz answers 200;
 * 3. that process left idle for MILLION_IDLE_S (60) seconds, its periodic work at the default intervals (the sweep of
 *    the shards' pending sets every 15 s, the outbox's poll every 5 s, the state watch every 15 s, the digests' check
 *    every minute): the Redis commands it runs (INFO commandstats) and the CPU it and Redis spend, per minute;
 * 4. the inbox's waiting list and a conversation with the most entries kept: p50/p95 of 50 requests each;
 * 5. new messages answered by an in-process gateway wired as `chatbridge start` wires it (bench/support/
 *    production-wiring.ts: the handoff installed), MILLION_ANSWERS (500) to new conversations and as many to idle
 *    ones of the N: CPU per answer (the gateway's and Redis's) and the Redis commands run per answer, counted on the
 *    gateway's connection (as bench/gateway.ts counts them) and by Redis itself (INFO commandstats: MULTI, EXEC and
 *    the commands a script runs each count);
 * 6. the day's chat logs and leads of the chatbot's 10,000 conversations of yesterday, built as the scheduler builds
 *    them, with the other N − 10,000 conversations there from earlier days.
 * Then, for every measure, its growth from the smallest N to the largest, per 100,000 conversations.
 *
 * Before all that, once: one conversation answered four times for real through the gateway beside one written by
 * the filler, with the same words: the same kinds of keys must be left (else the bench stops), and their bytes are
 * reported side by side.
 *
 *   npx tsx bench/million.ts      # prints the results; BENCH_NO_BUILD=1 skips the build
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { startFakeTelegram } from '../fakes/telegram/index.js';
import type { ConversationRef, PlatformUser } from '../src/contract.js';
import { createGateway, gatewayKeys, pendingMembers, type Gateway, type GatewayBot } from '../src/gateway/index.js';
import { formatConversationId } from '../src/handoff/index.js';
import { silentLogger } from '../src/logger.js';
import { DEMO_SERIAL_NUMBER } from '../src/service/demo.js';
import { DEFAULT_KEY_PREFIX, RedisStateStore } from '../src/state/index.js';
import { ADMIN_TOKEN, CLI, COMPILED, send, signIn, startGateway, stopGateway, timeRequests } from './inbox.js';
import { cpuMs } from './peers/proc.js';
import {
  answerOf,
  conversationOf,
  dayOf,
  fillConversations,
  FILL_BOT,
  FILL_PLATFORM,
  IDLE_TURNS,
  questionOf,
  userOf,
  yesterdayStart,
} from './support/idle-conversations.js';
import { BenchPlatform } from './support/memory-platform.js';
import { productionWiring } from './support/production-wiring.js';
import { countRedisCommands } from './support/redis-counter.js';
import { startPrivateRedis, type PrivateRedis } from './support/redis-server.js';
import { RespPipe } from './support/resp-pipe.js';
import type { BenchResult } from './support/result.js';
import { ScriptedUpstream } from './support/scripted-upstream.js';
import { clock, percentile, round1, until } from './support/stats.js';

const SIZES = (process.env.MILLION_SIZES ?? '10000,1000000')
  .split(',')
  .map((size) => Number(size.trim()))
  .filter((size) => Number.isInteger(size) && size > 0);
const PAUSED = Number(process.env.MILLION_PAUSED ?? 3_000);
/** The chatbot's conversations of yesterday: the day's digests read them. */
const YESTERDAY = 10_000;
/** The newest paused conversations with a full transcript: the conversation pages timed. */
const FULL = 30;
const ANSWERS = Number(process.env.MILLION_ANSWERS ?? 500);
const WARM_UP_ANSWERS = 200;
const IDLE_SECONDS = Number(process.env.MILLION_IDLE_S ?? 60);
const STARTS = 3;
const INBOX_REQUESTS = 50;
/** The embedded service's demo chatbot: the bot `main` of a `chatbridge start` with no upstream configured. */
const SERIAL = DEMO_SERIAL_NUMBER;
const PREFIX = DEFAULT_KEY_PREFIX;
/** New conversations of the answers part: ids no filled conversation has. */
const NEW_IDS = 8_000_000_000;
/**
 * A process's first half minute costs it seconds of CPU whatever it holds (measured: 2-3 s in the 15 s after a 5 s
 * wait, then 0.1-0.5 s per 15 s): the idle minute starts after it.
 */
const SETTLE_MS = 30_000;
/** Messages handed to the gateway at once: all 500 at once may wait past gateway.webhookAcceptMs on a busy machine. */
const WAVE = 100;

const sizeName = (size: number): string => size.toLocaleString('en-US');
const load = (): string => `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;

/** Redis's per-command call counts (INFO commandstats). */
async function commandCalls(redis: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (match) calls.set(match[1]!, Number(match[2]));
  }
  return calls;
}

/** The calls between two counts, by name, without the bench's own INFO. */
function callsBetween(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const calls = new Map<string, number>();
  for (const [name, count] of after) {
    const made = count - (before.get(name) ?? 0);
    if (made > 0 && name !== 'info') calls.set(name, made);
  }
  return calls;
}

const total = (calls: Map<string, number>): number => [...calls.values()].reduce((sum, n) => sum + n, 0);

function byName(calls: Map<string, number>, per: number): string {
  return [...calls]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${round1(n / per)}`)
    .join(', ');
}

async function usedMemory(redis: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1]);
}

interface Stack {
  gateway: Gateway;
  store: RedisStateStore;
  platform: BenchPlatform;
  upstream: ScriptedUpstream;
  wiring: ReturnType<typeof productionWiring>;
  /** A connection of its own, for the bench's polling (not counted as the gateway's). */
  checker: RedisStateStore;
  stop(): Promise<void>;
}

/**
 * A gateway on the bench's Redis, wired as `chatbridge start` wires it, answering the filled conversations' bot on
 * their platform (the in-memory platform under Telegram's name). Its sweep runs at start and then not within the
 * bench's time (sweepIntervalMs: an hour), so that the answers' counts hold the answers' commands only: the sweep's
 * cost is measured apart, on the process.
 */
async function startStack(redisUrl: string, bot: GatewayBot = { id: FILL_BOT, serialNumber: SERIAL }): Promise<Stack> {
  const store = new RedisStateStore({ url: redisUrl, prefix: PREFIX, connectionName: 'chatbridge-bench' });
  const platform = new BenchPlatform(FILL_BOT, clock, 0, FILL_PLATFORM);
  const upstream = new ScriptedUpstream({ fragments: [answerOf(0, 0)], gapMs: 0 }, clock);
  platform.finalText = upstream.finalText;
  const wiring = productionWiring(bot);
  const gateway = createGateway({
    state: store,
    upstream,
    bots: [bot],
    adapters: [platform.adapter],
    logger: silentLogger(),
    policy: { stopGraceMs: 2_000, sweepIntervalMs: 3_600_000 },
    observer: wiring.metrics.observer(),
  });
  const stopHandoff = await wiring.install(gateway, store);
  await gateway.start();
  const checker = new RedisStateStore({ url: redisUrl, prefix: PREFIX, connectionName: 'chatbridge-bench-checker' });
  return {
    gateway,
    store,
    platform,
    upstream,
    wiring,
    checker,
    async stop() {
      await gateway.stop();
      await stopHandoff();
      await store.close();
      await checker.close();
    },
  };
}

/** Until no conversation has queued messages: every turn has written what it writes (the advance included). */
async function untilQueuesEmpty(stack: Stack): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await pendingMembers(stack.checker)).length > 0) {
    if (Date.now() > deadline) throw new Error('bench:million: queues not empty a minute after the last final');
    await sleep(5);
  }
}

interface KeyUse {
  kind: string;
  bytes: number;
  ttlDays: number;
}

/** Every key naming `id` (SCAN of a Redis holding little else), with its MEMORY USAGE and TTL. */
async function keysOf(redis: Redis, id: string): Promise<KeyUse[]> {
  const keys: KeyUse[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${PREFIX}*${id}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of found) {
      const logical = key.slice(PREFIX.length);
      keys.push({
        kind: logical.split(':')[0]!,
        bytes: Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')),
        ttlDays: round1(Number(await redis.pttl(key)) / 86_400_000),
      });
    }
  } while (cursor !== '0');
  return keys.sort((a, b) => a.kind.localeCompare(b.kind));
}

/** Keys that expire within the hour after an answer (dedupe markers, rate windows): not what an idle conversation keeps. */
const SHORT_LIVED = new Set(['dedupe', 'rate']);

/**
 * One conversation answered IDLE_TURNS times through the gateway (the filler's words for conversation 0, as conversation
 * 1), then conversation 0 written by the filler: the same kinds of keys, or the bench stops.
 */
async function crossCheck(redis: PrivateRedis, admin: Redis): Promise<BenchResult[]> {
  await admin.flushall();
  const real = conversationOf(1);
  const stack = await startStack(redis.url);
  try {
    for (let turn = 0; turn < IDLE_TURNS; turn++) {
      stack.upstream.setScript({ fragments: [answerOf(0, turn)], gapMs: 0 });
      stack.platform.finalText = stack.upstream.finalText;
      const shown = stack.platform.finalsShown;
      await stack.platform.userSends(real.id, questionOf(0, turn), false, userOf(1));
      await until(() => stack.platform.finalsShown > shown, 'cross-check: an answer', 10_000);
      await untilQueuesEmpty(stack);
    }
    // The packing is asked for once the last turn's writes are committed, just after its queue advance.
    const packs = PREFIX + gatewayKeys.transcriptPacks(real);
    for (const deadline = Date.now() + 5_000; !(await admin.exists(packs)) && Date.now() < deadline;) await sleep(10);
    await stack.gateway.transcript.packer.idle();
  } finally {
    await stack.stop();
  }
  const pipe = await RespPipe.open(redis.port);
  const state = new RedisStateStore({ url: redis.url, prefix: PREFIX });
  try {
    await fillConversations(pipe, state, {
      size: 1,
      paused: 0,
      yesterday: 1,
      full: 0,
      serial: SERIAL,
      prefix: PREFIX,
      now: Date.now(),
    });
  } finally {
    await pipe.close();
    await state.close();
  }
  const answered = await keysOf(admin, real.id);
  const filled = await keysOf(admin, conversationOf(0).id);
  const kept = answered.filter((key) => !SHORT_LIVED.has(key.kind));
  const kinds = (keys: KeyUse[]) => keys.map((key) => key.kind).join(', ');
  if (kinds(kept) !== kinds(filled))
    throw new Error(
      `bench:million: the filler no longer writes what a conversation keeps: answered for real ${kinds(kept)}, filled ${kinds(filled)}`,
    );
  const daySets = await admin.keys(`${PREFIX}digest:active:*`);
  const dayIndexed = async (conversation: ConversationRef) =>
    (await Promise.all(daySets.map((key) => admin.sismember(key, formatConversationId(conversation))))).includes(1);
  const describe = (keys: KeyUse[]) =>
    keys.map((key) => `${key.kind} ${key.bytes} B (TTL ${key.ttlDays} d)`).join(', ');
  const sum = (keys: KeyUse[]) => keys.reduce((bytes, key) => bytes + key.bytes, 0);
  const inIndex = (await dayIndexed(real)) && (await dayIndexed(conversationOf(0)));
  return [
    {
      name: 'million.cross-check.answered-conversation-bytes',
      value: sum(kept),
      unit: 'bytes',
      notes:
        `a private chat answered ${IDLE_TURNS} times for real (gateway with the handoff, packer idle): ${describe(kept)}; ` +
        `short-lived and not counted: ${describe(answered.filter((key) => SHORT_LIVED.has(key.kind))) || 'none'}`,
    },
    {
      name: 'million.cross-check.filled-conversation-bytes',
      value: sum(filled),
      unit: 'bytes',
      notes:
        `the same words written by the filler: ${describe(filled)}; the same key kinds (checked: the bench stops otherwise); ` +
        `both in a day index set: ${inIndex ? 'yes' : 'NO'}; TTLs differ by the age the filler gives (a day and more)`,
    },
  ];
}

/** Fills Redis with `size` conversations; their memory. */
async function fill(redis: PrivateRedis, admin: Redis, size: number, now: number): Promise<BenchResult[]> {
  await admin.flushall();
  const before = await usedMemory(admin);
  const pipe = await RespPipe.open(redis.port);
  const state = new RedisStateStore({ url: redis.url, prefix: PREFIX, connectionName: 'chatbridge-bench-fill' });
  let report;
  try {
    report = await fillConversations(pipe, state, {
      size,
      paused: Math.min(PAUSED, size),
      yesterday: Math.min(YESTERDAY, size),
      full: FULL,
      serial: SERIAL,
      prefix: PREFIX,
      now,
    });
  } finally {
    await pipe.close();
    await state.close();
  }
  const after = await usedMemory(admin);
  const keys = await admin.dbsize();
  const last = conversationOf(size - 1);
  const idle = await Promise.all(
    [gatewayKeys.session(last), gatewayKeys.transcriptPacks(last)].map(async (key) => ({
      kind: key.split(':')[0]!,
      bytes: Number(await admin.call('MEMORY', 'USAGE', PREFIX + key, 'SAMPLES', '0')),
    })),
  );
  const n = sizeName(size);
  return [
    {
      name: `million.fill.seconds.${size}`,
      value: round1(report.ms / 1000),
      unit: 's',
      notes:
        `${n} conversations (${sizeName(Math.min(PAUSED, size))} paused), ${sizeName(report.commands)} commands over a raw RESP pipe ` +
        `and the pauses through the store; ${round1(report.packMs / 1000)} s of it packing transcripts; ${load()}`,
    },
    {
      name: `million.redis.used-memory.${size}`,
      value: round1((after - before) / 2 ** 20),
      unit: 'MB',
      notes: `INFO memory used_memory after the fill less before it (empty: ${round1(before / 2 ** 20)} MB); ${sizeName(keys)} keys`,
    },
    {
      name: `million.redis.bytes-per-conversation.${size}`,
      value: Math.round((after - before) / size),
      unit: 'bytes',
      notes:
        `used_memory's growth over ${n} conversations (Redis's key table, the day index sets and the paused ones included); ` +
        `one idle conversation's keys by MEMORY USAGE: ${idle.map((key) => `${key.kind} ${key.bytes} B`).join(', ')}`,
    },
  ];
}

/** GET /readyz until it answers 200. */
async function untilReady(port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await send(port, '/readyz').catch(() => ({ status: 0 }))).status !== 200) {
    if (Date.now() > deadline) throw new Error('bench:million: /readyz never answered 200');
    await sleep(10);
  }
}

/** Start-up, the idle minute and the inbox, on `chatbridge start` processes. */
async function measureProcess(redis: PrivateRedis, admin: Redis, size: number, entry: string): Promise<BenchResult[]> {
  const configFile = join(mkdtempSync(join(tmpdir(), 'cb-bench-million-')), 'chatbridge.yaml');
  writeFileSync(configFile, `keyPrefix: "${PREFIX}"\nconsole: off\nport: 0\nhost: 127.0.0.1\n`);
  const fake = await startFakeTelegram({ rateLimit: false });
  const env = {
    REDIS_URL: redis.url,
    ADMIN_TOKEN,
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.apiRoot,
    // Mails are never due here, but with a transport the outbox polls its shards as in production.
    SMTP_URL: 'smtp://127.0.0.1:2',
  };
  const n = sizeName(size);
  const startTimes: number[] = [];
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
  try {
    const beforeStarts = await commandCalls(admin);
    for (let start = 0; start < STARTS; start++) {
      if (gateway) await stopGateway(gateway);
      const spawned = performance.now();
      gateway = await startGateway(entry, configFile, env);
      await untilReady(gateway.port);
      startTimes.push(performance.now() - spawned);
    }
    const { pid, port } = { pid: gateway!.child.pid!, port: gateway!.port };
    const startCalls = callsBetween(beforeStarts, await commandCalls(admin));

    await sleep(SETTLE_MS);
    const calls = await commandCalls(admin);
    const [gatewayCpu, redisCpu] = [cpuMs(pid), cpuMs(redis.pid)];
    await sleep(IDLE_SECONDS * 1000);
    const idleCalls = callsBetween(calls, await commandCalls(admin));
    const minutes = IDLE_SECONDS / 60;
    const idleGatewayCpu = (cpuMs(pid) - gatewayCpu) / minutes;
    const idleRedisCpu = (cpuMs(redis.pid) - redisCpu) / minutes;

    const { cookie } = await signIn(port);
    const waiting = `${sizeName(Math.min(PAUSED, size))} conversations are waiting.`;
    const list = await timeRequests(
      port,
      cookie,
      ['/inbox'],
      (body) => body.includes(waiting) && body.includes('User 0 (@user0) on Telegram'),
      INBOX_REQUESTS,
    );
    const pages = Array.from(
      { length: FULL },
      (_, k) => `/inbox/conversations/${encodeURIComponent(formatConversationId(conversationOf(k)))}`,
    );
    const conversation = await timeRequests(
      port,
      cookie,
      pages,
      (body) => body.includes('role="log"') && body.includes('talk to a person'),
      INBOX_REQUESTS,
    );
    const scale = `${n} conversations kept, ${sizeName(Math.min(PAUSED, size))} of them paused`;
    return [
      {
        name: `million.start.ready.${size}`,
        value: Math.round(percentile(startTimes, 50)),
        unit: 'ms',
        notes:
          `median of ${STARTS} starts of \`chatbridge start\` (${entry === COMPILED ? 'compiled' : 'bin/chatbridge.js'}) on Redis ` +
          `with ${n} conversations, spawn → /readyz 200: ${startTimes.map((ms) => Math.round(ms)).join(', ')} ms; ` +
          `Redis commands per start (INFO commandstats, a stop included): ${Math.round(total(startCalls) / STARTS)}; ${load()}`,
      },
      {
        name: `million.idle.redis-commands-per-minute.${size}`,
        value: Math.round(total(idleCalls) / minutes),
        unit: 'commands/min',
        notes:
          `an idle \`chatbridge start\` process over ${IDLE_SECONDS} s (default intervals), INFO commandstats: ` +
          `${byName(idleCalls, minutes)}`,
      },
      {
        name: `million.idle.gateway-cpu-per-minute.${size}`,
        value: round1(idleGatewayCpu),
        unit: 'ms/min',
        notes: `the same process's CPU (/proc utime + stime), Telegram's long polling of the fake included; ${load()}`,
      },
      {
        name: `million.idle.redis-cpu-per-minute.${size}`,
        value: round1(idleRedisCpu),
        unit: 'ms/min',
        notes: `redis-server's CPU meanwhile (its own cron, active expiry over ${n} conversations' keys included)`,
      },
      {
        name: `million.inbox.list.p50.${size}`,
        value: round1(percentile(list, 50)),
        unit: 'ms',
        notes: `GET /inbox signed in, ${scale}: the newest 100 in full, the rest counted; ${INBOX_REQUESTS} requests one after another`,
      },
      {
        name: `million.inbox.list.p95.${size}`,
        value: round1(percentile(list, 95)),
        unit: 'ms',
        notes: `as above; max ${round1(Math.max(...list))} ms`,
      },
      {
        name: `million.inbox.conversation.p50.${size}`,
        value: round1(percentile(conversation, 50)),
        unit: 'ms',
        notes:
          `GET /inbox/conversations/:id with 199 entries (24 packed chunks and 7 entries), ${scale}; ` +
          `${INBOX_REQUESTS} requests over ${FULL} conversations`,
      },
      {
        name: `million.inbox.conversation.p95.${size}`,
        value: round1(percentile(conversation, 95)),
        unit: 'ms',
        notes: `as above; max ${round1(Math.max(...conversation))} ms`,
      },
    ];
  } finally {
    if (gateway) await stopGateway(gateway);
    await fake.close();
  }
}

/** Answers one message in each of `ids`' conversations at once; resolves once every turn has written all it writes. */
async function answerAll(stack: Stack, ids: string[], user: (id: string) => PlatformUser): Promise<void> {
  const shown = stack.platform.finalsShown;
  for (let first = 0; first < ids.length; first += WAVE)
    await Promise.all(
      ids
        .slice(first, first + WAVE)
        .map((id) => stack.platform.userSends(id, `${questionOf(Number(id) % 1000, 1)} #${id}`, false, user(id))),
    );
  await until(() => stack.platform.finalsShown - shown >= ids.length, `${ids.length} answers`, 120_000, 2);
  await untilQueuesEmpty(stack);
  await stack.gateway.transcript.packer.idle();
}

/** New messages answered by an in-process gateway on the filled Redis: CPU and commands per answer. */
async function measureAnswers(redis: PrivateRedis, admin: Redis, size: number): Promise<BenchResult[]> {
  const stack = await startStack(redis.url);
  const counter = countRedisCommands(stack.store.client);
  // The bench's own polling, taken out of what Redis counts.
  const polling = countRedisCommands(stack.checker.client);
  const telegramUser = (id: string): PlatformUser => ({
    id,
    name: `User ${id.slice(-4)}`,
    handle: `user${id.slice(-4)}`,
  });
  const results: BenchResult[] = [];
  try {
    const idle = Math.max(0, size - PAUSED);
    const count = Math.min(ANSWERS, Math.floor(idle / 2));
    // Spread over the idle ones, the paused left out (their messages go to the operator, not the bot); `shift` 1: their neighbours.
    const idleOnes = (shift: number) =>
      Array.from({ length: count }, (_, i) => conversationOf(size - idle + Math.floor((i * idle) / count) + shift).id);
    // Both kinds once first, not measured: the JIT, the scripts loaded (EVAL once, EVALSHA after), the modules a turn loads.
    await answerAll(
      stack,
      [
        ...Array.from({ length: WARM_UP_ANSWERS }, (_, i) => String(NEW_IDS + 900_000 + i)),
        ...idleOnes(1).slice(0, WARM_UP_ANSWERS),
      ],
      telegramUser,
    );
    const passes = { new: Array.from({ length: ANSWERS }, (_, i) => String(NEW_IDS + i)), existing: idleOnes(0) };
    for (const [kind, ids] of Object.entries(passes)) {
      if (ids.length === 0) continue;
      counter.reset();
      polling.reset();
      const calls = await commandCalls(admin);
      const redisCpu = cpuMs(redis.pid);
      const cpu = process.cpuUsage();
      const started = performance.now();
      await answerAll(stack, ids, telegramUser);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const redisMs = cpuMs(redis.pid) - redisCpu;
      const server = callsBetween(calls, await commandCalls(admin));
      for (const [name, n] of polling.snapshot().byName) server.set(name, (server.get(name) ?? 0) - n);
      const client = counter.snapshot();
      const what =
        kind === 'new'
          ? `${ids.length} new conversations (a session asked for and written)`
          : `${ids.length} of the ${sizeName(size)} idle conversations, spread over them (their session and transcript in Redis)`;
      results.push(
        {
          name: `million.answer.${kind}.cpu.${size}`,
          value: Math.round((used.user + used.system) / ids.length),
          unit: 'µs/answer',
          notes:
            `one message each in ${what}, ${WAVE} at a time, in-memory platform, instant upstream, bursts on (the default ` +
            `gateway.burstMs: each answer waits for more bubbles): this process's CPU per answer ` +
            `(${Math.round(ids.length / seconds)} answers/s); Redis's ${Math.round((redisMs * 1000) / ids.length)} µs more; ${load()}`,
        },
        {
          name: `million.answer.${kind}.commands.${size}`,
          value: round1(client.commands / ids.length),
          unit: 'commands/answer',
          notes:
            `sent on the gateway's connection, as bench/gateway.ts counts them (MULTI/EXEC not counted; ` +
            `${round1(client.roundTrips / ids.length)} round trips): ${byName(client.byName, ids.length)}`,
        },
        {
          name: `million.answer.${kind}.redis-calls.${size}`,
          value: round1(total(server) / ids.length),
          unit: 'calls/answer',
          notes: `what Redis ran (INFO commandstats: MULTI, EXEC and each command a script runs count): ${byName(server, ids.length)}`,
        },
      );
    }
  } finally {
    counter.detach();
    polling.detach();
    await stack.stop();
  }
  return results;
}

/** The day's digests of yesterday's conversations, built as the scheduler builds them, with the other conversations there. */
async function measureDigests(redis: PrivateRedis, admin: Redis, size: number, now: number): Promise<BenchResult[]> {
  // The process seeded the demo chatbot's settings; the digests' (addresses, UTC) are seeded in their place.
  await admin.del(PREFIX + gatewayKeys.settings(SERIAL));
  const stack = await startStack(redis.url, {
    id: FILL_BOT,
    serialNumber: SERIAL,
    settings: {
      TimeZone: 'UTC',
      EmailForDailyLeads: 'sales@bench.example',
      EmailForDailyChatLogs: 'logs@bench.example',
    },
  });
  const day = dayOf(yesterdayStart(now));
  const results: BenchResult[] = [];
  try {
    const handoff = stack.wiring.handoff!;
    // The schedule's own check at start may be building yesterday's digests: they are not timed alongside.
    await handoff.digestSchedule.check();
    for (const kind of ['leads', 'logs'] as const) {
      const started = performance.now();
      const { mail } = await handoff.digests.preview(FILL_BOT, kind, day);
      const took = performance.now() - started;
      const bytes = Buffer.byteLength(mail?.text ?? '') + Buffer.byteLength(mail?.html ?? '');
      results.push({
        name: `million.digests.${kind}.build-time.${size}`,
        value: Math.round(took),
        unit: 'ms',
        notes:
          `${sizeName(Math.min(YESTERDAY, size))} conversations of yesterday (${IDLE_TURNS * 2} entries each, one chunk) among ` +
          `${sizeName(size)}; mail ${round1(bytes / 2 ** 20)} MB (text + HTML), ${mail?.omitted ?? 0} left out by the size cap`,
      });
    }
  } finally {
    await stack.stop();
  }
  return results;
}

/** Each measure's growth from the smallest size to the largest, per 100,000 conversations. */
function growth(results: BenchResult[]): BenchResult[] {
  if (SIZES.length < 2) return [];
  const [small, large] = [Math.min(...SIZES), Math.max(...SIZES)];
  const per = (large - small) / 100_000;
  return results.flatMap((result): BenchResult[] => {
    // The fill's time is the bench's own; bytes per conversation fall as the fixed part (the pauses) spreads: used memory's growth says it.
    if (!result.name.endsWith(`.${small}`) || /^million\.(fill|redis\.bytes-per-conversation)\./.test(result.name))
      return [];
    const measure = result.name.slice(0, -`.${small}`.length);
    const other = results.find((candidate) => candidate.name === `${measure}.${large}`);
    if (!other) return [];
    const change = result.value === 0 ? 0 : (other.value - result.value) / result.value;
    return [
      {
        name: `million.growth.${measure.slice('million.'.length)}`,
        value: round1((other.value - result.value) / per),
        unit: `${result.unit} per 100k conversations`,
        notes:
          `${sizeName(small)}: ${result.value}, ${sizeName(large)}: ${other.value} (${change >= 0 ? '+' : ''}${Math.round(change * 100)}%)` +
          (measure === 'million.redis.used-memory'
            ? `: ${Math.round(((other.value - result.value) * 2 ** 20) / (large - small))} bytes per conversation more`
            : ''),
      },
    ];
  });
}

export async function run(): Promise<BenchResult[]> {
  const build = !process.env.BENCH_NO_BUILD;
  if (build) {
    process.stderr.write('bench:million: npm run build…\n');
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  }
  const redis = await startPrivateRedis();
  const admin = new Redis(redis.url, { connectionName: 'chatbridge-bench-admin' });
  const results: BenchResult[] = [];
  try {
    results.push(...(await crossCheck(redis, admin)));
    for (const size of SIZES) {
      const now = Date.now();
      process.stderr.write(`bench:million: ${sizeName(size)} conversations: filling…\n`);
      results.push(...(await fill(redis, admin, size, now)));
      process.stderr.write(`bench:million: ${sizeName(size)}: start-up, the idle minute, the inbox…\n`);
      results.push(...(await measureProcess(redis, admin, size, build ? COMPILED : CLI)));
      process.stderr.write(`bench:million: ${sizeName(size)}: answers, digests…\n`);
      results.push(...(await measureAnswers(redis, admin, size)));
      results.push(...(await measureDigests(redis, admin, size, now)));
    }
    results.push(...growth(results));
  } finally {
    admin.disconnect();
    await redis.stop();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const result of await run())
    process.stdout.write(`${result.name}: ${result.value} ${result.unit} (${result.notes})\n`);
}
