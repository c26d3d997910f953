/**
 * The gateway with the real WhatsApp adapter (its connection, lease and RemoteAuth store on
 * Redis) on the fake whatsapp-web.js, whose client talks to the fake WhatsApp world over a
 * WebSocket in this process (fakes/whatsapp), the gateway core on Redis under a private
 * prefix, and a scripted upstream (bench/support/scripted-upstream.ts):
 *
 * 1. added latency from the upstream's first fragment to the first visible text (the
 *    world's log time of the chat's first sendMessage), private chats, a short streamed answer;
 * 2. per answer, for a 600-character answer in 10 fragments 220 ms apart: edits, sends and
 *    every client call, with the default 2 s edit interval, and how many chats end on the
 *    complete answer (the chat shows exactly one message, the full text).
 *
 * Both parts send one message at a time per chat and keep the default burst window (gateway.burstMs):
 * each question waits it before the upstream is asked, which their times (from the upstream) do not count.
 *
 * Run alone with `npx tsx bench/whatsapp.ts` (prints JSON), or `npm run bench -- whatsapp`;
 * WHATSAPP_BENCH_ONLY=edits runs only that part.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createWhatsAppAdapter } from '../adapters/whatsapp/index.js';
import type { Adapter } from '../src/contract.js';
import { createGateway, DEFAULT_GATEWAY_POLICY, type Gateway } from '../src/gateway/index.js';
import { silentLogger } from '../src/logger.js';
import { platformStorage } from '../src/runtime/platform-storage.js';
import { RedisStateStore } from '../src/state/index.js';
import { startFakeWhatsApp, type FakeWhatsApp, type LoggedCall } from '../fakes/whatsapp/index.js';
import { ScriptedUpstream, type AnswerScript } from './support/scripted-upstream.js';
import { clock, percentile, round1, until } from './support/stats.js';
import { STREAMED } from './support/answers.js';
import type { BenchResult } from './support/result.js';
import { deletePrefix, runParts } from './support/parts.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT_PREFIX = `cbbench:wa:${randomUUID().slice(0, 8)}:`;
const BOT = 'main';

const LATENCY_ANSWERS = 200;
/** Questions per second while measuring latency: a steady load, not a burst. */
const ARRIVALS_PER_S = 12;
const EDIT_CHATS = 50;
/** What the parts, which keep the default burst window, say of it. */
const BURST_WINDOW = `each question waits the default burst window (gateway.burstMs ${DEFAULT_GATEWAY_POLICY.burstMs} ms) before the upstream is asked`;
const FRAGMENT_CHARS = 60;
/** 600 characters in 10 fragments 220 ms apart (~2 s of writing), plain text: WhatsApp formatting leaves it as it is. */
const LONG: AnswerScript = {
  fragments: Array.from(
    { length: 10 },
    (_, i) =>
      `Part ${i + 1} of the answer says more about this home and its street. `
        .slice(0, FRAGMENT_CHARS - 1)
        .padEnd(FRAGMENT_CHARS - 1, '.') + ' ',
  ),
  gapMs: 220,
};

interface Stack {
  fake: FakeWhatsApp;
  upstream: ScriptedUpstream;
  stop(): Promise<void>;
}

let stackCount = 0;

/** The fake world, the adapter linked to it (the phone scans the QR) and the core; resolves once the client is ready. */
async function startStack(script: AnswerScript): Promise<Stack> {
  const fake = await startFakeWhatsApp({ now: clock });
  const store = new RedisStateStore({
    url: REDIS_URL,
    prefix: `${ROOT_PREFIX}${stackCount++}:`,
    connectionName: 'chatbridge-bench',
  });
  const adapter: Adapter = createWhatsAppAdapter({
    bot: BOT,
    logger: silentLogger(),
    storage: platformStorage(store, 'whatsapp', BOT),
    // The fake library only checks that the browser exists.
    chromiumPath: process.execPath,
    library: () => Promise.resolve(fake.library),
    // The first-contact greeting is a message of its own before the answer: left out, so the first send is the answer's.
    welcomeNewChats: false,
    terminalQr: false,
  });
  const upstream = new ScriptedUpstream(script, clock);
  const gateway: Gateway = createGateway({
    state: store,
    upstream,
    bots: [{ id: BOT, serialNumber: 'BENCH-SERIAL' }],
    adapters: [adapter],
    logger: silentLogger(),
    policy: { stopGraceMs: 2_000 },
  });
  await gateway.start();
  await fake.waitFor(() => fake.clients().some((client) => client.state === 'waiting-for-qr'), {
    timeoutMs: 15_000,
    what: 'a QR to scan',
  });
  fake.scanQr();
  await until(() => adapter.status?.().connected === true, 'the WhatsApp client ready', 15_000, 10);
  return {
    fake,
    upstream,
    async stop() {
      await gateway.stop();
      await store.close();
      await fake.close();
    },
  };
}

const numbers = (first: number, count: number) => Array.from({ length: count }, (_, i) => String(first + i));
const chatOf = (number: string) => `${number}@c.us`;
/** The upstream keys first fragments by the `#tag` of the question. */
const question = (tag: string) => `Tell me about the house #${tag}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The chat shows the whole answer as its last message and "typing…" is over (the turn ended). */
function finalShown(fake: FakeWhatsApp, chat: string, final: string): boolean {
  return fake.screen(chat).at(-1)?.trimEnd() === final.trimEnd() && !fake.typing(chat);
}

function callsByChat(fake: FakeWhatsApp): Map<string, LoggedCall[]> {
  const byChat = new Map<string, LoggedCall[]>();
  for (const call of fake.calls()) {
    if (!call.chat) continue;
    const list = byChat.get(call.chat) ?? [];
    list.push(call);
    byChat.set(call.chat, list);
  }
  return byChat;
}

function byMethod(calls: LoggedCall[], answers: number): string {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.method, (counts.get(call.method) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([method, n]) => `${method} ${round1(n / answers)}`)
    .join(', ');
}

/** Users write at a steady pace, each in a chat of their own. */
async function ask(fake: FakeWhatsApp, users: string[], tag: (number: string) => string): Promise<void> {
  for (const number of users) {
    fake.userSends({ from: number, text: question(tag(number)) });
    await sleep(1000 / ARRIVALS_PER_S);
  }
}

/** 1. Upstream's first fragment → the chat's first sendMessage. */
async function measureLatency(): Promise<BenchResult[]> {
  const stack = await startStack(STREAMED);
  const { fake, upstream } = stack;
  const final = upstream.finalText;
  try {
    const warm = numbers(4_915_190_000_001, 20);
    await ask(fake, warm, (n) => `warm-${n}`);
    await until(() => warm.every((n) => finalShown(fake, chatOf(n), final)), 'whatsapp latency warm-up', 30_000, 20);

    const users = numbers(4_915_110_000_001, LATENCY_ANSWERS);
    const tag = (n: string) => `latency-${n}`;
    await ask(fake, users, tag);
    await until(
      () => users.every((n) => finalShown(fake, chatOf(n), final)),
      'whatsapp latency: every final',
      60_000,
      20,
    );
    const byChat = callsByChat(fake);
    const latencies: number[] = [];
    const calls: LoggedCall[] = [];
    for (const number of users) {
      const start = upstream.firstFragmentAt.get(tag(number));
      const chatCalls = byChat.get(chatOf(number)) ?? [];
      const shown = chatCalls.find((call) => call.method === 'sendMessage')?.at;
      if (start === undefined || shown === undefined)
        throw new Error(`whatsapp latency: chat ${number} has no first fragment or no sendMessage`);
      latencies.push(shown - start);
      calls.push(...chatCalls);
    }
    const notes =
      `${users.length} private chats, ${ARRIVALS_PER_S} messages/s, ${STREAMED.fragments.length} fragments ${STREAMED.gapMs} ms apart; ` +
      'real adapter + core on Redis, fake whatsapp-web.js over a WebSocket to the fake world in this process; upstream yield of the first fragment → ' +
      `the world's log time of the chat's first sendMessage; ${BURST_WINDOW}, not counted here; load average ${loadavg()[0]?.toFixed(1) ?? '?'}`;
    return [
      ...[50, 95, 99].map((p) => ({
        name: `whatsapp.first-visible.private.p${p}`,
        value: round1(percentile(latencies, p)),
        unit: 'ms',
        notes,
      })),
      {
        name: 'whatsapp.client-calls-per-answer.streamed',
        value: round1(calls.length / users.length),
        unit: 'calls',
        notes:
          `every client call naming the chat, ${STREAMED.fragments.length}-fragment answer ` +
          `over ${(STREAMED.fragments.length - 1) * STREAMED.gapMs} ms; by method: ${byMethod(calls, users.length)}`,
      },
    ];
  } finally {
    await stack.stop();
  }
}

/** 2. A 600-character answer in 10 fragments 220 ms apart: how many edits and sends it costs, and whether it ends complete. */
async function measureEdits(): Promise<BenchResult[]> {
  const stack = await startStack(LONG);
  const { fake, upstream } = stack;
  const final = upstream.finalText;
  try {
    const users = numbers(4_915_120_000_001, EDIT_CHATS);
    await ask(fake, users, (n) => `edits-${n}`);
    // A chat whose answer did not end complete is counted below, not waited for forever.
    await until(
      () => users.every((n) => finalShown(fake, chatOf(n), final)),
      'whatsapp edits: every final',
      60_000,
      20,
    ).catch(() => undefined);
    const byChat = callsByChat(fake);
    const count = (method: string) =>
      users.reduce((sum, n) => sum + (byChat.get(chatOf(n)) ?? []).filter((call) => call.method === method).length, 0);
    const edits = count('edit');
    const sends = count('sendMessage');
    const complete = users.filter((n) => {
      const screen = fake.screen(chatOf(n));
      return screen.length === 1 && screen[0]!.trimEnd() === final.trimEnd();
    }).length;
    const all = users.flatMap((n) => byChat.get(chatOf(n)) ?? []);
    // How long the user looked at a partial answer: the first send → the call that showed the whole text.
    const partialFor = users.flatMap((n) => {
      const calls = (byChat.get(chatOf(n)) ?? []).filter(
        (call) => call.method === 'sendMessage' || call.method === 'edit',
      );
      return calls.length > 0 ? [calls.at(-1)!.at - calls[0]!.at] : [];
    });
    const shape =
      `${users.length} private chats, ${ARRIVALS_PER_S} messages/s, ` +
      `a ${final.length}-character answer in ${LONG.fragments.length} fragments ${LONG.gapMs} ms apart, default edit interval (2 s), ` +
      `${BURST_WINDOW}, not counted here`;
    return [
      {
        name: 'whatsapp.edits-per-answer.600-chars',
        value: round1(edits / users.length),
        unit: 'edits',
        notes: `${shape}; edit() calls per answer`,
      },
      {
        name: 'whatsapp.sends-per-answer.600-chars',
        value: round1(sends / users.length),
        unit: 'messages',
        notes: `${shape}; sendMessage() calls per answer (1 = the answer stayed one message)`,
      },
      {
        name: 'whatsapp.client-calls-per-answer.600-chars',
        value: round1(all.length / users.length),
        unit: 'calls',
        notes: `${shape}; by method: ${byMethod(all, users.length)}`,
      },
      ...[50, 95].map((p) => ({
        name: `whatsapp.first-to-complete.600-chars.p${p}`,
        value: round1(percentile(partialFor, p)),
        unit: 'ms',
        notes: `${shape}; the chat's first sendMessage → its last sendMessage/edit (the answer takes ${(LONG.fragments.length - 1) * LONG.gapMs} ms to write)`,
      })),
      {
        name: 'whatsapp.complete-finals.600-chars',
        value: complete,
        unit: `of ${users.length}`,
        notes: `${shape}; chats showing exactly one message, the full answer, once "typing…" ended`,
      },
    ];
  } finally {
    await stack.stop();
  }
}

const PARTS: Record<string, () => Promise<BenchResult[]>> = {
  latency: measureLatency,
  edits: measureEdits,
};

/** All parts, or only those named in WHATSAPP_BENCH_ONLY (comma-separated keys of PARTS). */
export function run(): Promise<BenchResult[]> {
  return runParts(PARTS, 'WHATSAPP_BENCH_ONLY', deletePrefix(REDIS_URL, ROOT_PREFIX));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await run(), null, 2));
  process.exit(0);
}
