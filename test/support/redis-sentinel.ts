import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './net.js';

const run = promisify(execFile);

/** The name Sentinel monitors the primary under (`redis.name`). */
export const TEST_SENTINEL_MASTER_NAME = 'cbprimary';

/**
 * A primary, one replica and three Sentinels (quorum 2) of our own on free ports,
 * with a short down-after so a killed primary is replaced within a few seconds.
 */
export interface TestRedisSentinel {
  /** `host:port` of every Sentinel, as `redis.sentinels` takes them. */
  readonly sentinels: string[];
  readonly name: string;
  /** Port of the server that is primary now (asks a Sentinel). */
  primaryPort(): Promise<number>;
  /** SIGKILLs the current primary; Sentinel promotes the replica. */
  killPrimary(): Promise<number>;
  /** Waits until Sentinel names a primary other than `port`, and it accepts writes. */
  waitForFailover(fromPort: number, timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

const DOWN_AFTER_MS = 1000;

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-p', String(port), ...args]);
  return stdout.trim();
}

async function waitFor<T>(what: string, check: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check().catch(() => null);
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`test Redis Sentinel: ${what}`);
}

export async function startTestRedisSentinel(): Promise<TestRedisSentinel> {
  const folder = await mkdtemp(join(tmpdir(), 'cb-sentinel-'));
  const children = new Map<number, ChildProcess>();
  const startServer = (port: number, args: string[]) => {
    const child = spawn('redis-server', args, { stdio: 'ignore', cwd: folder });
    child.once('error', () => undefined);
    children.set(port, child);
  };
  const close = async () => {
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    await rm(folder, { recursive: true, force: true });
  };
  const serverArgs = (port: number) => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    folder,
  ];
  try {
    const primary = await freePort();
    const replica = await freePort();
    startServer(primary, serverArgs(primary));
    startServer(replica, [...serverArgs(replica), '--replicaof', '127.0.0.1', String(primary)]);
    await waitFor(
      'replica never linked',
      async () => (/master_link_status:up/.test(await cli(replica, 'info', 'replication')) ? true : null),
      10_000,
    );
    const sentinelPorts: number[] = [];
    for (let index = 0; index < 3; index++) {
      const port = await freePort();
      const file = join(folder, `sentinel-${port}.conf`);
      // Sentinel rewrites its own config file, so each one needs a writable file of its own.
      await writeFile(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${folder}`,
          `sentinel monitor ${TEST_SENTINEL_MASTER_NAME} 127.0.0.1 ${primary} 2`,
          `sentinel down-after-milliseconds ${TEST_SENTINEL_MASTER_NAME} ${DOWN_AFTER_MS}`,
          `sentinel failover-timeout ${TEST_SENTINEL_MASTER_NAME} 5000`,
          `sentinel parallel-syncs ${TEST_SENTINEL_MASTER_NAME} 1`,
          '',
        ].join('\n'),
      );
      const child = spawn('redis-server', [file, '--sentinel'], { stdio: 'ignore', cwd: folder });
      child.once('error', () => undefined);
      children.set(port, child);
      sentinelPorts.push(port);
    }
    const primaryPort = async () => {
      for (const port of sentinelPorts) {
        const answer = await cli(port, 'sentinel', 'get-master-addr-by-name', TEST_SENTINEL_MASTER_NAME).catch(
          () => '',
        );
        const lines = answer.split('\n');
        if (lines.length === 2) return Number(lines[1]);
      }
      throw new Error('no Sentinel answers');
    };
    await waitFor(
      'Sentinels never saw each other and the replica',
      async () => {
        const info = await cli(sentinelPorts[0]!, 'sentinel', 'master', TEST_SENTINEL_MASTER_NAME);
        const field = (name: string) => Number(new RegExp(`${name}\\n(\\d+)`).exec(info)?.[1] ?? 0);
        return field('num-other-sentinels') >= 2 && field('num-slaves') >= 1 ? true : null;
      },
      15_000,
    );
    return {
      sentinels: sentinelPorts.map((port) => `127.0.0.1:${port}`),
      name: TEST_SENTINEL_MASTER_NAME,
      primaryPort,
      async killPrimary() {
        const port = await primaryPort();
        const child = children.get(port);
        if (child && child.exitCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          await exited;
        }
        return port;
      },
      waitForFailover: (fromPort, timeoutMs = 30_000) =>
        waitFor(
          `no failover away from port ${fromPort}`,
          async () => {
            const port = await primaryPort();
            if (port === fromPort) return null;
            return /role:master/.test(await cli(port, 'info', 'replication')) ? port : null;
          },
          timeoutMs,
        ),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
