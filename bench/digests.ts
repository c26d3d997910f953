/**
 * Issue 29, the day's digests at scale: a chatbot with 10,000 conversations in one day (each a
 * dozen entries: questions about listings, the bot's answers, some phone numbers and e-mail
 * addresses, some handoffs), written to Redis with the project's own commands (the transcript's
 * append, the day index's note), then both mails built as the scheduler builds them
 * (DigestService.preview): time, and the process's peak memory while building.
 *
 *   npx tsx bench/digests.ts      # prints the results
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { DateTime } from 'luxon';
import { createMemoryAdapter, MemoryPlatform } from '../fakes/memory/index.js';
import { buildConfigSchema } from '../src/config/index.js';
import type { ConversationRef } from '../src/contract.js';
import { createGateway, TranscriptStore, type TranscriptEntry } from '../src/gateway/index.js';
import { DayIndex, installHandoff } from '../src/handoff/index.js';
import { GatewayMetrics } from '../src/http/metrics.js';
import { HttpServer } from '../src/http/server.js';
import { silentLogger } from '../src/logger.js';
import { RedisStateStore, type AtomicCommand } from '../src/state/index.js';
import type { BenchResult } from './support/result.js';
import { ScriptedUpstream } from './support/scripted-upstream.js';
import { clock, round1 } from './support/stats.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONVERSATIONS = Number(process.env.BENCH_DIGEST_CONVERSATIONS ?? 10_000);
const BOT = 'main';
const SERIAL = 'BENCH-DIGESTS';
const ZONE = 'America/Chicago';
const SEED_BATCH = 500;
const DAY_MS = 24 * 60 * 60_000;

function entriesOf(n: number, dayStart: number): TranscriptEntry[] {
  const user = { id: `u${n}`, name: `User ${n}`, handle: `user${n}` };
  const at = (minute: number) => dayStart + ((n * 7 + minute) % 1400) * 60_000;
  const entries: TranscriptEntry[] = [];
  for (let turn = 0; turn < 6; turn++) {
    const asks =
      turn === 0
        ? 'Do you have 3 bedroom homes for sale in Austin?'
        : turn === 3 && n % 3 === 0
          ? `Please call me on +1 512 555 ${String(1000 + (n % 9000)).padStart(4, '0')} or mail user${n}@example.com`
          : turn === 4 && n % 5 === 0
            ? 'I want to talk to a person'
            : `Question ${turn} about the listing at ${100 + turn} Elm St, is parking included?`;
    entries.push({ at: at(turn * 2), role: 'user', text: asks, user });
    entries.push({
      at: at(turn * 2 + 1),
      role: 'bot',
      text: `Answer ${turn}: ${'the home has a garden and '.repeat(8)}`,
    });
  }
  return entries;
}

export async function run(): Promise<BenchResult[]> {
  const state = new RedisStateStore({ url: REDIS_URL, prefix: `bench-digests:${randomUUID().slice(0, 8)}:` });
  const platform = new MemoryPlatform({ name: 'benchchat' });
  const gateway = createGateway({
    state,
    upstream: new ScriptedUpstream({ fragments: ['ok'], gapMs: 0 }, clock),
    bots: [
      {
        id: BOT,
        serialNumber: SERIAL,
        settings: {
          TimeZone: ZONE,
          EmailForDailyLeads: 'sales@bench.example',
          EmailForDailyChatLogs: 'logs@bench.example',
        },
      },
    ],
    adapters: [createMemoryAdapter({ platform, bot: BOT })],
    logger: silentLogger(),
  });
  const config = buildConfigSchema([]).parse({ bots: [{ id: BOT, serialNumber: SERIAL }] });
  const http = new HttpServer({
    metrics: new GatewayMetrics(),
    ready: () => Promise.resolve(),
    logger: silentLogger(),
  });
  const handoff = await installHandoff({ gateway, state, config, logger: silentLogger(), http });
  await gateway.start();
  const day = DateTime.now().setZone(ZONE).minus({ days: 1 }).toISODate()!;
  const dayStart = DateTime.fromISO(day, { zone: ZONE }).toMillis();
  const transcript = new TranscriptStore(state, { maxEntries: 200, ttlMs: 90 * DAY_MS });
  const index = new DayIndex(state, 90 * DAY_MS);
  try {
    for (let from = 0; from < CONVERSATIONS; from += SEED_BATCH) {
      const commands: AtomicCommand[] = [];
      for (let n = from; n < Math.min(CONVERSATIONS, from + SEED_BATCH); n++) {
        const conversation: ConversationRef = { bot: BOT, platform: 'benchchat', id: `c${n}` };
        commands.push(...transcript.appendCommands(conversation, entriesOf(n, dayStart)));
        commands.push(...index.commands(conversation, SERIAL, day));
      }
      await state.pipeline(commands);
    }
    const results: BenchResult[] = [];
    for (const kind of ['leads', 'logs'] as const) {
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const started = clock();
      const { mail } = await handoff.digests.preview(BOT, kind, day);
      const took = clock() - started;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      const bytes = Buffer.byteLength(mail?.text ?? '') + Buffer.byteLength(mail?.html ?? '');
      results.push(
        {
          name: `digests.${kind}.build-time`,
          value: round1(took),
          unit: 'ms',
          notes:
            `${CONVERSATIONS} conversations of 12 entries in one day, read from Redis in chunks; ` +
            `mail ${round1(bytes / 1024 / 1024)} MB (text + HTML), ${mail?.omitted ?? 0} left out by the size cap`,
        },
        {
          name: `digests.${kind}.peak-rss-growth`,
          value: round1((peak - rssBefore) / 1024 / 1024),
          unit: 'MB',
          notes: `the process's RSS while building, over its RSS before (${round1(rssBefore / 1024 / 1024)} MB)`,
        },
      );
    }
    return results;
  } finally {
    await gateway.stop();
    await handoff.stop();
    await state.deleteByPrefix();
    await state.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const result of await run())
    process.stdout.write(`${result.name}: ${result.value} ${result.unit} (${result.notes})\n`);
}
