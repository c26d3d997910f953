/**
 * Issue 20, the operator inbox at scale: one `chatbridge start` process (compiled, as the Docker
 * image runs it; Telegram through the fake Bot API, the embedded service, ADMIN_TOKEN set) on a
 * Redis holding 10,000 paused conversations, written with the pause store's and the transcript's
 * own commands, pipelined: each has the few entries of a handoff (the user's question, the bot's
 * answer, the request for a person, the event, the handoff reply), and the newest 30 a full
 * transcript (the gateway keeps at most 200 entries).
 *
 * - the process's RSS once started;
 * - GET /inbox (the waiting list: the newest 100 in full, the rest counted) and
 *   GET /inbox/conversations/:id (a conversation with 200 entries), p50/p95 over 30 requests each,
 *   one after the other, signed in, on a kept-alive connection as a browser makes them;
 * - 500 open inbox pages (Server-Sent Events streams of /inbox/events): the process's RSS before
 *   and with them, and a claim made through the inbox (a POST, as the Claim button) until every
 *   one of the 500 streams has received the change.
 *
 *   npx tsx bench/inbox.ts      # prints the results; BENCH_NO_BUILD=1 skips the build
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { startFakeTelegram } from '../fakes/telegram/index.js';
import type { ConversationRef } from '../src/contract.js';
import { DEFAULT_GATEWAY_POLICY, TranscriptStore, type TranscriptEntry } from '../src/gateway/index.js';
import { formatConversationId, PauseStore } from '../src/handoff/index.js';
import { RedisStateStore, type AtomicCommand } from '../src/state/index.js';
import { memoryMb } from './peers/proc.js';
import type { BenchResult } from './support/result.js';
import { percentile, round1 } from './support/stats.js';

/** The compiled entry, as the Docker image runs it (bin/chatbridge.js would run the sources through tsx whenever one is newer than the build). */
export const COMPILED = join(import.meta.dirname, '../dist/src/main.js');
export const CLI = join(import.meta.dirname, '../bin/chatbridge.js');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const ADMIN_TOKEN = 'bench-inbox-admin-token';
/** The scale. */
const PAUSED = Number(process.env.BENCH_INBOX_PAUSED ?? 10_000);
const REQUESTS = 30;
const WARMUP_REQUESTS = 5;
const STREAMS = Number(process.env.BENCH_INBOX_STREAMS ?? 500);
/** The newest this many conversations have a full transcript (the ones whose pages are timed). */
const FULL_TRANSCRIPTS = REQUESTS;
/** Conversations written per pipelined batch. */
const SEED_BATCH = 500;
/** Idle before reading RSS, so that what a phase allocated and dropped is collected first. */
const SETTLE_MS = 3_000;
const FIRST_CHAT = 4_000_000;

export interface Gateway {
  child: ChildProcess;
  port: number;
}

export async function startGateway(entry: string, configFile: string, env: Record<string, string>): Promise<Gateway> {
  const child = spawn(process.execPath, [entry, 'start'], {
    env: { PATH: process.env.PATH, CHATBRIDGE_CONFIG: configFile, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`bench:inbox: the gateway did not start:\n${log.slice(-3000)}`)),
      60_000,
    );
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
    child.once('exit', (code) =>
      reject(new Error(`bench:inbox: the gateway exited with ${code}:\n${log.slice(-3000)}`)),
    );
  });
  return { child, port };
}

export async function stopGateway(gateway: Gateway): Promise<void> {
  if (gateway.child.exitCode !== null || gateway.child.signalCode !== null) return;
  const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
  gateway.child.kill('SIGTERM');
  await exited;
}

const conversationOf = (n: number): ConversationRef => ({
  bot: 'main',
  platform: 'telegram',
  id: String(FIRST_CHAT + n),
});

/** A handoff's transcript; `full` pads it to the most the gateway keeps with a long exchange before. */
function transcriptOf(n: number, at: number, full: boolean): TranscriptEntry[] {
  const user = { id: String(FIRST_CHAT + n), name: `User ${n}`, handle: `user${n}` };
  const exchange = (k: number): TranscriptEntry[] => [
    {
      at: at - 60_000 + k,
      role: 'user',
      user,
      text: `Do you have homes for sale in Austin with ${(k % 5) + 1} bedrooms?`,
    },
    {
      at: at - 59_000 + k,
      role: 'bot',
      text: 'I found 2 listings that match:\n- Single Family Residential, 1812 Elm St, Austin: 3 bd, 2.5 ba, for sale $585,000, MLS TX-10452',
    },
  ];
  const before = full
    ? Array.from({ length: Math.floor((DEFAULT_GATEWAY_POLICY.transcriptMaxEntries - 3) / 2) }, (_, k) =>
        exchange(k),
      ).flat()
    : exchange(0);
  return [
    ...before,
    { at, role: 'user', user, text: 'I want to talk to a person' },
    {
      at,
      role: 'system',
      event: 'handed-over',
      text: 'Handed over to a person: the user wrote the handoff phrase "talk to a person".',
    },
    {
      at: at + 1,
      role: 'bot',
      text: "I've asked one of our agents to join this chat. They usually reply within an hour during business hours.",
    },
  ];
}

/** 10,000 pauses with their transcripts, through the stores' own commands, SEED_BATCH conversations per round trip. */
async function seed(state: RedisStateStore, now: number): Promise<void> {
  const pauses = new PauseStore(state);
  const transcripts = new TranscriptStore(state, {
    maxEntries: DEFAULT_GATEWAY_POLICY.transcriptMaxEntries,
    ttlMs: DEFAULT_GATEWAY_POLICY.transcriptTtlMs,
  });
  for (let first = 0; first < PAUSED; first += SEED_BATCH) {
    const commands: AtomicCommand[] = [];
    for (let n = first; n < Math.min(first + SEED_BATCH, PAUSED); n++) {
      const conversation = conversationOf(n);
      // Conversation 0 is the newest: handed over a second after conversation 1.
      const since = now - 60_000 - n * 1_000;
      const user = { id: conversation.id, name: `User ${n}`, handle: `user${n}` };
      commands.push(
        ...pauses.writeCommands({
          conversation,
          handoffId: randomUUID(),
          since,
          expiresAt: since + 24 * 3_600_000,
          reason: 'the user wrote the handoff phrase "talk to a person"',
          user,
          isGroup: false,
        }),
        ...transcripts.appendCommands(conversation, transcriptOf(n, since, n < FULL_TRANSCRIPTS)),
      );
    }
    await state.batch(commands);
  }
}

export interface Response {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** One HTTP request (Node's global agent keeps the connection alive, as a browser does); resolves once the whole body is read. */
export function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Signs in with the admin token as a browser's form does; resolves with the cookie and the page's CSRF token. */
export async function signIn(port: number): Promise<{ cookie: string; csrf: string }> {
  const origin = `http://127.0.0.1:${port}`;
  const signedIn = await send(port, '/inbox/sign-in', {
    method: 'POST',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: ADMIN_TOKEN, name: 'Bench' }).toString(),
  });
  const cookie = /^(cb_inbox=[^;]+)/.exec([signedIn.headers['set-cookie'] ?? []].flat().join('\n'))?.[1];
  if (signedIn.status !== 303 || !cookie)
    throw new Error(`bench:inbox: sign-in answered ${signedIn.status}: ${signedIn.body.slice(0, 500)}`);
  const list = await send(port, '/inbox', { headers: { cookie } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(list.body)?.[1];
  if (!csrf) throw new Error('bench:inbox: no CSRF token on the waiting list');
  return { cookie, csrf };
}

/** Times GET `paths[i % paths.length]`, `requests` of them one after the other (after a few not timed); checks each answer with `ok`. */
export async function timeRequests(
  port: number,
  cookie: string,
  paths: readonly string[],
  ok: (body: string) => boolean,
  requests = REQUESTS,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP_REQUESTS + requests; i++) {
    const path = paths[i % paths.length]!;
    const started = performance.now();
    const response = await send(port, path, { headers: { cookie } });
    const ms = performance.now() - started;
    if (response.status !== 200 || !ok(response.body))
      throw new Error(`bench:inbox: GET ${path} answered ${response.status}: ${response.body.slice(0, 500)}`);
    if (i >= WARMUP_REQUESTS) times.push(ms);
  }
  return times;
}

interface Stream {
  /** When it received its first `event: change` (performance.now()), once it has. */
  changedAt: number | undefined;
  close(): void;
}

/** An inbox page's live stream, as the page's EventSource opens it; resolves once its headers are in. */
function openStream(port: number, cookie: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const stream: Stream = { changedAt: undefined, close: () => req.destroy() };
    const req = request(
      { host: '127.0.0.1', port, path: '/inbox/events', headers: { cookie, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`bench:inbox: /inbox/events answered ${res.statusCode}`));
        let text = '';
        res.on('data', (chunk: Buffer) => {
          if (stream.changedAt !== undefined) return;
          text += chunk.toString();
          if (text.includes('event: change')) stream.changedAt = performance.now();
        });
        res.on('error', () => undefined);
        resolve(stream);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function measure(compiled: boolean): Promise<BenchResult[]> {
  const prefix = `cbbench:inbox:${randomUUID().slice(0, 8)}:`;
  const configFile = join(mkdtempSync(join(tmpdir(), 'cb-bench-inbox-')), 'chatbridge.yaml');
  writeFileSync(configFile, `keyPrefix: "${prefix}"\nconsole: off\nport: 0\nhost: 127.0.0.1\n`);
  const state = new RedisStateStore({ url: REDIS_URL, prefix, connectionName: 'chatbridge-bench' });
  const fake = await startFakeTelegram({ rateLimit: false });
  let gateway: Gateway | undefined;
  const streams: Stream[] = [];
  try {
    const seeding = performance.now();
    await seed(state, Date.now());
    const seededMs = performance.now() - seeding;
    gateway = await startGateway(compiled ? COMPILED : CLI, configFile, {
      REDIS_URL,
      ADMIN_TOKEN,
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
    });
    const { port } = gateway;
    const pid = gateway.child.pid!;
    await sleep(SETTLE_MS);
    const started = memoryMb(pid).rss;
    const { cookie, csrf } = await signIn(port);

    const waiting = `${PAUSED.toLocaleString('en')} conversations are waiting.`;
    const list = await timeRequests(
      port,
      cookie,
      ['/inbox'],
      (body) => body.includes(waiting) && body.includes('User 0 (@user0) on Telegram'),
    );
    const pages = Array.from(
      { length: FULL_TRANSCRIPTS },
      (_, n) => `/inbox/conversations/${encodeURIComponent(formatConversationId(conversationOf(n)))}`,
    );
    const conversation = await timeRequests(
      port,
      cookie,
      pages,
      (body) => body.includes('role="log"') && body.includes('with 5 bedrooms?'),
    );

    await sleep(SETTLE_MS);
    const before = memoryMb(pid).rss;
    // Opened a hundred at a time, as pages opening over a moment.
    for (let i = 0; i < STREAMS; i += 100) {
      streams.push(
        ...(await Promise.all(Array.from({ length: Math.min(100, STREAMS - i) }, () => openStream(port, cookie)))),
      );
    }
    await sleep(SETTLE_MS);
    const withStreams = memoryMb(pid).rss;

    // One change, made as the Claim button makes it, until every open page has heard of it.
    const claimed = performance.now();
    const claim = await send(port, `${pages[0]}/claim`, {
      method: 'POST',
      headers: { cookie, origin: `http://127.0.0.1:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    if (claim.status !== 303)
      throw new Error(`bench:inbox: the claim answered ${claim.status}: ${claim.body.slice(0, 500)}`);
    const deadline = performance.now() + 30_000;
    while (streams.some((stream) => stream.changedAt === undefined)) {
      if (performance.now() > deadline)
        throw new Error(
          `bench:inbox: ${streams.filter((stream) => stream.changedAt === undefined).length} of ${STREAMS} streams never heard of the claim`,
        );
      await sleep(2);
    }
    const heard = streams.map((stream) => stream.changedAt! - claimed);
    const afterChange = memoryMb(pid).rss;

    const gatewayRun = compiled
      ? 'compiled (dist/)'
      : 'bin/chatbridge.js (BENCH_NO_BUILD: the build if newer than every source, else tsx)';
    const how = `${gatewayRun}, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
    const scale = `${PAUSED.toLocaleString('en')} paused conversations (seeded in ${Math.round(seededMs)} ms, pipelined)`;
    return [
      {
        name: 'inbox.list.p50',
        value: round1(percentile(list, 50)),
        unit: 'ms',
        notes: `GET /inbox, signed in, ${scale}: the newest 100 shown in full, the rest counted; ${REQUESTS} requests one after another`,
      },
      {
        name: 'inbox.list.p95',
        value: round1(percentile(list, 95)),
        unit: 'ms',
        notes: `as above; max ${round1(Math.max(...list))} ms`,
      },
      {
        name: 'inbox.conversation.p50',
        value: round1(percentile(conversation, 50)),
        unit: 'ms',
        notes:
          `GET /inbox/conversations/:id with ${DEFAULT_GATEWAY_POLICY.transcriptMaxEntries} transcript entries ` +
          `(the most kept), ${scale}; ${REQUESTS} requests over ${FULL_TRANSCRIPTS} conversations`,
      },
      {
        name: 'inbox.conversation.p95',
        value: round1(percentile(conversation, 95)),
        unit: 'ms',
        notes: `as above; max ${round1(Math.max(...conversation))} ms`,
      },
      {
        name: 'inbox.rss-started',
        value: round1(started),
        unit: 'MB',
        notes: `the gateway process once started, idle, before any inbox request; ${how}`,
      },
      {
        name: 'inbox.sse.rss-before',
        value: round1(before),
        unit: 'MB',
        notes: 'the same process after the timed requests (each list read walks the 10,000 pauses), before the streams',
      },
      {
        name: `inbox.sse.rss-with-${STREAMS}`,
        value: round1(withStreams),
        unit: 'MB',
        notes:
          `with ${STREAMS} open /inbox/events streams (inbox pages): ${round1(((withStreams - before) * 1024) / STREAMS)} KB per stream; ` +
          `${round1(afterChange)} MB once the change was delivered`,
      },
      {
        name: `inbox.sse.change-to-all-${STREAMS}`,
        value: round1(Math.max(...heard)),
        unit: 'ms',
        notes:
          `a claim POSTed to the inbox until the last of ${STREAMS} streams received it (Redis pub/sub, one subscription per process); ` +
          `the first after ${round1(Math.min(...heard))} ms, the median ${round1(percentile(heard, 50))} ms`,
      },
    ];
  } finally {
    for (const stream of streams) stream.close();
    if (gateway) await stopGateway(gateway);
    await fake.close();
    await state.deleteByPrefix();
    await state.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const build = !process.env.BENCH_NO_BUILD;
  if (build) {
    process.stderr.write('bench:inbox: npm run build…\n');
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  }
  return measure(build);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const result of await run())
    process.stdout.write(`${result.name}: ${result.value} ${result.unit} (${result.notes})\n`);
}
