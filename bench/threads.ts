/**
 * Issue 28, operators answering in a thread of their own platform: how long the door's side takes,
 * against the issue's "within 2 s" both ways. One gateway process in this one (createGateway and
 * installHandoff as the runtime wires them), real Redis, a scripted Chatbot Service, users on the
 * in-memory platform and operators on the in-memory operators' platform (fakes/memory: no network,
 * so the numbers are the gateway's own work: Redis, the worker, the sync).
 *
 * - handoff → card: from the user's `/human` being accepted to the thread open with its card;
 * - user → thread: a message written while handed over, from accepted to posted in the thread;
 * - operator → user: an operator's message in the thread, from written to shown to the user.
 * Each over HANDOFFS conversations handed over one after the other, p50 and p95.
 * The default burst window (gateway.burstMs) is kept: `/human` is a command and stands alone, but
 * the user's message waits the window before it is posted in the thread (more bubbles may follow),
 * and user → thread counts that wait, as the user would.
 *
 *   npx tsx bench/threads.ts      # prints the results
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createMemoryAdapter, MemoryOperatorsPlatform, MemoryPlatform } from '../fakes/memory/index.js';
import { buildConfigSchema } from '../src/config/index.js';
import { createGateway, DEFAULT_GATEWAY_POLICY } from '../src/gateway/index.js';
import { installHandoff } from '../src/handoff/index.js';
import { GatewayMetrics } from '../src/http/metrics.js';
import { HttpServer } from '../src/http/server.js';
import { silentLogger } from '../src/logger.js';
import { RedisStateStore } from '../src/state/index.js';
import type { BenchResult } from './support/result.js';
import { ScriptedUpstream } from './support/scripted-upstream.js';
import { clock, percentile, round1, until } from './support/stats.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const HANDOFFS = Number(process.env.BENCH_THREADS_HANDOFFS ?? 100);
const BOT = 'main';
const OPERATOR = { id: 'U-OPS', name: 'Bench Operator' };

export async function run(): Promise<BenchResult[]> {
  const state = new RedisStateStore({ url: REDIS_URL, prefix: `bench-threads:${randomUUID().slice(0, 8)}:` });
  const users = new MemoryPlatform({ name: 'benchchat' });
  const operators = new MemoryOperatorsPlatform({ platform: 'bench-desk' });
  const upstream = new ScriptedUpstream({ fragments: ['Hello!'], gapMs: 0 }, clock);
  const gateway = createGateway({
    state,
    upstream,
    bots: [{ id: BOT, serialNumber: 'BENCH-SERIAL', settings: { TalkToHumanEmail: 'desk@bench.example' } }],
    adapters: [createMemoryAdapter({ platform: users, bot: BOT })],
    logger: silentLogger(),
    policy: { stopGraceMs: 1_000 },
  });
  const config = buildConfigSchema([]).parse({ bots: [{ id: BOT, serialNumber: 'BENCH-SERIAL' }] });
  const http = new HttpServer({
    metrics: new GatewayMetrics(),
    ready: () => Promise.resolve(),
    logger: silentLogger(),
  });
  const handoff = await installHandoff({
    gateway,
    state,
    config,
    logger: silentLogger(),
    http,
    doors: new Map([[BOT, [operators.door()]]]),
  });
  await gateway.start();
  const cards: number[] = [];
  const toThread: number[] = [];
  const toUser: number[] = [];
  try {
    for (let n = 0; n < HANDOFFS; n++) {
      const chat = `c${n}`;
      const user = { id: `u${n}`, name: `User ${n}` };
      const started = clock();
      await users.userSends(BOT, chat, '/human', { user });
      await until(() => operators.threadOf(`User ${n} ·`) !== undefined, `${chat}: its thread`, 10_000);
      const thread = operators.threadOf(`User ${n} ·`)!;
      cards.push(clock() - started);

      const written = clock();
      await users.userSends(BOT, chat, `question ${n}`, { user });
      await until(() => thread.posts.some((post) => post.markdown === `question ${n}`), `${chat}: the post`, 10_000);
      toThread.push(clock() - written);

      const answered = clock();
      await operators.write(thread.id, OPERATOR, `answer ${n}`);
      await until(() => users.textsIn(chat).includes(`answer ${n}`), `${chat}: the answer`, 10_000);
      toUser.push(clock() - answered);
    }
  } finally {
    await gateway.stop();
    await handoff.stop();
    await state.deleteByPrefix();
    await state.close();
  }
  const row = (name: string, values: number[], what: string): BenchResult => ({
    name: `threads.${name}.p95`,
    value: round1(percentile(values, 95)),
    unit: 'ms',
    notes: `${what}; p50 ${round1(percentile(values, 50))} ms; ${values.length} handoffs one after the other, in-memory platforms, Redis state`,
  });
  return [
    row('handoff-to-card', cards, "from the user's /human accepted to the thread open with its card"),
    row(
      'user-to-thread',
      toThread,
      'a message written while handed over, from accepted to posted in the thread; ' +
        `the default burst window (gateway.burstMs ${DEFAULT_GATEWAY_POLICY.burstMs} ms) it waits first is counted`,
    ),
    row('operator-to-user', toUser, "an operator's message in the thread, from written to shown to the user"),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const result of await run())
    process.stdout.write(`${result.name}: ${result.value} ${result.unit} (${result.notes})\n`);
}
