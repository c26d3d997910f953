/**
 * A Redis of the bench's own: `redis-server` started on a free port with no persistence, stopped at the end, so
 * that a bench may fill it with a million conversations and FLUSHALL it without touching the Redis others share.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/** Debian's; REDIS_SERVER names another. */
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export interface PrivateRedis {
  port: number;
  url: string;
  /** The redis-server process (its CPU is read from /proc). */
  pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  // A refused connection while redis-server starts is expected: the loop tries again.
  probe.on('error', () => undefined);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bench: ${REDIS_SERVER} exited with ${child.exitCode}: ${log}`);
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch {
      probe.disconnect();
      if (Date.now() > deadline) throw new Error(`bench: ${REDIS_SERVER} did not answer on port ${port}: ${log}`);
      await sleep(50);
    }
  }
  probe.disconnect();
  return {
    port,
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
