/**
 * Bursts (gateway.burstMs, turn/burst.ts) through the gateway core on Redis, with the in-memory
 * platform dressed as Telegram and a scripted upstream whose first token takes TTFT_MS, as a model's does:
 *
 * 1. the first visible reaction (typing, a draft or a message) after a user's message: one message with
 *    bursts off, one message with bursts on (the default 1.5 s), and three bubbles 300 ms apart with bursts
 *    on (from the first bubble); and when the answer's text first shows, for the same three;
 * 2. throughput of single messages (one per chat, all at once) with bursts off and on: a burst settling
 *    lends its answer slot back (drain/conversation-hold.ts), so the wait costs time, not slots.
 *
 * Run alone with `npx tsx bench/bursts.ts` (prints JSON); BURSTS_BENCH_ONLY=reaction,throughput runs those parts.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMemoryAdapter, MemoryPlatform, type MemoryCall } from '../fakes/memory/index.js';
import { telegramCapabilities } from '../adapters/telegram/capabilities.js';
import { createGateway, DEFAULT_GATEWAY_POLICY } from '../src/gateway/index.js';
import { silentLogger } from '../src/logger.js';
import { RedisStateStore } from '../src/state/index.js';
import { ScriptedUpstream } from './support/scripted-upstream.js';
import { FIRST } from './support/answers.js';
import { clock, percentile, round1, until } from './support/stats.js';
import type { BenchResult } from './support/result.js';
import { deletePrefix, runParts } from './support/parts.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT_PREFIX = `cbbench:bursts:${randomUUID().slice(0, 8)}:`;
const BOT = 'main';
/** A model's time to its first token: a reaction shown before it is what the user sees first. */
const TTFT_MS = 800;
const REACTION_CHATS = 40;
const BUBBLE_GAP_MS = 300;
const THROUGHPUT_CHATS = 2_000;
let stacks = 0;

interface Stack {
  platform: MemoryPlatform;
  upstream: ScriptedUpstream;
  /** Conversation → when the first typing, draft or message came; and when text first showed. */
  firstReaction: Map<string, number>;
  firstText: Map<string, number>;
  finals: Set<string>;
  /** When each final answer was sent, in order. */
  finalTimes: number[];
  stop(): Promise<void>;
}

async function startStack(burstMs: number, firstDelayMs: number): Promise<Stack> {
  const firstReaction = new Map<string, number>();
  const firstText = new Map<string, number>();
  const finals = new Set<string>();
  const finalTimes: number[] = [];
  const upstream = new ScriptedUpstream({ fragments: [FIRST], gapMs: 0, firstDelayMs }, clock);
  const seen = (call: MemoryCall) => {
    if (call.result !== 'ok') return;
    if (['typing', 'draft', 'send', 'edit'].includes(call.kind) && !firstReaction.has(call.conversation))
      firstReaction.set(call.conversation, call.at);
    if (['draft', 'send', 'edit'].includes(call.kind) && !firstText.has(call.conversation))
      firstText.set(call.conversation, call.at);
    if (call.kind === 'send' && 'text' in call && call.text === FIRST && !finals.has(call.conversation)) {
      finals.add(call.conversation);
      finalTimes.push(call.at);
    }
  };
  const platform = new MemoryPlatform({ name: 'bench', now: clock, onCall: seen });
  const adapter = createMemoryAdapter({
    platform,
    bot: BOT,
    capabilities: telegramCapabilities({ localApi: false }),
    methods: { edit: true, draft: true },
  });
  const store = new RedisStateStore({ url: REDIS_URL, prefix: `${ROOT_PREFIX}${stacks++}:` });
  const gateway = createGateway({
    state: store,
    upstream,
    bots: [{ id: BOT, serialNumber: 'BENCH-SERIAL' }],
    adapters: [adapter],
    logger: silentLogger(),
    policy: { stopGraceMs: 2_000, burstMs },
  });
  await gateway.start();
  return {
    platform,
    upstream,
    firstReaction,
    firstText,
    finals,
    finalTimes,
    async stop() {
      await gateway.stop();
      await store.close();
    },
  };
}

const send = (stack: Stack, chat: string, text: string) =>
  stack.platform.userSends(BOT, chat, text, { user: { id: `u${chat}` } });

/** 1. From the (first) message to the first reaction and to the first text, p50 and p95. */
async function measureReaction(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const cases = [
    { label: 'single.bursts-off', burstMs: 0, bubbles: 1 },
    { label: 'single.bursts-on', burstMs: DEFAULT_GATEWAY_POLICY.burstMs, bubbles: 1 },
    { label: 'three-bubbles.bursts-on', burstMs: DEFAULT_GATEWAY_POLICY.burstMs, bubbles: 3 },
  ];
  for (const { label, burstMs, bubbles } of cases) {
    const stack = await startStack(burstMs, TTFT_MS);
    try {
      const sentAt = new Map<string, number>();
      await Promise.all(
        Array.from({ length: REACTION_CHATS }, async (_, i) => {
          const chat = `r${i}`;
          sentAt.set(chat, clock());
          for (let b = 0; b < bubbles; b++) {
            if (b > 0) await sleep(BUBBLE_GAP_MS);
            await send(stack, chat, `part ${b + 1} of a question about the house #${chat}`);
          }
        }),
      );
      await until(() => stack.finals.size === REACTION_CHATS, `${label}: every answer`, 60_000, 20);
      const reaction = [...sentAt].map(([chat, at]) => stack.firstReaction.get(chat)! - at);
      const text = [...sentAt].map(([chat, at]) => stack.firstText.get(chat)! - at);
      const notes =
        `${REACTION_CHATS} chats at once, upstream's first token after ${TTFT_MS} ms, burstMs ${burstMs}` +
        `${bubbles > 1 ? `, ${bubbles} bubbles ${BUBBLE_GAP_MS} ms apart, from the first` : ''}; ` +
        `asked ${stack.upstream.asked} times; load average ${loadavg()[0]?.toFixed(1) ?? '?'}`;
      for (const p of [50, 95]) {
        results.push({
          name: `bursts.first-reaction.${label}.p${p}`,
          value: round1(percentile(reaction, p)),
          unit: 'ms',
          notes,
        });
        results.push({
          name: `bursts.first-text.${label}.p${p}`,
          value: round1(percentile(text, p)),
          unit: 'ms',
          notes,
        });
      }
    } finally {
      await stack.stop();
    }
  }
  return results;
}

/** 2. Single messages, one per chat, all at once: answers per second with bursts off and on (instant upstream). */
async function measureThroughput(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const [label, burstMs] of [
    ['bursts-off', 0],
    ['bursts-on', DEFAULT_GATEWAY_POLICY.burstMs],
  ] as const) {
    const stack = await startStack(burstMs, 0);
    try {
      const started = clock();
      await Promise.all(
        Array.from({ length: THROUGHPUT_CHATS }, (_, i) => send(stack, `t${i}`, `Tell me about the house #t${i}`)),
      );
      await until(() => stack.finals.size === THROUGHPUT_CHATS, `${label}: every answer`, 120_000, 20);
      const seconds = (clock() - started) / 1000;
      // The rate answers come at once they come: the burst window delays each answer, it is not work.
      const answering = (stack.finalTimes.at(-1)! - stack.finalTimes[0]!) / 1000;
      results.push({
        name: `bursts.throughput.single.${label}`,
        value: round1((THROUGHPUT_CHATS - 1) / answering),
        unit: 'answers/s',
        notes:
          `${THROUGHPUT_CHATS} chats, one message each, all at once; answers/s from the first answer to the last ` +
          `(${round1(answering)} s); ${round1(seconds)} s from the first question to the last answer, the burst ` +
          `window (${burstMs} ms) included; load average ${loadavg()[0]?.toFixed(1) ?? '?'}`,
      });
    } finally {
      await stack.stop();
    }
  }
  return results;
}

export async function run(): Promise<BenchResult[]> {
  return runParts(
    { reaction: measureReaction, throughput: measureThroughput },
    'BURSTS_BENCH_ONLY',
    deletePrefix(REDIS_URL, ROOT_PREFIX),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await run(), null, 2));
}
