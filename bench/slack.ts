/**
 * The gateway with the real Slack adapter (Bolt's HTTP receiver with its v0
 * signature checks, the adapter's routes mounted on an express server as the
 * runtime mounts them), the fake Slack Web API (fakes/slack), the gateway core on
 * Redis under a private prefix and a scripted instant upstream
 * (bench/support/scripted-upstream.ts):
 *
 * 1. added latency from the upstream's first fragment to the first visible text,
 *    in a DM thread (native stream: the first chat.startStream / appendStream with
 *    text) and at a DM's top level (chat.postMessage);
 * 2. answers per second through Bolt's HTTP receiver: signed event POSTs,
 *    N DMs × M messages, accept → final shown, the fake's rate limits off;
 * 3. Web API calls per answer, from the fake's call log.
 *
 * The throughput part (2) sends each DM's messages back to back and counts one answer per message:
 * it turns bursts off (gateway.burstMs 0), or each DM's messages would be one burst answered once.
 * The latency part sends one message at a time per DM and keeps the default burst window.
 *
 * Run alone with `npx tsx bench/slack.ts` (prints JSON), or `npm run bench -- slack`.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createSlackAdapter } from '../adapters/slack/index.js';
import { createGateway, DEFAULT_GATEWAY_POLICY, type Gateway, type GatewayPolicy } from '../src/gateway/index.js';
import { silentLogger } from '../src/logger.js';
import { RedisStateStore } from '../src/state/index.js';
import { signedEventRequest, startFakeSlack, type FakeSlack, type LoggedCall } from '../fakes/slack/index.js';
import { ScriptedUpstream, type AnswerScript } from './support/scripted-upstream.js';
import { clock, percentile, round1, until } from './support/stats.js';
import { INSTANT, STREAMED } from './support/answers.js';
import type { BenchResult } from './support/result.js';
import { deletePrefix, runParts } from './support/parts.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT_PREFIX = `cbbench:slack:${randomUUID().slice(0, 8)}:`;
const BOT = 'main';

const LATENCY_ANSWERS = 200;
/** Questions per second while measuring latency: a steady load, not a burst. */
const LATENCY_ARRIVALS_PER_S = 12;
const THROUGHPUT_CHATS = 200;
const THROUGHPUT_MESSAGES = 4;
/** Signed POSTs in flight at once (Slack's Events API delivers from many connections, not thousands). */
const POST_CONCURRENCY = 32;
/** Calls after which a message may show its final text (a final postMessage, an edit, a stream's stop). */
const COMPLETING = new Set(['chat.postMessage', 'chat.update', 'chat.stopStream']);
/** Calls that are not part of answering a message (who the bot is, asked once at start). */
const NOT_PER_ANSWER = new Set(['auth.test']);
/**
 * For the throughput part, which sends a DM's THROUGHPUT_MESSAGES back to back and waits for as many
 * finals: with the default burst window those messages are one burst, answered once (200 answers for
 * 800 messages, and the wait for 800 finals never ends). Each message is answered on its own here, as a
 * question sent after the window would be; bench/bursts.ts measures the window itself.
 */
const BURSTS_OFF: Partial<GatewayPolicy> = { burstMs: 0 };
/** What the latency part, which keeps the default burst window, says of it. */
const BURST_WINDOW = `each question waits the default burst window (gateway.burstMs ${DEFAULT_GATEWAY_POLICY.burstMs} ms) before the upstream is asked`;

interface Stack {
  fake: FakeSlack;
  gateway: Gateway;
  upstream: ScriptedUpstream;
  /** POSTs a signed Events API body to the bot's events path; throws unless Bolt answers 200. */
  post(body: object): Promise<void>;
  stop(): Promise<void>;
}

let stackCount = 0;

async function startStack(
  script: AnswerScript,
  rateLimits: boolean,
  policy: Partial<GatewayPolicy> = {},
): Promise<Stack> {
  const fake = await startFakeSlack({ now: clock, ...(rateLimits ? {} : { rateLimits: false }) });
  const adapter = createSlackAdapter({
    bot: BOT,
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
    logger: silentLogger(),
  });
  // Mounted as the runtime's HTTP server mounts adapter routes (src/http/server.ts).
  const app = express();
  for (const route of adapter.routes) app.use(route.path, route.handler);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/${BOT}/events`;
  const store = new RedisStateStore({
    url: REDIS_URL,
    prefix: `${ROOT_PREFIX}${stackCount++}:`,
    connectionName: 'chatbridge-bench',
  });
  const upstream = new ScriptedUpstream(script, clock);
  const gateway = createGateway({
    state: store,
    upstream,
    bots: [{ id: BOT, serialNumber: 'BENCH-SERIAL' }],
    adapters: [adapter],
    logger: silentLogger(),
    policy: { stopGraceMs: 2_000, ...policy },
  });
  await gateway.start();
  return {
    fake,
    gateway,
    upstream,
    async post(body) {
      const response = await signedEventRequest(url, fake.signingSecret, body);
      await response.arrayBuffer();
      if (response.status !== 200)
        throw new Error(`bench: Bolt answered ${response.status} to a signed event; is the signing secret right?`);
    },
    async stop() {
      await gateway.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.close();
      await fake.close();
    },
  };
}

/** DM channel ids (D… is a DM for the fake and the adapter), one per chat. */
const dmIds = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => `D${String(first + i).padStart(9, '0')}`);
/** Thread ts of a chat's DM thread (a fixed past ts: the user's message that started it). */
const threadOf = (chat: string) => `1700000000.${chat.slice(-6)}`;
/** The upstream keys first fragments by the `#tag` of the question. */
const question = (tag: string, n = 1) => `Tell me about the house #${tag} (${n})`;

/** Text carried by a call that shows it: postMessage/update `text`, stream `markdown_text` or chunks. */
function carriesText(call: LoggedCall): boolean {
  const {
    text,
    markdown_text: markdown,
    chunks,
  } = call.params as { text?: unknown; markdown_text?: unknown; chunks?: unknown };
  return (
    (typeof text === 'string' && text.length > 0) ||
    (typeof markdown === 'string' && markdown.length > 0) ||
    (Array.isArray(chunks) && chunks.length > 0)
  );
}

const VISIBLE_BY = {
  // The native renderer sends only a stable Markdown prefix (up to a line end): an answer without one
  // first shows at stopStream, and that is when the user sees it.
  thread: new Set(['chat.startStream', 'chat.appendStream', 'chat.stopStream']),
  top: new Set(['chat.postMessage']),
};

/** Per channel: when text first showed (fake's clock) and how many Web API calls it took. */
function callsByChannel(fake: FakeSlack): Map<string, LoggedCall[]> {
  const byChannel = new Map<string, LoggedCall[]>();
  for (const call of fake.calls()) {
    if (!call.channel || NOT_PER_ANSWER.has(call.method)) continue;
    const list = byChannel.get(call.channel) ?? [];
    list.push(call);
    byChannel.set(call.channel, list);
  }
  return byChannel;
}

function finalShown(fake: FakeSlack, chat: string, final: string, threadTs: string | undefined, count = 1): boolean {
  return fake.visibleMessages(chat, threadTs).filter((m) => m.state === 'done' && m.text === final).length >= count;
}

function callsSummary(calls: LoggedCall[], answers: number): { perAnswer: number; top: string } {
  const byMethod = new Map<string, number>();
  for (const call of calls) byMethod.set(call.method, (byMethod.get(call.method) ?? 0) + 1);
  const top = [...byMethod]
    .sort((a, b) => b[1] - a[1])
    .map(([method, n]) => `${method} ${round1(n / answers)}`)
    .join(', ');
  return { perAnswer: calls.length / answers, top };
}

/** 1 + 3. Upstream's first fragment → first visible text, in DM threads and at DMs' top level. */
async function measureLatency(): Promise<BenchResult[]> {
  // Slack's workspace tiers (startStream 20/min) would make this a measure of queuing behind 429s.
  const stack = await startStack(STREAMED, false);
  const { fake, upstream } = stack;
  const final = upstream.finalText;
  const results: BenchResult[] = [];
  try {
    const warm = dmIds(900_001, 20);
    for (const chat of warm) {
      await stack.post(fake.build.messageIm({ channel: chat, text: question(`${chat}-t`), thread_ts: threadOf(chat) }));
      await stack.post(fake.build.messageIm({ channel: chat, text: question(`${chat}-m`) }));
    }
    await until(
      () =>
        warm.every((chat) => finalShown(fake, chat, final, threadOf(chat)) && finalShown(fake, chat, final, undefined)),
      'latency warm-up',
      30_000,
      20,
    );

    for (const [label, inThread] of [
      ['dm-thread-native', true],
      ['dm-top-level-post', false],
    ] as const) {
      const chats = dmIds(inThread ? 100_001 : 200_001, LATENCY_ANSWERS);
      const tag = (chat: string) => `${chat}-${label}`;
      for (const chat of chats) {
        await stack.post(
          fake.build.messageIm({
            channel: chat,
            text: question(tag(chat)),
            ...(inThread ? { thread_ts: threadOf(chat) } : {}),
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 1000 / LATENCY_ARRIVALS_PER_S));
      }
      await until(
        () => chats.every((chat) => finalShown(fake, chat, final, inThread ? threadOf(chat) : undefined)),
        `${label}: every final`,
        60_000,
        20,
      );
      const byChannel = callsByChannel(fake);
      const latencies: number[] = [];
      const allCalls: LoggedCall[] = [];
      for (const chat of chats) {
        const start = upstream.firstFragmentAt.get(tag(chat));
        const calls = byChannel.get(chat) ?? [];
        const shown = calls.find(
          (call) => call.ok && VISIBLE_BY[inThread ? 'thread' : 'top'].has(call.method) && carriesText(call),
        )?.at;
        if (start === undefined || shown === undefined)
          throw new Error(`latency: chat ${chat} has no first fragment or no visible text`);
        latencies.push(shown - start);
        allCalls.push(...calls);
      }
      const calls = callsSummary(allCalls, chats.length);
      const notes =
        `${chats.length} answers, ${LATENCY_ARRIVALS_PER_S} signed event POSTs/s, ${STREAMED.fragments.length} fragments ${STREAMED.gapMs} ms apart; ` +
        `real Bolt adapter + fake Web API on 127.0.0.1, rate limits off; upstream yield of the first fragment → fake's log time of the first ` +
        `${inThread ? 'chat.startStream/appendStream/stopStream with text' : 'chat.postMessage'}; ` +
        `${BURST_WINDOW}, not counted here; load average ${loadavg()[0]?.toFixed(1) ?? '?'}`;
      results.push(
        ...[50, 95, 99].map((p) => ({
          name: `slack.first-visible.${label}.p${p}`,
          value: round1(percentile(latencies, p)),
          unit: 'ms',
          notes,
        })),
        {
          name: `slack.web-api-calls-per-answer.streamed.${label}`,
          value: round1(calls.perAnswer),
          unit: 'calls',
          notes: `every Web API call naming the chat (auth.test excluded), streamed answer; by method: ${calls.top}`,
        },
      );
    }
  } finally {
    await stack.stop();
  }
  return results;
}

/** Runs `work` on every item with at most `limit` at once. */
async function withConcurrency<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** 2 + 3. Signed event POSTs through Bolt's HTTP receiver, instant upstream, accept → final shown. */
async function measureThroughput(): Promise<BenchResult[]> {
  const stack = await startStack(INSTANT, false, BURSTS_OFF);
  const { fake, upstream } = stack;
  const final = upstream.finalText;
  const results: BenchResult[] = [];
  try {
    fake.setRateLimits(false);
    // The check runs in this process too: visibleMessages scans every message, so a chat is only
    // looked at once the call log shows it had enough message-completing calls, and never again once done.
    const finalsIn = (chats: string[], each: number, threadTs?: (chat: string) => string) => {
      const pending = new Set(chats);
      const completing = new Map<string, number>();
      let seen = 0;
      return () => {
        const calls = fake.calls();
        for (const call of calls.slice(seen)) {
          if (call.ok && call.channel && COMPLETING.has(call.method))
            completing.set(call.channel, (completing.get(call.channel) ?? 0) + 1);
        }
        seen = calls.length;
        for (const chat of pending) {
          if ((completing.get(chat) ?? 0) >= each && finalShown(fake, chat, final, threadTs?.(chat), each))
            pending.delete(chat);
        }
        return pending.size === 0;
      };
    };
    const warm = dmIds(950_001, 50);
    await withConcurrency(warm, POST_CONCURRENCY, (chat) =>
      stack.post(fake.build.messageIm({ channel: chat, text: question(chat) })),
    );
    await until(finalsIn(warm, 1), 'slack warm-up', 30_000, 20);

    for (const [label, inThread] of [
      ['dm-top-level', false],
      ['dm-thread', true],
    ] as const) {
      const chats = dmIds(inThread ? 400_001 : 300_001, THROUGHPUT_CHATS);
      const threadTs = inThread ? threadOf : undefined;
      const messages = chats.length * THROUGHPUT_MESSAGES;
      const posts = Array.from({ length: THROUGHPUT_MESSAGES }, (_, n) =>
        chats.map((chat) => ({ chat, n: n + 1 })),
      ).flat();
      const callsBefore = fake.calls().length;
      const askedBefore = upstream.asked;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await withConcurrency(posts, POST_CONCURRENCY, ({ chat, n }) =>
        stack.post(
          fake.build.messageIm({
            channel: chat,
            text: question(chat, n),
            ...(threadTs ? { thread_ts: threadTs(chat) } : {}),
          }),
        ),
      );
      const postedAfter = performance.now() - started;
      await until(
        finalsIn(chats, THROUGHPUT_MESSAGES, threadTs),
        `slack ${label}: ${messages} finals`,
        120_000,
        20,
      ).catch((error: unknown) => {
        const done = chats.filter((chat) =>
          finalShown(fake, chat, final, threadTs?.(chat), THROUGHPUT_MESSAGES),
        ).length;
        throw new Error(
          `${String(error)}: ${done} of ${chats.length} DMs show their ${THROUGHPUT_MESSAGES} finals, the upstream asked ` +
            `${upstream.asked - askedBefore} times for ${messages} messages`,
        );
      });
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const answerCalls = fake
        .calls()
        .slice(callsBefore)
        .filter((call) => !NOT_PER_ANSWER.has(call.method));
      const calls = callsSummary(answerCalls, messages);
      const cpuPerAnswer = (used.user + used.system) / messages;
      results.push(
        {
          name: `slack.throughput.http.${label}`,
          value: Math.round(messages / seconds),
          unit: 'answers/s',
          notes:
            `${chats.length} DMs × ${THROUGHPUT_MESSAGES} messages${inThread ? ' in a thread each (native stream)' : ' at the top level (postMessage)'}: ` +
            `signed event POSTs (${POST_CONCURRENCY} in flight) → Bolt ExpressReceiver (v0 signature) → adapter → core → fake Web API, ` +
            'instant upstream, rate limits off, bursts off (each message its own answer), accept → final shown; ' +
            `all POSTs acked after ${Math.round(postedAfter)} ms; ` +
            `process CPU (gateway, Bolt, fake and POSTing client together) ${Math.round(cpuPerAnswer)} µs/answer; ` +
            `load average ${loadavg()[0]?.toFixed(1) ?? '?'} on ${cpus().length} cores`,
        },
        {
          name: `slack.web-api-calls-per-answer.instant.${label}`,
          value: round1(calls.perAnswer),
          unit: 'calls',
          notes: `from the fake's call log during the pass (auth.test excluded); by method: ${calls.top}`,
        },
      );
    }
  } finally {
    await stack.stop();
  }
  return results;
}

const PARTS: Record<string, () => Promise<BenchResult[]>> = {
  latency: measureLatency,
  throughput: measureThroughput,
};

/** All parts, or only those named in SLACK_BENCH_ONLY (comma-separated keys of PARTS). */
export function run(): Promise<BenchResult[]> {
  return runParts(PARTS, 'SLACK_BENCH_ONLY', deletePrefix(REDIS_URL, ROOT_PREFIX));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await run(), null, 2));
  process.exit(0);
}
