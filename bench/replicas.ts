/**
 * Answers per second of 1 and 2 `chatbridge start` replicas in Telegram
 * webhook mode behind a round-robin load balancer, on one Redis (and on a Redis
 * Cluster, when this build reads REDIS_CLUSTER_NODES and BENCH_REDIS_CLUSTER_NODES
 * names one). Each replica is a real process, compiled (`npm run build`, as the
 * Docker image runs it), with the embedded Chatbot Service and its builtin engine at
 * full speed (tokensPerSecond 0), so the numbers are the gateway's and the service's
 * work, not an engine's pace. The fake Bot API posts the webhooks as Telegram does
 * (40 connections, one update of a chat at a time) with its flood limits off, and the
 * replicas' own pace of Telegram's 30 messages/s per bot lifted (below). Each chat's messages
 * are sent back to back and one answer per message is counted, so the replicas run with bursts
 * off (gateway.burstMs 0): with the default window each chat's messages would be one burst,
 * answered once (bench/bursts.ts measures the window itself).
 *
 *   npx tsx bench/replicas.ts       # prints the results; BENCH_NO_BUILD=1 skips the build
 *
 * On one machine the replicas share its cores with Redis, the fake Bot API and this
 * process: the second replica helps only as far as a core is idle. Read the numbers
 * with the machine's core count (BENCHMARKS.md's header).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/index.js';
import { ENV_OVERRIDES } from '../src/config/env.js';
import { RedisStateStore } from '../src/state/index.js';
import { startRoundRobinProxy } from '../fakes/round-robin-proxy.js';
import { cpuMs } from './peers/proc.js';
import type { BenchResult } from './support/result.js';
import { startTestRedisCluster } from '../fakes/redis-cluster.js';

const CLI = join(import.meta.dirname, '../bin/chatbridge.js');
const CONVERSATIONS = 500;
const MESSAGES_EACH = 4;
const WARMUP_CONVERSATIONS = 100;
/** Messages per second per replica: far above what a process sends, so that the bot-wide pace never applies. */
const UNPACED = 1_000_000;
/** How often the bench looks whether every answer is on screen (adds at most this to a run of tens of seconds). */
const POLL_MS = 20;
/** Past this the run is reported as failed rather than waited for. */
const RUN_TIMEOUT_MS = 180_000;
/**
 * gateway.burstMs in the replicas' config: a chat's MESSAGES_EACH sent back to back would otherwise be
 * one burst answered once (500 answers for 2,000 messages), and the wait for 2,000 never ends. Each
 * message is answered on its own, as a question sent after the window would be.
 */
const BURST_MS = 0;

interface Topology {
  name: 'single-redis' | 'cluster';
  env: Record<string, string>;
}

interface Replica {
  child: ChildProcess;
  port: number;
}

async function startReplica(configFile: string, env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, [CLI, 'start'], {
    env: { PATH: process.env.PATH, CHATBRIDGE_CONFIG: configFile, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`a replica did not start:\n${log.slice(-3000)}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      // Only the start is read; the rest is drained so the pipe never fills.
      if (log.length > 200_000) return;
      log += chunk.toString();
      const running = /"port":(\d+),[^\n]*"msg":"chatbridge is running"/.exec(log);
      if (running) {
        clearTimeout(timer);
        resolve(Number(running[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`a replica exited with ${code}:\n${log.slice(-3000)}`)));
  });
  return { child, port };
}

async function stopReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null || replica.child.signalCode !== null) return;
  const exited = new Promise((resolve) => replica.child.once('exit', resolve));
  replica.child.kill('SIGTERM');
  await exited;
}

/** Sends `conversations` x `each` messages at once and resolves with the ms until every one is answered. */
async function burst(fake: FakeTelegram, firstChat: number, conversations: number, each: number): Promise<number> {
  const chats = Array.from({ length: conversations }, (_, i) => firstChat + i);
  const started = performance.now();
  for (let n = 1; n <= each; n++) {
    for (const chat of chats)
      fake.userSends({ chat, from: { id: chat, first_name: `User ${chat}` }, text: `hello ${n}` });
  }
  // Checked every POLL_MS, not on every change of the fake: 500 chats' screens read at each of thousands
  // of changes would make this process, on the same cores, the bottleneck.
  const deadline = started + RUN_TIMEOUT_MS;
  while (!chats.every((chat) => fake.visibleMessages(chat).length >= each)) {
    if (performance.now() > deadline) {
      const shown = chats.reduce((sum, chat) => sum + fake.visibleMessages(chat).length, 0);
      throw new Error(
        `bench:replicas: ${conversations * each} answers not all given within ${RUN_TIMEOUT_MS / 1000} s: ${shown} shown`,
      );
    }
    await sleep(POLL_MS);
  }
  return performance.now() - started;
}

async function measure(replicaCount: number, topology: Topology): Promise<BenchResult> {
  const prefix = `cbbench:replicas:${randomUUID().slice(0, 8)}:`;
  const configFile = join(mkdtempSync(join(tmpdir(), 'cb-bench-replicas-')), 'chatbridge.yaml');
  writeFileSync(
    configFile,
    [
      `keyPrefix: "${prefix}"`,
      'console: off',
      'port: 0',
      'host: 127.0.0.1',
      'service:',
      '  engine:',
      '    kind: builtin',
      '    tokensPerSecond: 0',
      'gateway:',
      `  burstMs: ${BURST_MS}`,
    ].join('\n') + '\n',
  );
  const fake = await startFakeTelegram({ rateLimit: false, webhookConnections: 40 });
  const proxy = await startRoundRobinProxy();
  const env = {
    ...topology.env,
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.apiRoot,
    TELEGRAM_MODE: 'webhook',
    TELEGRAM_WEBHOOK_URL: proxy.url,
    // Each replica paces its bot to Telegram's 30 messages/s (adapters/telegram/pacing.ts), which would be
    // all this measured (29 and 59 answers/s): the fake has no flood limits, so the pace is lifted here.
    TELEGRAM_MESSAGES_PER_SECOND: String(UNPACED),
  };
  const replicas: Replica[] = [];
  try {
    // One after the other: the first seeds the demo chatbot and the service keys the others then read.
    for (let i = 0; i < replicaCount; i++) replicas.push(await startReplica(configFile, env));
    proxy.setBackends(replicas.map((replica) => replica.port));
    await burst(fake, 1_000_000, WARMUP_CONVERSATIONS, 1);
    const cpuBefore = replicas.map((replica) => cpuMs(replica.child.pid!));
    const driverBefore = process.cpuUsage();
    const ms = await burst(fake, 2_000_000, CONVERSATIONS, MESSAGES_EACH);
    const cpu = replicas.reduce((sum, replica, i) => sum + cpuMs(replica.child.pid!) - cpuBefore[i]!, 0);
    const driver = process.cpuUsage(driverBefore);
    const driverMs = (driver.user + driver.system) / 1000;
    const answers = CONVERSATIONS * MESSAGES_EACH;
    const perSecond = answers / (ms / 1000);
    return {
      name: `replicas.answers-per-second.${replicaCount}-replica${replicaCount > 1 ? 's' : ''}.${topology.name}`,
      value: Math.round(perSecond),
      unit: 'answers/s',
      notes:
        `${CONVERSATIONS} chats x ${MESSAGES_EACH} messages at once, webhook through a round-robin proxy, builtin engine at full speed, ` +
        `bursts off (gateway.burstMs ${BURST_MS}: each message its own answer); ` +
        `${(cpu / answers).toFixed(2)} ms CPU per answer over the replicas ` +
        `(the fake Bot API and proxy: ${(driverMs / answers).toFixed(2)}); one run`,
    };
  } finally {
    for (const replica of replicas) await stopReplica(replica);
    await proxy.close();
    await fake.close();
    const url = topology.env.REDIS_URL;
    if (url) {
      const state = new RedisStateStore({ url, prefix });
      await state.deleteByPrefix();
      await state.close();
    }
  }
}

/**
 * The cluster named by BENCH_REDIS_CLUSTER_NODES, or a 3-master one of our own on free ports
 * (real redis-server processes); undefined, with the reason, when neither can be had.
 */
async function clusterTopology(): Promise<{ topology: Topology; close: () => Promise<void> } | string> {
  if (!ENV_OVERRIDES.some((override) => override.env === 'REDIS_CLUSTER_NODES'))
    return 'this build does not read REDIS_CLUSTER_NODES';
  const named = process.env.BENCH_REDIS_CLUSTER_NODES;
  if (named)
    return { topology: { name: 'cluster', env: { REDIS_CLUSTER_NODES: named } }, close: async () => undefined };
  try {
    const cluster = await startTestRedisCluster();
    return {
      topology: { name: 'cluster', env: { REDIS_CLUSTER_NODES: cluster.nodes.join(',') } },
      close: cluster.close,
    };
  } catch (error) {
    return `no cluster could be started (${(error as Error).message}); set BENCH_REDIS_CLUSTER_NODES=host:port,…`;
  }
}

export async function run(): Promise<BenchResult[]> {
  if (!process.env.BENCH_NO_BUILD) {
    process.stderr.write('bench:replicas: npm run build…\n');
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  }
  const topologies: Topology[] = [
    { name: 'single-redis', env: { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } },
  ];
  const cluster = await clusterTopology();
  if (typeof cluster === 'string') process.stderr.write(`bench:replicas: no cluster run: ${cluster}\n`);
  else topologies.push(cluster.topology);
  const results: BenchResult[] = [];
  try {
    for (const topology of topologies) {
      for (const count of [1, 2]) results.push(await measure(count, topology));
    }
  } finally {
    if (typeof cluster !== 'string') await cluster.close();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const result of await run())
    process.stdout.write(`${result.name}: ${result.value} ${result.unit} (${result.notes})\n`);
}
