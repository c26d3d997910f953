/**
 * The one Redis of the peers benchmark: by default a redis-server of its own on a
 * free port (no other traffic in its counts, FLUSHALL between contenders), or
 * the one given with --redis-url (then other clients' commands are counted too).
 *
 * Two server-side counts per run:
 * - commands: the sum of `calls` in INFO commandstats after CONFIG RESETSTAT,
 *   every command counted: MULTI and EXEC themselves (each costs the client a command to
 *   encode and a reply to parse, as an independent harness counted them), those inside
 *   MULTI…EXEC and those a Lua script calls (INFO, CONFIG, MONITOR left out: the bench's own);
 * - commands sent: from MONITOR, every command a client sent (MULTI and EXEC included, the
 *   commands a script calls not): what the client encodes and whose reply it parses;
 * - round trips, from MONITOR, per client connection: MULTI…EXEC once, EVAL/EVALSHA once, any
 *   other command once. A pipeline without MULTI looks like as many round trips as it has
 *   commands: chatbridge's are counted in its process instead (count-redis-requests.cjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface BenchRedis {
  readonly url: string;
  /** Empties it and zeroes its counters (before a contender starts). */
  flush(): Promise<void>;
  /** Zeroes the counters and starts counting round trips. */
  startCounting(): Promise<void>;
  /** Stops counting; what was counted since startCounting. */
  stopCounting(): Promise<{ commands: number; sent: number; roundTrips: number; byCommand: Map<string, number> }>;
  /** used_memory in bytes. */
  usedMemory(): Promise<number>;
  close(): Promise<void>;
}

const NOT_COUNTED = new Set(['info', 'config', 'monitor', 'flushall', 'ping']);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function startRedisServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  child.once('error', () => undefined);
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // A refused connection while the server starts is expected: connect() rejects, and the event needs no report.
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return { url, child };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
  child.kill('SIGKILL');
  throw new Error(`bench:peers: redis-server on port ${port} did not answer; install redis-server or pass --redis-url`);
}

function parseCommandStats(info: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1]!, Number(match[2]));
  return calls;
}

export async function openBenchRedis(givenUrl: string | undefined): Promise<BenchRedis> {
  const own = givenUrl ? undefined : await startRedisServer();
  const url = givenUrl ?? own!.url;
  const admin = new Redis(url, { maxRetriesPerRequest: 1 });
  let monitor: Awaited<ReturnType<Redis['monitor']>> | undefined;
  let sent = 0;
  let roundTrips = 0;
  const inTransaction = new Set<string>();

  return {
    url,
    async flush() {
      if (own) await admin.flushall();
      await admin.config('RESETSTAT');
    },
    async startCounting() {
      sent = 0;
      roundTrips = 0;
      inTransaction.clear();
      monitor = await admin.duplicate().monitor();
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        const name = String(args[0] ?? '').toLowerCase();
        if (source === 'lua' || NOT_COUNTED.has(name)) return;
        sent++;
        if (name === 'multi') {
          inTransaction.add(source);
          roundTrips++;
        } else if (name === 'exec' || name === 'discard') {
          inTransaction.delete(source);
        } else if (!inTransaction.has(source)) {
          roundTrips++;
        }
      });
      await admin.config('RESETSTAT');
    },
    async stopCounting() {
      const stats = parseCommandStats(await admin.info('commandstats'));
      monitor?.disconnect();
      monitor = undefined;
      let commands = 0;
      const byCommand = new Map<string, number>();
      for (const [name, calls] of stats) {
        if (NOT_COUNTED.has(name.split('|')[0]!)) continue;
        commands += calls;
        byCommand.set(name, calls);
      }
      return { commands, sent, roundTrips, byCommand };
    },
    usedMemory: async () => Number(/^used_memory:(\d+)/m.exec(await admin.info('memory'))?.[1] ?? Number.NaN),
    async close() {
      monitor?.disconnect();
      admin.disconnect();
      if (own) {
        own.child.kill('SIGKILL');
        await new Promise((resolve) => own.child.once('exit', resolve));
      }
    },
  };
}
