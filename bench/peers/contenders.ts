/**
 * The four contenders of the peers benchmark, each started as its own process
 * against the same fake Bot API and Redis: chatbridge (`bin/chatbridge.js start`,
 * production wiring), the grammY floors and Chat SDK (bench/peers/contenders/*.ts,
 * transpiled once to plain JavaScript and run with plain node, so no TypeScript
 * loader weighs on their CPU or memory).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..', '..');
/**
 * The checkout whose chatbridge is measured: this one, or BENCH_PEERS_CHATBRIDGE_ROOT (e.g. a git
 * worktree of an earlier commit, to compare two builds with one harness on one machine).
 */
export const CHATBRIDGE_ROOT = process.env.BENCH_PEERS_CHATBRIDGE_ROOT ?? ROOT;
/** Inside the repository's node_modules, so the transpiled programs resolve its packages. */
const BUILD_DIR = join(ROOT, 'node_modules', '.cache', 'chatbridge-bench-peers');
const REQUEST_COUNTER = join(import.meta.dirname, 'count-redis-requests.cjs');

export type ContenderName = 'chatbridge' | 'grammy-send' | 'grammy-edits' | 'chat-sdk';

export const CONTENDERS: { name: ContenderName; label: string }[] = [
  { name: 'chatbridge', label: 'chatbridge (polling, drafts)' },
  { name: 'grammy-send', label: 'grammY, one sendMessage (the floor)' },
  { name: 'grammy-edits', label: 'grammY, send + 3 edits (a streaming floor)' },
  { name: 'chat-sdk', label: 'Chat SDK, drafts' },
];

export interface Setup {
  token: string;
  apiRoot: string;
  botUsername: string;
  redisUrl: string;
  upstreamUrl: string;
  chunks: readonly string[];
  /** Private key prefix of this run (chatbridge and Chat SDK). */
  keyPrefix: string;
  /** The node binary the contender runs on. */
  node: string;
}

export interface RunningContender {
  pid: number;
  /** The last lines it wrote (stdout and stderr), for failure reports. */
  output(): string;
  /** Its Redis round trips so far, counted in the process (count-redis-requests.cjs; chatbridge), or undefined (MONITOR counts them). */
  redisRoundTrips(): Promise<number | undefined>;
  stop(): Promise<void>;
}

function transpile(file: string): string {
  mkdirSync(BUILD_DIR, { recursive: true });
  const source = readFileSync(join(import.meta.dirname, 'contenders', `${file}.ts`), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  });
  const out = join(BUILD_DIR, `${file}.mjs`);
  writeFileSync(out, outputText);
  return out;
}

function command(name: ContenderName, setup: Setup): { args: string[]; env: Record<string, string>; ready: RegExp } {
  const base = { PATH: process.env.PATH ?? '', NODE_ENV: 'production' };
  if (name === 'chatbridge') {
    const config = join(mkdtempSync(join(tmpdir(), 'cb-peers-')), 'chatbridge.yaml');
    writeFileSync(config, `keyPrefix: "${setup.keyPrefix}"\nconsole: off\nport: 0\nhost: 127.0.0.1\n`);
    return {
      args: [join(CHATBRIDGE_ROOT, 'bin', 'chatbridge.js'), 'start'],
      env: {
        ...base,
        CHATBRIDGE_CONFIG: config,
        REDIS_URL: setup.redisUrl,
        TELEGRAM_BOT_TOKEN: setup.token,
        TELEGRAM_API_ROOT: setup.apiRoot,
        // The fake has no flood limits and the peers do not pace themselves: lift the adapter's 30 messages/s.
        TELEGRAM_MESSAGES_PER_SECOND: '100000',
        UPSTREAM_BASE_URL: setup.upstreamUrl,
        UPSTREAM_SECRET_KEY: 'bench-peers-secret',
        UPSTREAM_SESSION_KEY: 'bench-peers-session',
        CHATBOT_SERIAL_NUMBER: 'bench-peers-chatbot',
      },
      ready: /"msg":"chatbridge is running"/,
    };
  }
  const env = {
    ...base,
    PEERS_BOT_TOKEN: setup.token,
    PEERS_API_ROOT: setup.apiRoot,
    PEERS_BOT_USERNAME: setup.botUsername,
    PEERS_CHUNKS: JSON.stringify(setup.chunks),
    PEERS_REDIS_URL: setup.redisUrl,
    PEERS_KEY_PREFIX: setup.keyPrefix,
  };
  if (name === 'chat-sdk') return { args: [transpile('chat-sdk')], env, ready: /^ready$/m };
  return {
    args: [transpile('grammy-floor')],
    env: { ...env, PEERS_MODE: name === 'grammy-send' ? 'send' : 'edits' },
    ready: /^ready$/m,
  };
}

export async function startContender(name: ContenderName, setup: Setup): Promise<RunningContender> {
  const { args, env, ready } = command(name, setup);
  // BENCH_PEERS_CPU_PROF=<dir>: chatbridge writes a V8 CPU profile there when it exits (bench/peers/profile-summary.ts reads it).
  const profileDir = process.env.BENCH_PEERS_CPU_PROF;
  const nodeArgs = profileDir && name === 'chatbridge' ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  // chatbridge's Redis round trips, counted in the process (count-redis-requests.cjs): read before and after the measured part.
  const requestsFile =
    name === 'chatbridge' ? join(mkdtempSync(join(tmpdir(), 'cb-peers-requests-')), 'requests') : undefined;
  const counting = requestsFile ? ['--require', REQUEST_COUNTER] : [];
  const child: ChildProcess = spawn(setup.node, [...counting, ...nodeArgs, ...args], {
    env: requestsFile ? { ...env, BENCH_REDIS_REQUESTS_FILE: requestsFile } : env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  let started = false;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`bench:peers: ${name} did not start within 30 s:\n${tail}`)),
      30_000,
    );
    const onData = (chunk: Buffer): void => {
      tail = (tail + chunk.toString()).slice(-8_000);
      if (!started && ready.test(tail)) {
        started = true;
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`bench:peers: ${name} exited with ${code} before it was ready:\n${tail}`));
    });
  });
  return {
    pid: child.pid!,
    output: () => tail,
    redisRoundTrips: async () => {
      if (!requestsFile) return undefined;
      rmSync(requestsFile, { force: true });
      child.kill('SIGUSR2');
      for (let waited = 0; waited < 5_000; waited += 10) {
        if (existsSync(requestsFile)) {
          const text = readFileSync(requestsFile, 'utf8');
          // Written whole with its newline once done.
          if (text.endsWith('\n')) return Number(text);
        }
        await sleep(10);
      }
      throw new Error(`bench:peers: ${name} did not write its Redis round trip count`);
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
