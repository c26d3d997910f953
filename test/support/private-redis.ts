import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './net.js';
import { redisAnswers } from './redis-ping.js';

/**
 * A redis-server of the test's own, on a free port, that the test may stop,
 * restart, freeze (SIGSTOP: connections stay open, nothing answers) and thaw.
 * Never use the shared test Redis for outages: other test files run against it.
 */
export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  /** Kills the server; with `persist: false` (the default) every key is gone when it restarts. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** SIGSTOP: the port still accepts connections but no command is answered. */
  freeze(): void;
  /** SIGCONT after freeze(). */
  thaw(): void;
  /** Kills it for good. */
  close(): Promise<void>;
}

const answers = (url: string) => redisAnswers(url, 500);

export interface PrivateRedisOptions {
  /**
   * Keep every key across stop() and start(), as a production Redis with an append-only file
   * fsynced on every write does (stop() kills it without a chance to save). Default false.
   */
  persist?: boolean;
}

export async function startPrivateRedis(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const dataDir = options.persist ? mkdtempSync(join(tmpdir(), 'cb-redis-')) : undefined;
  const persistence = dataDir
    ? ['--dir', dataDir, '--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];

  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence], {
      stdio: 'ignore',
    });
    child.once('error', () => undefined);
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await answers(url)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`a private redis-server on port ${port} did not answer (is redis-server installed?)`);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    running.kill('SIGCONT');
    running.kill('SIGKILL');
    await new Promise((resolve) => running.once('exit', resolve));
  };
  await start();
  return {
    url,
    port,
    start,
    stop,
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    close: async () => {
      await stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
