/**
 * A burst of new chats at once through the gateway core on Redis: BURST_CHATS users of
 * the in-memory platform (dressed as Telegram: drafts, then the final message) each ask
 * one question at the same moment; the scripted upstream streams a short answer.
 * Measured per value of `gateway.maxAnswersInFlight`, each in a fresh child process
 * (peak RSS is a process's high-water mark, so runs cannot share one), compiled to
 * JavaScript first as production runs it:
 *
 * - peak RSS during the burst (VmHWM), and idle RSS once every answer is in and V8's memory
 *   reducer ran (as in an idle gateway; MEMORY_REDUCER_WAIT_MS);
 * - seconds from the first question to the last final, and the most answers in flight at
 *   once (counted at the upstream: ClientAsk streams open);
 * - lost answers: chats whose final never showed (must be 0).
 *
 * Two sources: `webhook` (accept resolves once queued; the whole burst is handed over at
 * once) and `polling` (an adapter whose platform does not redeliver, fed as the Telegram
 * poller feeds it: 100 updates handled at a time; accept also waits while too many
 * conversations wait for a slot, so the poller fetches no more meanwhile).
 *
 * Each chat sends one message and keeps the default burst window (gateway.burstMs): its answer
 * waits the window first, counted in the seconds to the last final (the answers in flight are
 * counted once they ask the upstream: a turn lends its slot while it waits).
 *
 * Run alone with `npx tsx bench/burst.ts` (prints JSON); BURST_CAPS=16,64 and
 * BURST_SOURCES=webhook choose the runs; BURST_CHATS overrides the number of chats;
 * BURST_DEBUG=1 prints the child's heap every 200 ms (where the memory goes); BURST_TSX=1
 * runs the children through tsx instead (as a clone without a build does).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMemoryAdapter, MemoryPlatform } from '../fakes/memory/index.js';
import { telegramCapabilities, withoutDrafts } from '../adapters/telegram/capabilities.js';
import { createGateway, DEFAULT_GATEWAY_POLICY } from '../src/gateway/index.js';
import type { Outbound } from '../src/contract.js';
import { silentLogger } from '../src/logger.js';
import type { AskStreamEvent, CallOptions, ClientAskRequest } from '../src/upstream/api.js';
import { RedisStateStore } from '../src/state/index.js';
import { STREAMED } from './support/answers.js';
import type { BenchResult } from './support/result.js';
import { ScriptedUpstream } from './support/scripted-upstream.js';
import { clock, round1, until } from './support/stats.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const BOT = 'main';
/** The issue's burst: 10,000 new chats at once. */
const BURST_CHATS = Number(process.env.BURST_CHATS ?? 10_000);
/** Cap values compared; 0 = no cap (every accepted conversation answered at once, as before the cap). */
const CAPS = (process.env.BURST_CAPS ?? '0,16,64,256').split(',').map(Number);
const SOURCES = (process.env.BURST_SOURCES ?? 'webhook,polling').split(',') as Source[];
/** Time allowed for the whole burst to be answered. */
const BURST_DEADLINE_MS = 300_000;
/**
 * After the last final: idle this long before the idle measure, so that V8's memory reducer
 * (it runs after some seconds without allocation) gives back the heap the burst grew.
 */
const SETTLE_MS = Number(process.env.BURST_SETTLE_MS ?? 10_000);
/**
 * Idle RSS is read once V8's memory reducer has run: it starts by itself when a process stops
 * allocating (a major GC that compacts and gives pages back; measured 17-34 s after the last
 * final), as in a real idle gateway. A forced gc() is no stand-in: it compacts little, and left
 * 126 MB (compiled) to 183 MB (tsx) where the memory reducer left 84 MB (webhook) and 79 MB (polling). Waited for
 * at most this long after SETTLE_MS; the notes say when it ran.
 */
const MEMORY_REDUCER_WAIT_MS = 90_000;
/**
 * After that GC: V8 unmaps the pages it emptied on a background thread (its unmapper), so RSS
 * read at once still counts them (measured after a forced GC: 233 MB at once, 183 MB 250 ms later).
 */
const PAGES_RETURNED_MS = 1_000;
/** Updates a polling source handles at once (adapters/telegram/polling.ts MAX_UNQUEUED_UPDATES). */
const POLLED_AT_ONCE = 100;
/** No cap: larger than the burst. */
const UNCAPPED = 1_000_000;
/** A webhook accept bound no burst reaches (an hour). */
const UNBOUNDED_ACCEPT_MS = 3_600_000;

type Source = 'webhook' | 'polling';

interface BurstRun {
  source: Source;
  cap: number;
  chats: number;
  baselineRssMb: number;
  peakRssMb: number;
  idleRssMb: number;
  seconds: number;
  mostInFlight: number;
  lost: number;
  /** When the idle measure was read (after V8's memory reducer, or without one). */
  idleNote: string;
}

/** The scripted upstream that also counts the answers being streamed at once. */
class CountingUpstream extends ScriptedUpstream {
  inFlight = 0;
  mostInFlight = 0;

  override async *askStream(request: ClientAskRequest, options?: CallOptions): AsyncIterable<AskStreamEvent> {
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      yield* super.askStream(request, options);
    } finally {
      this.inFlight--;
    }
  }
}

/** Bytes as whole MiB, for the BURST_DEBUG lines. */
const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);

/** Resident set now and its high-water mark, MB (Linux /proc; elsewhere the peak is resourceUsage's maxRSS). */
function rss(): { now: number; peak: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1024;
    return { now: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return { now: process.memoryUsage.rss() / 2 ** 20, peak: process.resourceUsage().maxRSS / 1024 };
  }
}

/** Resolves true at the next major GC (the memory reducer's, once nothing else runs), false after `timeoutMs` without one. */
function nextMajorGc(timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      if (
        !list
          .getEntries()
          .some(
            (entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR,
          )
      )
        return;
      done(true);
    });
    const timer = setTimeout(() => done(false), timeoutMs);
    const done = (ran: boolean) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(ran);
    };
    observer.observe({ entryTypes: ['gc'] });
  });
}

/** One burst in this process (the child): prints its BurstRun as JSON. */
async function child(source: Source, cap: number): Promise<void> {
  const store = new RedisStateStore({
    url: REDIS_URL,
    prefix: `cbbench:burst:${randomUUID().slice(0, 8)}:`,
    connectionName: 'chatbridge-bench',
  });
  const upstream = new CountingUpstream(STREAMED, clock);
  const finalText = upstream.finalText;
  const finals = new Set<string>();
  const platform = new MemoryPlatform({
    name: 'bench',
    now: clock,
    onCall: (call) => {
      if (call.result === 'ok' && (call.kind === 'send' || call.kind === 'edit') && call.text === finalText)
        finals.add(call.conversation);
    },
  });
  let groupOutbound: Outbound | undefined;
  const adapter = createMemoryAdapter({
    platform,
    bot: BOT,
    capabilities: telegramCapabilities({ localApi: false }),
    methods: { edit: true, draft: true },
    outboundFor: (outbound, isGroup) => (isGroup ? (groupOutbound ??= withoutDrafts(outbound)) : outbound),
    redeliversOnAcceptFailure: source === 'webhook',
  });
  const gateway = createGateway({
    state: store,
    upstream,
    bots: [{ id: BOT, serialNumber: 'BENCH-SERIAL' }],
    adapters: [adapter],
    logger: silentLogger(),
    // No bound on a webhook's accept: an all-at-once burst would have most of it answered 503 past
    // gateway.webhookAcceptMs, for its platform to send again; the run measures queueing all of it at once.
    policy: {
      stopGraceMs: 2_000,
      maxAnswersInFlight: cap === 0 ? UNCAPPED : cap,
      webhookAcceptMs: UNBOUNDED_ACCEPT_MS,
    },
  });
  await gateway.start();
  // The platform's own call log would grow with the burst and count as the gateway's memory.
  const trim = setInterval(() => {
    platform.calls.splice(0);
    if (process.env.BURST_DEBUG) {
      const m = process.memoryUsage();
      process.stderr.write(
        `rss ${mb(m.rss)} heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} ext ${mb(m.external)} ab ${mb(m.arrayBuffers)} ` +
          `finals ${finals.size} inflight ${upstream.inFlight}\n`,
      );
    }
  }, 200);
  try {
    // Warm-up (module loads, JIT, Redis scripts), then the baseline the burst adds to.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => platform.userSends(BOT, `warm-${i}`, `Tell me about the house #warm-${i}`)),
    );
    await until(() => finals.size >= 20, 'burst warm-up', 30_000, 10);
    globalThis.gc?.();
    const baseline = rss().now;
    const started = performance.now();
    const ids = Array.from({ length: BURST_CHATS }, (_, i) => String(100_000 + i));
    const ask = (id: string) => platform.userSends(BOT, id, `Tell me about the house #${id}`);
    if (source === 'webhook') {
      // Every question handed over at once: the worst a webhook could do (Telegram opens at most 100 connections).
      await Promise.all(ids.map(ask));
    } else {
      // As the Telegram poller: at most POLLED_AT_ONCE updates being handled, the next fetched as one is accepted.
      let next = 0;
      await Promise.all(
        Array.from({ length: POLLED_AT_ONCE }, async () => {
          while (next < ids.length) await ask(ids[next++]!);
        }),
      );
    }
    if (process.env.BURST_DEBUG) {
      const before = process.memoryUsage();
      globalThis.gc?.();
      process.stderr.write(
        `all accepted: heap ${mb(before.heapUsed)} → after gc ${mb(process.memoryUsage().heapUsed)} MB, rss ${mb(before.rss)}\n`,
      );
    }
    await until(() => finals.size >= BURST_CHATS + 20, 'every final of the burst', BURST_DEADLINE_MS, 20);
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    platform.calls.splice(0);
    const reducedAfter = await nextMajorGc(MEMORY_REDUCER_WAIT_MS);
    const idleSeconds = (performance.now() - started) / 1000 - seconds;
    await new Promise((resolve) => setTimeout(resolve, PAGES_RETURNED_MS));
    const { now: idle, peak } = rss();
    if (process.env.BURST_DEBUG)
      process.stderr.write(
        `idle: heap used ${mb(process.memoryUsage().heapUsed)} MB, total ${mb(process.memoryUsage().heapTotal)} MB\n`,
      );
    const lost = ids.filter((id) => !finals.has(id)).length;
    const run: BurstRun = {
      source,
      cap,
      chats: BURST_CHATS,
      baselineRssMb: round1(baseline),
      peakRssMb: round1(peak),
      idleRssMb: round1(idle),
      seconds: round1(seconds),
      mostInFlight: upstream.mostInFlight,
      lost,
      idleNote: reducedAfter
        ? `V8's memory reducer ran ${round1(idleSeconds)} s after the last final`
        : `no GC within ${round1(idleSeconds)} s of idle`,
    };
    process.stdout.write(`${JSON.stringify(run)}\n`);
  } finally {
    clearInterval(trim);
    await gateway.stop();
    await store.deleteByPrefix();
    await store.close();
  }
}

/**
 * This file and what it imports compiled to JavaScript, as production runs the gateway (the Docker
 * image runs dist/): compiling on the fly with tsx adds its loader (a thread of its own) and
 * source maps to every measure (baseline 114 MB with tsx, 86 MB compiled). Under node_modules so
 * that the packages resolve from the compiled files; returns the compiled entry.
 */
function compileChild(): string {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dir = join(root, 'node_modules', '.cache', 'chatbridge-bench-burst');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../../tsconfig.json',
      compilerOptions: { noEmit: false, outDir: 'out', rootDir: '../../..', sourceMap: false },
      // Only this file and what it imports (the inherited include would compile the tests too), and the
      // project's ambient declarations (a package without types, e.g. src/state/cluster-key-slot.d.ts).
      files: ['../../../bench/burst.ts'],
      include: ['../../../src/**/*.d.ts'],
    }),
  );
  // Without it the compiled files, being under node_modules, would be read as CommonJS.
  mkdirSync(join(dir, 'out'), { recursive: true });
  writeFileSync(join(dir, 'out', 'package.json'), '{ "type": "module" }\n');
  process.stderr.write('bench/burst: compiling the burst for its child processes (tsc)…\n');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')],
    { stdio: 'inherit' },
  );
  return join(dir, 'out', 'bench', 'burst.js');
}

/** The child's command line after node's own flags: compiled, or through tsx with BURST_TSX=1 (as a clone without a build runs). */
function childEntry(): string[] {
  return process.env.BURST_TSX ? ['--import', 'tsx', fileURLToPath(import.meta.url)] : [compileChild()];
}

/** Runs one burst in a fresh Node process (with --expose-gc for the baseline after warm-up). */
function spawnRun(entry: string[], source: Source, cap: number): Promise<BurstRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', ...entry, '--child', source, String(cap)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line)
        reject(new Error(`bench/burst: the ${source} run with cap ${cap} failed (exit ${code})`));
      else resolve(JSON.parse(line) as BurstRun);
    });
  });
}

const label = (run: BurstRun) => `${run.source}.${run.cap === 0 ? 'uncapped' : `cap-${run.cap}`}`;

export async function run(): Promise<BenchResult[]> {
  const entry = childEntry();
  const runs: BurstRun[] = [];
  for (const source of SOURCES) for (const cap of CAPS) runs.push(await spawnRun(entry, source, cap));
  const results: BenchResult[] = [];
  for (const r of runs) {
    const notes =
      `${r.chats} new chats at once, memory platform (Telegram capabilities, drafts), Redis, streamed answer (5 fragments 20 ms apart); ` +
      `baseline ${r.baselineRssMb} MB after warm-up; idle ${r.idleRssMb} MB (${r.idleNote}); ${r.seconds} s to the last final; ` +
      `at most ${r.mostInFlight} answers streaming at once; ${r.lost} lost; ` +
      `each question waits the default burst window (gateway.burstMs ${DEFAULT_GATEWAY_POLICY.burstMs} ms), counted in the time; ` +
      `load average ${loadavg()[0]?.toFixed(1) ?? '?'}`;
    results.push({ name: `burst.peak-rss.${label(r)}`, value: r.peakRssMb, unit: 'MB', notes });
  }
  // The default's figures under stable names, for the aims.
  const byDefault = runs.filter((r) => r.cap === DEFAULT_GATEWAY_POLICY.maxAnswersInFlight);
  for (const r of byDefault) {
    results.push(
      {
        name: `burst.${r.source}.peak-rss`,
        value: r.peakRssMb,
        unit: 'MB',
        notes: `default cap ${r.cap}; baseline ${r.baselineRssMb} MB`,
      },
      {
        name: `burst.${r.source}.idle-rss`,
        value: r.idleRssMb,
        unit: 'MB',
        notes: `after the burst, once idle (${r.idleNote})`,
      },
      { name: `burst.${r.source}.seconds`, value: r.seconds, unit: 's', notes: `${r.chats} answers` },
      { name: `burst.${r.source}.lost-answers`, value: r.lost, unit: 'answers' },
    );
  }
  return results;
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as Source, Number(process.argv[4]));
  process.exit(0);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await run(), null, 2)}\n`);
  process.exit(0);
}
