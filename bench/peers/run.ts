/**
 * `npm run bench:peers`: chatbridge measured side by side with its peers:
 * the grammY floors and Vercel's Chat SDK, on one fake Bot API and one Redis,
 * contenders alternated, medians written to the "Side by side with the peers"
 * section of BENCHMARKS.md (the rest of the file is kept).
 *
 *   npm run bench:peers -- --chats 100 --messages 2 --rounds 1 --only chatbridge,chat-sdk
 *
 * Flags: --chats (500), --messages per chat (4), --rounds (2), --only (names of
 * bench/peers/contenders.ts), --node <binary> (repeatable: the contenders run on each Node in turn, every row naming
 * its Node; default: the Node running the harness), --redis-url (default: a redis-server of its own),
 * --no-write (print only), --profile-before <file.cpuprofile> (with BENCH_PEERS_CPU_PROF: an earlier profile
 * summarised beside the last run's). BENCH_PEERS_CHATBRIDGE_ROOT=<checkout>: measure that checkout's
 * chatbridge (built there) instead of this one's. Linux only (it reads /proc).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CHUNKS } from './answer.js';
import { CHATBRIDGE_ROOT, CONTENDERS, type ContenderName } from './contenders.js';
import { measureRun, type NodeRuntime, type RunNumbers } from './measure.js';
import { openBenchRedis } from './redis.js';
import { newestProfile, profileTable } from './profile-summary.js';
import { peersMarkdown } from './report.js';
import { replacePeersSection } from './section.js';
import { startScriptedService } from './upstream.js';

const ROOT = join(import.meta.dirname, '..', '..');

function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`bench:peers: --${name} takes a whole number ≥ 1, not "${value}"`);
  return n;
}

/** HEAD, and the files of the measured code that differ from it (helpers commit in the same tree while it runs). */
function describeCommit(root = ROOT): string {
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  const changed = execFileSync('git', ['status', '--porcelain', '--', 'src', 'adapters', 'bin'], { cwd: root })
    .toString()
    .split('\n')
    .filter(Boolean);
  const described = changed.length
    ? `${head} with ${changed.length} uncommitted change(s) in src/, adapters/, bin/ (${changed.map((line) => line.slice(3)).join(', ')})`
    : head;
  return root === ROOT ? described : `${describeCommit()}, chatbridge of ${described} (BENCH_PEERS_CHATBRIDGE_ROOT)`;
}

/**
 * With BENCH_PEERS_CPU_PROF=<dir> (chatbridge runs with --cpu-prof there, bench/peers/contenders.ts): the
 * ten heaviest functions of its last run, and of `before` (an earlier profile) when given, for the section.
 */
function profileNotes(before: string | undefined): string | undefined {
  const dir = process.env.BENCH_PEERS_CPU_PROF;
  const last = dir ? newestProfile(dir) : undefined;
  if (!last) return undefined;
  const parts = [
    'CPU profile of the chatbridge row (`BENCH_PEERS_CPU_PROF=<dir>`: node --cpu-prof; the ten heaviest functions by self time, ' +
      'shares of the busy time, start-up included; `npx tsx bench/peers/profile-summary.ts <file>`):',
  ];
  if (before)
    parts.push(
      `Before (${before.split('/').at(-1)}):\n\n${profileTable(before)}\n\nBy package:\n\n${profileTable(before, 12, 'package')}`,
    );
  parts.push(
    `${before ? 'After' : 'Last run'}:\n\n${profileTable(last)}\n\nBy package:\n\n${profileTable(last, 12, 'package')}`,
  );
  return parts.join('\n\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      chats: { type: 'string', default: '500' },
      messages: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '2' },
      only: { type: 'string' },
      'redis-url': { type: 'string' },
      'no-write': { type: 'boolean', default: false },
      'profile-before': { type: 'string' },
      node: { type: 'string', multiple: true },
    },
  });
  const chats = positive('chats', values.chats);
  const messages = positive('messages', values.messages);
  const rounds = positive('rounds', values.rounds);
  const known = CONTENDERS.map((c) => c.name);
  const only = values.only
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = only?.filter((name) => !known.includes(name as ContenderName));
  if (unknown?.length) throw new Error(`bench:peers: --only takes ${known.join(', ')}; unknown: ${unknown.join(', ')}`);
  const contenders = known.filter((name) => !only || only.includes(name));
  const nodes: NodeRuntime[] = (values.node ?? [process.execPath]).map((path) => ({
    path,
    version: execFileSync(path, ['--version']).toString().trim(),
  }));

  if (contenders.includes('chatbridge')) {
    // As production runs it (the Docker image): compiled, which bin/chatbridge.js starts when dist/ is current.
    process.stderr.write(`bench:peers: npm run build in ${CHATBRIDGE_ROOT}…\n`);
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', cwd: CHATBRIDGE_ROOT });
  }
  const loadBefore = loadavg()[0]!;
  const redis = await openBenchRedis(values['redis-url']);
  const service = await startScriptedService(CHUNKS);
  const runs: RunNumbers[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const [name, node] of contenders.flatMap((name) => nodes.map((node) => [name, node] as const))) {
        process.stderr.write(`bench:peers: round ${round}/${rounds}, ${name} on Node ${node.version}…\n`);
        const run = await measureRun(name, {
          chats,
          messages,
          chunks: CHUNKS,
          redis,
          upstreamUrl: service.url,
          stallMs: 30_000,
          node,
        });
        runs.push(run);
        process.stderr.write(
          `  ${Math.round(run.answersPerSecond)} answers/s, ${run.cpuMsPerAnswer.toFixed(2)} CPU ms/answer, ` +
            `${run.apiCallsPerAnswer.toFixed(2)} Bot API calls/answer, ` +
            `${run.redisRoundTripsPerAnswer.toFixed(2)} Redis round trips/answer, ` +
            `${run.redisCommandsPerAnswer.toFixed(2)} commands run, ` +
            `peak ${Math.round(run.peakRssMb)} MB, idle ${Math.round(run.idleRssMb)} MB, ${run.answers}/${run.expected} complete` +
            `${run.failure ? `\n  INCOMPLETE: ${run.failure}` : ''}\n`,
        );
      }
    }
  } finally {
    await service.close();
    await redis.close();
  }

  const cpu = cpus();
  const argv = process.argv.slice(2).join(' ');
  const markdown = peersMarkdown(runs, {
    command: `npm run bench:peers${argv ? ` -- ${argv}` : ''}`,
    date: new Date().toISOString().slice(0, 10),
    machine:
      `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, ` +
      `${process.platform}/${process.arch}, ` +
      `contenders on Node ${nodes.map((node) => node.version).join(' and ')} (the harness on ${process.version}); ` +
      `load average ${loadBefore.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end ` +
      '(other work on the machine slows answers/s; CPU per answer moves less)',
    commit: describeCommit(CHATBRIDGE_ROOT),
    chats,
    messages,
    rounds,
    redis: values['redis-url']
      ? `${values['redis-url']} (shared: other clients' commands may be counted)`
      : `a redis-server of its own (${execFileSync('redis-server', ['--version']).toString().trim().split(' ').slice(0, 3).join(' ')})`,
  });
  const profiled = profileNotes(values['profile-before']);
  const written = profiled ? `${markdown.trimEnd()}\n\n${profiled}\n` : markdown;
  if (values['no-write']) {
    process.stdout.write(written);
  } else {
    const file = join(ROOT, 'BENCHMARKS.md');
    writeFileSync(file, replacePeersSection(existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n', written));
    process.stderr.write('bench:peers: wrote its section of BENCHMARKS.md\n');
  }
  process.exit(runs.some((run) => run.failure) ? 1 : 0);
}

await main();
