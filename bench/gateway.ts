/**
 * The gateway core on Redis, measured against a scripted upstream (the stand-in
 * for the hosted service, bench/support/scripted-upstream.ts) and against the
 * fake Telegram Bot API driven by the real Telegram adapter (grammY, polling):
 *
 * 1. added latency from the upstream's first fragment to the first visible text,
 *    for the draft renderer (private chats) and the edit renderer (groups);
 * 2. throughput in answered messages per second, on the core alone (sink.accept,
 *    in-memory platform) and through the adapter and the fake;
 * 3. Redis commands and round trips per answered message, with the handoff installed as
 *    `chatbridge start` installs it; and the Redis memory an idle conversation keeps;
 * 4. a 200-chat burst against the fake's flood limits: 429s, lost finals, time.
 *
 * The throughput parts (2) send each chat's messages back to back and count one answer per message:
 * they turn bursts off (gateway.burstMs 0), or each chat's messages would be one burst answered once.
 * The other parts send one message at a time per chat and keep the default burst window.
 *
 * Everything lives under a private Redis prefix that is deleted at the end.
 * Run alone with `npx tsx bench/gateway.ts` (prints JSON); GATEWAY_BENCH_ONLY=core,burst runs only those parts.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createTelegramAdapter } from '../adapters/telegram/index.js';
import type { PacingOptions } from '../adapters/telegram/pacing.js';
import {
  createGateway,
  DEFAULT_GATEWAY_POLICY,
  pendingMembers,
  type Gateway,
  type GatewayPolicy,
} from '../src/gateway/index.js';
import type { Adapter } from '../src/contract.js';
import { silentLogger } from '../src/logger.js';
import { DEFAULT_KEY_PREFIX, RedisStateStore } from '../src/state/index.js';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/index.js';
import { BenchPlatform } from './support/memory-platform.js';
import { countRedisCommands, type RedisCount } from './support/redis-counter.js';
import { ScriptedUpstream, type AnswerScript } from './support/scripted-upstream.js';
import { clock, percentile, round1, until } from './support/stats.js';
import {
  CONVERSATION_ANSWERS,
  CONVERSATION_QUESTIONS,
  FIRST,
  INSTANT,
  STREAMED,
  tenFragments,
} from './support/answers.js';
import type { BenchResult } from './support/result.js';
import { deletePrefix, runParts } from './support/parts.js';
import { productionWiring } from './support/production-wiring.js';
import { measureIdleConversationBytes } from './support/idle-bytes.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT_PREFIX = `cbbench:gw:${randomUUID().slice(0, 8)}:`;
const BOT = 'main';

/** ~10 fragments over ~2 s, for the burst against the flood limits. */
const SLOW: AnswerScript = {
  fragments: [
    FIRST,
    ...Array.from({ length: 9 }, (_, i) => ` Detail number ${i + 1} about this home is worth knowing.`),
  ],
  gapMs: 220,
};

const LATENCY_ANSWERS = 200;
/**
 * Questions per second while measuring latency: a steady load, not a burst, and within
 * Telegram's ~30 messages/s per bot (a group answer costs a send and an edit).
 */
const LATENCY_ARRIVALS_PER_S = 12;
const THROUGHPUT_CHATS = 500;
const THROUGHPUT_MESSAGES = 4;
const BURST_CHATS = 200;
const IDLE_ANSWERS = 4;
const SIMULATED_RTT_MS = 50;

/**
 * For the parts that send a chat's THROUGHPUT_MESSAGES back to back and wait for as many finals:
 * with the default burst window those messages are one burst, answered once (500 answers for 2,000
 * messages, and the wait for 2,000 finals never ends). Each message is answered on its own here, as
 * a question sent after the window would be; bench/bursts.ts measures the window itself.
 */
const BURSTS_OFF: Partial<GatewayPolicy> = { burstMs: 0 };
/** What the parts that keep the default burst window say of it. */
const BURST_WINDOW = `each question waits the default burst window (gateway.burstMs ${DEFAULT_GATEWAY_POLICY.burstMs} ms) before the upstream is asked`;

interface Stack {
  gateway: Gateway;
  store: RedisStateStore;
  upstream: ScriptedUpstream;
  stop(): Promise<void>;
}

let stackCount = 0;

/**
 * A gateway with its own Redis connection (so its commands can be counted alone), wired as
 * `chatbridge start` wires it: the handoff installed (its pause check runs in every turn)
 * and the metrics observer.
 */
async function startStack(adapter: Adapter, script: AnswerScript, policy: Partial<GatewayPolicy> = {}): Promise<Stack> {
  const store = new RedisStateStore({
    url: REDIS_URL,
    prefix: `${ROOT_PREFIX}${stackCount++}:`,
    connectionName: 'chatbridge-bench',
  });
  const upstream = new ScriptedUpstream(script, clock);
  const bot = { id: BOT, serialNumber: 'BENCH-SERIAL' };
  const wiring = productionWiring(bot);
  const gateway = createGateway({
    state: store,
    upstream,
    bots: [bot],
    adapters: [adapter],
    logger: silentLogger(),
    policy: { stopGraceMs: 2_000, ...policy },
    observer: wiring.metrics.observer(),
  });
  const stopHandoff = await wiring.install(gateway, store);
  await gateway.start();
  return {
    gateway,
    store,
    upstream,
    async stop() {
      await gateway.stop();
      await stopHandoff();
      await store.close();
    },
  };
}

function telegramAdapter(fake: FakeTelegram, pacing?: PacingOptions): Adapter {
  return createTelegramAdapter({
    bot: BOT,
    token: fake.token,
    apiRoot: fake.apiRoot,
    mode: 'polling',
    logger: silentLogger(),
    botInfo: fake.botInfo,
    ...(pacing ? { pacing } : {}),
  });
}

const question = (chat: number) =>
  chat < 0 ? `@chatbridge_test_bot tell me about the house #${chat}` : `Tell me about the house #${chat}`;
const chatIds = (first: number, count: number, group: boolean) =>
  Array.from({ length: count }, (_, i) => (group ? -(first + i) : first + i));

/** The fake's own log: when text first showed in the chat (draft or message), from the fake's clock. */
function firstVisibleAt(fake: FakeTelegram, chat: number): number | undefined {
  return fake
    .chatLog(chat)
    .find(
      (call) =>
        call.ok && call.visibleText && ['sendMessageDraft', 'sendMessage', 'editMessageText'].includes(call.method),
    )?.at;
}

const showsFinal = (fake: FakeTelegram, chat: number, final: string) =>
  fake
    .visibleMessages(chat)
    .map((m) => m.text)
    .join('') === final;

function latencyResults(label: string, latencies: number[], notes: string): BenchResult[] {
  return [50, 95, 99].map((p) => ({
    name: `gateway.first-visible.${label}.p${p}`,
    value: round1(percentile(latencies, p)),
    unit: 'ms',
    notes,
  }));
}

/** 1. Upstream's first fragment → first visible text, through the Telegram adapter and the fake. */
async function measureLatency(): Promise<BenchResult[]> {
  const fake = await startFakeTelegram({ now: clock });
  const stack = await startStack(telegramAdapter(fake), STREAMED);
  const results: BenchResult[] = [];
  try {
    // Warm-up of both renderers (JIT, first module loads), not measured.
    const warm = [...chatIds(290_001, 20, false), ...chatIds(290_001, 20, true)];
    for (const chat of warm) fake.userSends({ chat, text: question(chat) });
    await until(
      () => warm.every((chat) => showsFinal(fake, chat, stack.upstream.finalText)),
      'latency warm-up',
      30_000,
      20,
    );
    for (const [label, group] of [
      ['draft-private', false],
      ['edit-group', true],
    ] as const) {
      const chats = chatIds(group ? 300_001 : 200_001, LATENCY_ANSWERS, group);
      for (const chat of chats) {
        fake.userSends({ chat, text: question(chat) });
        await new Promise((resolve) => setTimeout(resolve, 1000 / LATENCY_ARRIVALS_PER_S));
      }
      await until(
        () => chats.every((chat) => showsFinal(fake, chat, stack.upstream.finalText)),
        `${label}: every final`,
        30_000,
        20,
      );
      const latencies: number[] = [];
      let typingBefore = 0;
      for (const chat of chats) {
        const start = stack.upstream.firstFragmentAt.get(String(chat));
        const shown = firstVisibleAt(fake, chat);
        if (start === undefined || shown === undefined)
          throw new Error(`latency: chat ${chat} has no first fragment or no visible text`);
        latencies.push(shown - start);
        typingBefore += fake
          .chatLog(chat)
          .filter((call) => call.method === 'sendChatAction' && call.at <= shown).length;
      }
      results.push(
        ...latencyResults(
          label,
          latencies,
          `${chats.length} answers, ${LATENCY_ARRIVALS_PER_S} questions/s, real adapter + fake Bot API on 127.0.0.1 (default flood limits); ` +
            `upstream yield of the first fragment → fake's log time of the first draft/message; ` +
            `${BURST_WINDOW}, not counted here; ` +
            `${round1(typingBefore / chats.length)} sendChatAction calls per chat before it; load average ${loadavg()[0]?.toFixed(1) ?? '?'}`,
        ),
      );
    }
  } finally {
    await stack.stop();
    await fake.close();
  }
  return results;
}

/** 1b. The same on the core alone, with a platform whose every call takes SIMULATED_RTT_MS. */
async function measureLatencyWithRoundTrip(): Promise<BenchResult[]> {
  const adapter = new BenchPlatform(BOT, clock, SIMULATED_RTT_MS);
  const stack = await startStack(adapter.adapter, STREAMED);
  adapter.finalText = stack.upstream.finalText;
  const results: BenchResult[] = [];
  try {
    for (const [label, group] of [
      ['draft-private', false],
      ['edit-group', true],
    ] as const) {
      const chats = chatIds(group ? 500_001 : 400_001, LATENCY_ANSWERS, group);
      const before = adapter.finalsShown;
      for (const chat of chats) {
        await adapter.userSends(String(chat), question(chat), group);
        await new Promise((resolve) => setTimeout(resolve, 1000 / LATENCY_ARRIVALS_PER_S));
      }
      await until(() => adapter.finalsShown - before >= chats.length, `${label}: every final (simulated RTT)`, 30_000);
      const latencies = chats.map(
        (chat) => adapter.firstVisibleAt.get(String(chat))! - stack.upstream.firstFragmentAt.get(String(chat))!,
      );
      results.push({
        name: `gateway.first-visible.${label}.rtt${SIMULATED_RTT_MS}ms.p50`,
        value: round1(percentile(latencies, 50)),
        unit: 'ms',
        notes:
          `in-memory platform where each call takes ${SIMULATED_RTT_MS} ms and text shows at half of it (floor ${SIMULATED_RTT_MS / 2} ms); ` +
          `p95 ${round1(percentile(latencies, 95))} ms; ${chats.length} answers; ${BURST_WINDOW}, not counted here`,
      });
    }
  } finally {
    await stack.stop();
  }
  return results;
}

function perMessage(count: RedisCount, messages: number): { commands: number; roundTrips: number; top: string } {
  const top = [...count.byName]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${round1(n / messages)}`)
    .join(', ');
  return { commands: count.commands / messages, roundTrips: count.roundTrips / messages, top };
}

/** Sends `perChat` messages in each chat (in order within a chat, chats in parallel). */
async function sendAll(adapter: BenchPlatform, chats: number[], perChat: number, group: boolean): Promise<void> {
  await Promise.all(
    chats.map(async (chat) => {
      for (let n = 0; n < perChat; n++) await adapter.userSends(String(chat), `${question(chat)} (${n + 1})`, group);
    }),
  );
}

interface Pass {
  answersPerSecond: number;
  /** Gateway process CPU per answer (µs): the cost that does not depend on how busy the machine is. */
  cpuMicrosPerAnswer: number;
}

/** Runs `messages` answers once and times them (wall clock and this process's CPU). */
async function timedPass(messages: number, work: () => Promise<void>): Promise<Pass> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { answersPerSecond: messages / seconds, cpuMicrosPerAnswer: (used.user + used.system) / messages };
}

function describePasses(passes: Pass[]): string {
  const load = loadavg()[0]?.toFixed(1) ?? '?';
  const leastCpu = Math.min(...passes.map((p) => p.cpuMicrosPerAnswer));
  return (
    `passes: ${passes.map((p) => `${Math.round(p.answersPerSecond)}/s`).join(', ')}; ` +
    `gateway process CPU ${Math.round(leastCpu)} µs/answer ` +
    `(${Math.round(1e6 / leastCpu)} answers per CPU-second, Redis server not included); ` +
    `load average ${load} on ${cpus().length} cores`
  );
}

/** Waits until no conversation has queued messages, checked on a connection of its own (not counted). */
async function untilQueuesEmpty(prefix: string): Promise<void> {
  const checker = new RedisStateStore({ url: REDIS_URL, prefix });
  try {
    const deadline = Date.now() + 30_000;
    while ((await pendingMembers(checker)).length > 0) {
      if (Date.now() > deadline) throw new Error('bench: queues not empty 30 s after the last final');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await checker.close();
  }
}

const CORE_PASSES = { 'private-draft': 3, 'group-edit': 1 } as const;

/** 2 + 3. The core alone: sink.accept → final, in-memory platform, instant upstream; Redis counted. */
async function measureCoreThroughput(): Promise<BenchResult[]> {
  const adapter = new BenchPlatform(BOT, clock);
  const stack = await startStack(adapter.adapter, INSTANT, BURSTS_OFF);
  adapter.finalText = stack.upstream.finalText;
  const counter = countRedisCommands(stack.store.client);
  const results: BenchResult[] = [];
  let nextChat = 600_001;
  try {
    // Warm-up: JIT, and ioredis loading its Lua scripts (EVAL once, then EVALSHA).
    await sendAll(adapter, chatIds(900_001, 50, false), 1, false);
    await sendAll(adapter, chatIds(910_001, 50, true), 1, true);
    await until(() => adapter.finalsShown >= 100, 'warm-up finals', 20_000);

    for (const [label, group] of [
      ['private-draft', false],
      ['group-edit', true],
    ] as const) {
      const messages = THROUGHPUT_CHATS * THROUGHPUT_MESSAGES;
      const passes: Pass[] = [];
      counter.reset();
      for (let pass = 0; pass < CORE_PASSES[label]; pass++) {
        const chats = chatIds(nextChat, THROUGHPUT_CHATS, group);
        nextChat += THROUGHPUT_CHATS;
        const before = adapter.finalsShown;
        const askedBefore = stack.upstream.asked;
        passes.push(
          await timedPass(messages, async () => {
            await sendAll(adapter, chats, THROUGHPUT_MESSAGES, group);
            await until(
              () => adapter.finalsShown - before >= messages,
              `${label}: ${messages} finals`,
              60_000,
              2,
            ).catch((error: unknown) => {
              throw new Error(
                `${String(error)}: ${adapter.finalsShown - before} shown, the upstream asked ` +
                  `${stack.upstream.asked - askedBefore} times for ${messages} messages`,
              );
            });
          }),
        );
        // The last turns still write after their final is shown (in-flight record, queue advance): count those too.
        await untilQueuesEmpty(stack.store.prefix);
      }
      const redis = perMessage(counter.snapshot(), messages * passes.length);
      results.push(
        {
          name: `gateway.throughput.core.${label}`,
          value: Math.round(Math.max(...passes.map((p) => p.answersPerSecond))),
          unit: 'answers/s',
          notes:
            `best of ${passes.length}; ${THROUGHPUT_CHATS} chats × ${THROUGHPUT_MESSAGES} messages via sink.accept, in-memory platform, ` +
            `instant upstream, bursts off (each message its own answer), accept → final shown; ${describePasses(passes)}`,
        },
        {
          name: `gateway.redis.commands-per-answer.${label}`,
          value: round1(redis.commands),
          unit: 'commands',
          notes:
            "counted on the gateway's own connection (wrapped sendCommand), the commands the gateway sends " +
            "(MULTI/EXEC themselves not counted, a script's calls not seen); bursts off (million.answer.*.commands counts with them on); " +
            `the first message of a chat (1 in ${THROUGHPUT_MESSAGES}) is included; per answer by name: ${redis.top}`,
        },
        {
          name: `gateway.redis.round-trips-per-answer.${label}`,
          value: round1(redis.roundTrips),
          unit: 'round trips',
          notes:
            'production wiring (handoff installed, as chatbridge start does); ' +
            'a pipeline or MULTI…EXEC = 1, EVALSHA = 1, any other command = 1 (bench/support/ioredis-round-trips.cjs)',
        },
      );
    }
  } finally {
    counter.detach();
    await stack.stop();
  }
  return results;
}

/** 3b. A private chat answered IDLE_ANSWERS times with 600-character answers, now quiet: the Redis memory it keeps. */
async function measureIdleConversation(): Promise<BenchResult[]> {
  const adapter = new BenchPlatform(BOT, clock);
  const stack = await startStack(adapter.adapter, tenFragments(CONVERSATION_ANSWERS[0]!));
  const redis = new Redis(REDIS_URL, { connectionName: 'chatbridge-bench-memory' });
  const chat = '1300001';
  try {
    for (let n = 0; n < IDLE_ANSWERS; n++) {
      stack.upstream.setScript(tenFragments(CONVERSATION_ANSWERS[n % CONVERSATION_ANSWERS.length]!));
      adapter.finalText = stack.upstream.finalText;
      await adapter.userSends(chat, `${CONVERSATION_QUESTIONS[n % CONVERSATION_QUESTIONS.length]} #${chat}`);
      await until(() => adapter.finalsShown >= n + 1, 'idle conversation: answer', 10_000);
    }
    await untilQueuesEmpty(stack.store.prefix);
    // The packing runs after the turn that asked for it, off the answer's path: measured once it is done.
    await stack.gateway.transcript.packer.idle();
    const bytes = await measureIdleConversationBytes(redis, stack.store.prefix, chat);
    const kinds = [...bytes.byKind]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    return [
      {
        name: 'gateway.redis.bytes-per-idle-conversation',
        value: bytes.afterDedupe,
        unit: 'bytes',
        notes:
          `MEMORY USAGE (SAMPLES 0) of every key of one private chat after ${IDLE_ANSWERS} distinct answers of about 600 characters ` +
          `(bench/support/answers.ts CONVERSATION_ANSWERS, packed as gateway.transcriptPackEntries says), ` +
          'the WhatsApp greeted: marker included, once the dedupe markers expired (policy.dedupeTtlMs); ' +
          `${bytes.total} bytes while they live; by key: ${kinds}; ` +
          `${bytes.keys} keys, each named with this bench's prefix (${stack.store.prefix.length} characters, ` +
          `${stack.store.prefix.length - DEFAULT_KEY_PREFIX.length} more than the default cb:)`,
      },
      {
        // Issue #13's measure: what a conversation costs to keep whatever its length; the transcript grows with what was said.
        name: 'gateway.redis.bytes-per-idle-conversation.without-transcript',
        // The transcript is two kinds of key since it is packed: its packed chunks and the entries not packed yet.
        value: bytes.afterDedupe - (bytes.byKind.get('transcript') ?? 0) - (bytes.byKind.get('transcript-packs') ?? 0),
        unit: 'bytes',
        notes:
          'the same conversation, its transcript (packed chunks and entries not packed yet) left out ' +
          '(session, WhatsApp greeted: marker; rate windows and dedupe markers expired)',
      },
    ];
  } finally {
    redis.disconnect();
    await stack.stop();
  }
}

/**
 * 2b. Through grammY polling, the Telegram adapter and the fake (no flood limits). The
 * adapter's own bot-wide pace (Telegram's ~30 messages/s per bot) is lifted for this
 * one bot token: with it, this would measure the pace, not the gateway.
 */
async function measureTelegramThroughput(): Promise<BenchResult[]> {
  const fake = await startFakeTelegram({ rateLimit: false, now: clock });
  // The pace belongs to the adapter instance: lifted for this one only.
  const stack = await startStack(telegramAdapter(fake, { perSecond: 1e9, burst: 1e9 }), INSTANT, BURSTS_OFF);
  const final = stack.upstream.finalText;
  try {
    // Chats already done are not looked at again: the check runs in this process too.
    const finalsIn = (chats: number[], each: number) => {
      const pending = new Set(chats);
      return () => {
        for (const chat of pending)
          if (fake.visibleMessages(chat).filter((m) => m.text === final).length >= each) pending.delete(chat);
        return pending.size === 0;
      };
    };
    const warm = chatIds(950_001, 50, false);
    for (const chat of warm) fake.userSends({ chat, text: question(chat) });
    await until(finalsIn(warm, 1), 'telegram warm-up', 20_000, 20);

    const chats = chatIds(800_001, THROUGHPUT_CHATS, false);
    const messages = chats.length * THROUGHPUT_MESSAGES;
    const pass = await timedPass(messages, async () => {
      for (let n = 0; n < THROUGHPUT_MESSAGES; n++)
        for (const chat of chats) fake.userSends({ chat, text: `${question(chat)} (${n + 1})` });
      await until(finalsIn(chats, THROUGHPUT_MESSAGES), `telegram: ${messages} finals`, 90_000, 20);
    });
    return [
      {
        name: 'gateway.throughput.telegram-polling.private-draft',
        value: Math.round(pass.answersPerSecond),
        unit: 'answers/s',
        notes:
          `${chats.length} chats × ${THROUGHPUT_MESSAGES} messages: fake getUpdates → grammY runner → adapter → core → Bot API ` +
          '(sendChatAction, sendMessageDraft, sendMessage per answer), ' +
          "no flood limits and the adapter's 30 messages/s bot pace lifted, bursts off, the fake in the same process " +
          `(its CPU counted too); ${describePasses([pass])}`,
      },
    ];
  } finally {
    await stack.stop();
    await fake.close();
  }
}

/** 4. 200 chats ask at once; the answer streams for ~2 s; the fake enforces Telegram's flood limits. */
async function measureBurst(): Promise<BenchResult[]> {
  const fake = await startFakeTelegram({ now: clock });
  const stack = await startStack(telegramAdapter(fake), SLOW);
  const final = stack.upstream.finalText;
  try {
    const chats = [...chatIds(1_100_001, BURST_CHATS / 2, false), ...chatIds(1_200_001, BURST_CHATS / 2, true)];
    const doneAt = new Map<number, number>();
    const started = clock();
    for (const chat of chats) fake.userSends({ chat, text: question(chat) });
    const pending = new Set(chats);
    await until(
      () => {
        for (const chat of pending) {
          if (!showsFinal(fake, chat, final)) continue;
          doneAt.set(chat, clock() - started);
          pending.delete(chat);
        }
        return pending.size === 0;
      },
      'burst: every final',
      60_000,
      20,
    ).catch(() => undefined);
    const complete = doneAt.size;
    const times = [...doneAt.values()];
    const asked = chats.map((chat) => (stack.upstream.firstFragmentAt.get(String(chat)) ?? Number.NaN) - started);
    const by429 = (group: boolean) =>
      chats
        .filter((c) => c < 0 === group)
        .reduce((sum, chat) => sum + fake.chatLog(chat).filter((call) => call.errorCode === 429).length, 0);
    const notes =
      `${chats.length / 2} private (draft) + ${chats.length / 2} group (edit) chats ask at once; ` +
      `${SLOW.fragments.length} fragments ${SLOW.gapMs} ms apart; fake with default limits (1 msg/s per chat, burst 1, 20/min per group); ` +
      `${BURST_WINDOW}, counted in the times`;
    return [
      {
        name: 'gateway.burst.429s',
        value: fake.tooManyRequestsCount(),
        unit: '429s',
        notes: `${notes}; private ${by429(false)}, group ${by429(true)}`,
      },
      {
        name: 'gateway.burst.complete-finals',
        value: complete,
        unit: `of ${chats.length} chats`,
        notes: 'visible text of the chat equals the final answer exactly',
      },
      {
        name: 'gateway.burst.lost-finals',
        value: chats.length - complete,
        unit: 'chats',
        notes: 'no full final within 60 s',
      },
      {
        name: 'gateway.burst.all-finals-visible',
        value: Math.round(Math.max(...times)),
        unit: 'ms',
        notes:
          `from the burst of updates to the last final on screen; per chat p50 ${Math.round(percentile(times, 50))} ms; ` +
          `the stream alone takes ~${(SLOW.fragments.length - 1) * SLOW.gapMs} ms and started (upstream asked) p50 ${Math.round(percentile(asked, 50))} / ` +
          `max ${Math.round(Math.max(...asked))} ms after the burst; load average ${loadavg()[0]?.toFixed(1) ?? '?'}`,
      },
    ];
  } finally {
    await stack.stop();
    await fake.close();
  }
}

const PARTS: Record<string, () => Promise<BenchResult[]>> = {
  latency: measureLatency,
  'latency-rtt': measureLatencyWithRoundTrip,
  core: measureCoreThroughput,
  memory: measureIdleConversation,
  telegram: measureTelegramThroughput,
  burst: measureBurst,
};

/** All parts, or only those named in GATEWAY_BENCH_ONLY (comma-separated keys of PARTS), e.g. to profile one. */
export function run(): Promise<BenchResult[]> {
  return runParts(PARTS, 'GATEWAY_BENCH_ONLY', deletePrefix(REDIS_URL, ROOT_PREFIX));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await run(), null, 2));
}
