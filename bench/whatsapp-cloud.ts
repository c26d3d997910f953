/**
 * The gateway with the real WhatsApp Cloud adapter (its webhook route with the signature check,
 * mounted on an express server as the runtime mounts it), the fake Cloud API
 * (fakes/whatsapp-cloud: signed webhooks in, the Graph API out), the gateway core on Redis under
 * a private prefix and a scripted upstream (bench/support/scripted-upstream.ts):
 *
 * 1. first-visible time: the user's message posted (the fake starts its signed webhook POST) →
 *    the first message the user sees. The Cloud API cannot edit, so that message is the answer
 *    itself, sent once the answer is complete; also from the upstream's first fragment;
 * 2. "typing…" time: posted → the read mark with the typing indicator on that message, for an
 *    answer that takes a second to write (the core shows typing after its deferral);
 * 3. answers per second: N users × M messages at once, signed webhook POSTs → answer shown,
 *    Meta's pair rate limit and throughput off; Graph calls per answer.
 *
 * The throughput part (3) sends each user's messages back to back and counts one answer per message:
 * it turns bursts off (gateway.burstMs 0), or each user's messages would be one burst answered once.
 * The other parts send one message at a time per user and keep the default burst window: it is
 * counted in the times from the POST (the answer cannot come sooner), not in those from the upstream.
 *
 * Run alone with `npx tsx bench/whatsapp-cloud.ts` (prints JSON), or `npm run bench -- whatsapp-cloud`.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createWhatsAppCloudAdapter } from '../adapters/whatsapp-cloud/index.js';
import { startFakeWhatsAppCloud, type FakeWhatsAppCloud } from '../fakes/whatsapp-cloud/index.js';
import { createGateway, DEFAULT_GATEWAY_POLICY, type Gateway, type GatewayPolicy } from '../src/gateway/index.js';
import { silentLogger } from '../src/logger.js';
import { platformStorage } from '../src/runtime/platform-storage.js';
import { RedisStateStore } from '../src/state/index.js';
import { INSTANT, STREAMED } from './support/answers.js';
import { deletePrefix, runParts } from './support/parts.js';
import type { BenchResult } from './support/result.js';
import { ScriptedUpstream, type AnswerScript } from './support/scripted-upstream.js';
import { clock, percentile, round1, until } from './support/stats.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT_PREFIX = `cbbench:whatsapp-cloud:${randomUUID().slice(0, 8)}:`;
const BOT = 'main';

const LATENCY_ANSWERS = 200;
/** Questions per second while measuring latency: a steady load, not a burst. */
const LATENCY_ARRIVALS_PER_S = 12;
const TYPING_ANSWERS = 50;
/** An answer written over a second: long enough for the core's typing deferral (400 ms) to pass. */
const SLOW: AnswerScript = { fragments: STREAMED.fragments, gapMs: 250 };
const THROUGHPUT_USERS = 200;
const THROUGHPUT_MESSAGES = 4;
/** Webhook POSTs in flight at once (Meta delivers from many connections, not thousands). */
const POST_CONCURRENCY = 32;
/**
 * For the throughput part, which sends a user's THROUGHPUT_MESSAGES back to back and waits for as many
 * answers: with the default burst window those messages are one burst, answered once (200 answers for
 * 800 messages, and the wait for 800 never ends). Each message is answered on its own here, as a
 * question sent after the window would be; bench/bursts.ts measures the window itself.
 */
const BURSTS_OFF: Partial<GatewayPolicy> = { burstMs: 0 };
/** What the parts that keep the default burst window say of it. */
const BURST_WINDOW = `each question waits the default burst window (gateway.burstMs ${DEFAULT_GATEWAY_POLICY.burstMs} ms) before the upstream is asked`;

interface Stack {
  fake: FakeWhatsAppCloud;
  gateway: Gateway;
  upstream: ScriptedUpstream;
  stop(): Promise<void>;
}

let stackCount = 0;

async function startStack(script: AnswerScript, policy: Partial<GatewayPolicy> = {}): Promise<Stack> {
  // Meta's limits off: they would make this a measure of waiting out 131056. Statuses off: they
  // are webhooks the adapter only logs, and would double the POSTs.
  const fake = await startFakeWhatsAppCloud({
    clock,
    pairRateLimit: false,
    throughputPerSecond: false,
    statusWebhooks: false,
  });
  const store = new RedisStateStore({
    url: REDIS_URL,
    prefix: `${ROOT_PREFIX}${stackCount++}:`,
    connectionName: 'chatbridge-bench',
  });
  const adapter = createWhatsAppCloudAdapter({
    bot: BOT,
    accessToken: fake.accessToken,
    phoneNumberId: fake.phoneNumberId,
    appSecret: fake.appSecret,
    verifyToken: fake.verifyToken,
    apiUrl: fake.apiUrl,
    logger: silentLogger(),
    storage: platformStorage(store, 'whatsapp-cloud', BOT, { conversationIdleTtlMs: 60 * 60_000 }),
    // The answer is measured, not the greeting a first message gets before it.
    welcomeNewUsers: false,
  });
  // Mounted as the runtime's HTTP server mounts adapter routes (src/http/server.ts).
  const app = express();
  for (const route of adapter.routes) app.use(route.path, route.handler);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  fake.setWebhook(`http://127.0.0.1:${(server.address() as AddressInfo).port}/whatsapp-cloud/${BOT}/webhook`);
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

/** User numbers (digits), one per conversation. */
const usersFrom = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => String(4_915_100_000_000 + first + i));
/** The upstream keys first fragments by the `#tag` of the question. */
const question = (tag: string, n = 1) => `Tell me about the house #${tag} (${n})`;

/** Runs `work` on every item with at most `limit` at once. */
async function withConcurrency<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const load = () => `load average ${loadavg()[0]?.toFixed(1) ?? '?'} on ${cpus().length} cores`;

/** 1. Posted → first visible message (the whole answer), and upstream's first fragment → it. */
async function measureFirstVisible(): Promise<BenchResult[]> {
  const stack = await startStack(STREAMED);
  const { fake, upstream } = stack;
  try {
    const warm = usersFrom(900_001, 20);
    await Promise.all(warm.map((user) => fake.userSends({ from: user, text: question(`${user}-w`) })));
    await until(
      () => warm.every((user) => fake.visibleMessages(user).length > 0),
      'whatsapp-cloud warm-up',
      30_000,
      20,
    );

    const users = usersFrom(100_001, LATENCY_ANSWERS);
    const postedAt = new Map<string, number>();
    const posts: Promise<string>[] = [];
    for (const user of users) {
      postedAt.set(user, clock());
      posts.push(fake.userSends({ from: user, text: question(user) }));
      await new Promise((resolve) => setTimeout(resolve, 1000 / LATENCY_ARRIVALS_PER_S));
    }
    await Promise.all(posts);
    await until(
      () => users.every((user) => fake.visibleMessages(user).length > 0),
      'whatsapp-cloud: every answer',
      60_000,
      20,
    );
    const fromPost: number[] = [];
    const fromFragment: number[] = [];
    const fromComplete: number[] = [];
    for (const user of users) {
      const shown = fake.visibleMessages(user)[0]!;
      if (shown.text !== upstream.finalText)
        throw new Error(`first-visible: ${user} first saw ${JSON.stringify(shown.text)}, not the answer`);
      fromPost.push(shown.at - postedAt.get(user)!);
      fromFragment.push(shown.at - upstream.firstFragmentAt.get(user)!);
      fromComplete.push(shown.at - upstream.finalAt.get(user)!);
    }
    const graphCalls = fake
      .calls()
      .filter((call) => users.includes((call.body as { to?: string } | undefined)?.to ?? '')).length;
    const notes =
      `${users.length} answers, ${LATENCY_ARRIVALS_PER_S} users/s, ${STREAMED.fragments.length} fragments ${STREAMED.gapMs} ms apart ` +
      `(the answer is sent once complete: no edits on the Cloud API); real adapter + fake Graph API on 127.0.0.1, Meta's limits off; ` +
      `Graph calls per answer ${round1(graphCalls / users.length)}; ${load()}`;
    return [
      ...[50, 95, 99].map((p) => ({
        name: `whatsapp-cloud.first-visible.posted.p${p}`,
        value: round1(percentile(fromPost, p)),
        unit: 'ms',
        notes: `the fake starts the signed webhook POST → the answer in its log; ${BURST_WINDOW}, counted here; ${notes}`,
      })),
      ...[50, 95].map((p) => ({
        name: `whatsapp-cloud.first-visible.after-first-fragment.p${p}`,
        value: round1(percentile(fromFragment, p)),
        unit: 'ms',
        notes:
          "upstream yields the first fragment → the answer in the fake's log (the burst window before it not counted); " +
          `includes the ${(STREAMED.fragments.length - 1) * STREAMED.gapMs} ms the answer is still being written`,
      })),
      // What the gateway adds on this platform: the answer can only be shown once it is complete.
      ...[50, 95].map((p) => ({
        name: `whatsapp-cloud.first-visible.after-answer-complete.p${p}`,
        value: round1(percentile(fromComplete, p)),
        unit: 'ms',
        notes:
          "upstream yields the final (the whole answer) → the answer in the fake's log: the gateway's own time, sending included",
      })),
    ];
  } finally {
    await stack.stop();
  }
}

/** 2. Posted → the read mark with the typing indicator on that very message. */
async function measureTyping(): Promise<BenchResult[]> {
  const stack = await startStack(SLOW);
  const { fake } = stack;
  try {
    const users = usersFrom(500_001, TYPING_ANSWERS);
    const posted = new Map<string, { at: number; wamid: string }>();
    for (const user of users) {
      const at = clock();
      posted.set(user, { at, wamid: await fake.userSends({ from: user, text: question(user) }) });
      await new Promise((resolve) => setTimeout(resolve, 1000 / LATENCY_ARRIVALS_PER_S));
    }
    await until(
      () => users.every((user) => fake.visibleMessages(user).length > 0),
      'whatsapp-cloud typing: every answer',
      60_000,
      20,
    );
    const marks = fake.readMarks().filter((mark) => mark.typing);
    const typing = users.map((user) => {
      const { at, wamid } = posted.get(user)!;
      const mark = marks.find((m) => m.messageId === wamid);
      if (!mark) throw new Error(`typing: no typing indicator on ${user}'s message`);
      if (mark.at > fake.visibleMessages(user)[0]!.at)
        throw new Error(`typing: ${user}'s typing came after the answer`);
      return mark.at - at;
    });
    const notes =
      `${users.length} answers written over ${(SLOW.fragments.length - 1) * SLOW.gapMs} ms; the fake starts the webhook POST → its log of ` +
      `the read + typing_indicator call on that wamid (the core defers typing 400 ms, so an answer shown sooner never shows it); ` +
      `${BURST_WINDOW}, which typing shows from its start, so the mark comes within it; ${load()}`;
    return [50, 95].map((p) => ({
      name: `whatsapp-cloud.typing.p${p}`,
      value: round1(percentile(typing, p)),
      unit: 'ms',
      notes,
    }));
  } finally {
    await stack.stop();
  }
}

/** 3. Signed webhook POSTs through the adapter's route, instant upstream, posted → answer shown. */
async function measureThroughput(): Promise<BenchResult[]> {
  const stack = await startStack(INSTANT, BURSTS_OFF);
  const { fake, upstream } = stack;
  try {
    const warm = usersFrom(950_001, 50);
    await withConcurrency(
      warm,
      POST_CONCURRENCY,
      async (user) => void (await fake.userSends({ from: user, text: question(user) })),
    );
    await until(
      () => warm.every((user) => fake.visibleMessages(user).length > 0),
      'whatsapp-cloud throughput warm-up',
      30_000,
      20,
    );

    const users = usersFrom(300_001, THROUGHPUT_USERS);
    const messages = users.length * THROUGHPUT_MESSAGES;
    const posts = Array.from({ length: THROUGHPUT_MESSAGES }, (_, n) =>
      users.map((user) => ({ user, n: n + 1 })),
    ).flat();
    const callsBefore = fake.calls().length;
    const askedBefore = upstream.asked;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await withConcurrency(
      posts,
      POST_CONCURRENCY,
      async ({ user, n }) => void (await fake.userSends({ from: user, text: question(user, n) })),
    );
    const postedAfter = performance.now() - started;
    const pending = new Set(users);
    await until(
      () => {
        for (const user of pending) if (fake.visibleMessages(user).length >= THROUGHPUT_MESSAGES) pending.delete(user);
        return pending.size === 0;
      },
      `whatsapp-cloud: ${messages} answers`,
      120_000,
      20,
    ).catch((error: unknown) => {
      const shown = users.reduce((sum, user) => sum + fake.visibleMessages(user).length, 0);
      throw new Error(
        `${String(error)}: ${shown} shown, the upstream asked ${upstream.asked - askedBefore} times for ${messages} messages`,
      );
    });
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    for (const user of users) {
      if (fake.visibleMessages(user).some((message) => message.text !== upstream.finalText))
        throw new Error(`throughput: ${user} saw something other than the answer`);
    }
    const calls = fake.calls().slice(callsBefore);
    const sends = calls.filter((call) => (call.body as { to?: string } | undefined)?.to !== undefined).length;
    const reads = calls.length - sends;
    return [
      {
        name: 'whatsapp-cloud.throughput.webhook',
        value: Math.round(messages / seconds),
        unit: 'answers/s',
        notes:
          `${users.length} users × ${THROUGHPUT_MESSAGES} messages: signed webhook POSTs (${POST_CONCURRENCY} in flight, each acknowledged once queued) → ` +
          `signature check → adapter → core → fake Graph API, instant upstream, Meta's limits off, bursts off (each message its own answer), ` +
          `posted → answer shown; all POSTs acked after ` +
          `${Math.round(postedAfter)} ms; ` +
          `process CPU (gateway, fake and POSTing client together) ${Math.round((used.user + used.system) / messages)} µs/answer; ${load()}`,
      },
      {
        name: 'whatsapp-cloud.graph-calls-per-answer.instant',
        value: round1(calls.length / messages),
        unit: 'calls',
        notes:
          `from the fake's call log during the pass, per answer: sends ${round1(sends / messages)}, ` +
          `read/typing marks ${round1(reads / messages)} (an instant answer is shown before typing is due)`,
      },
    ];
  } finally {
    await stack.stop();
  }
}

const PARTS: Record<string, () => Promise<BenchResult[]>> = {
  'first-visible': measureFirstVisible,
  typing: measureTyping,
  throughput: measureThroughput,
};

/** All parts, or only those named in WHATSAPP_CLOUD_BENCH_ONLY (comma-separated keys of PARTS). */
export function run(): Promise<BenchResult[]> {
  return runParts(PARTS, 'WHATSAPP_CLOUD_BENCH_ONLY', deletePrefix(REDIS_URL, ROOT_PREFIX));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await run(), null, 2));
  process.exit(0);
}
