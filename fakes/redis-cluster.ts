import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServer } from 'node:net';

const run = promisify(execFile);

/** Masters in the test cluster: the smallest real cluster (`redis-cli --cluster create` refuses fewer than 3). */
export const TEST_CLUSTER_MASTERS = 3;

/**
 * A Redis Cluster of our own on free ports: real `redis-server --cluster-enabled yes`
 * processes joined by `redis-cli --cluster create`, so slot rules (CROSSSLOT, MOVED)
 * are the server's, not ours. Not a fake of anything: it sits in fakes/ beside the platform
 * fakes because tests and benchmarks share it the same way.
 */
export interface TestRedisCluster {
  /** `host:port` of every master, as REDIS_CLUSTER_NODES takes them. */
  readonly nodes: string[];
  /** Kills every node and removes their folder. */
  close(): Promise<void>;
}

/** A port that is free and whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await listenOnce(0);
    if (port > 55_535 || taken.has(port)) continue;
    if ((await listenOnce(port + 10_000).catch(() => null)) === null) continue;
    taken.add(port);
    return port;
  }
  throw new Error('no free port pair (port and port + 10000) for a Redis Cluster node');
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function clusterState(port: number): Promise<string> {
  try {
    const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
    return /cluster_state:(\w+)/.exec(stdout)?.[1] ?? 'unknown';
  } catch {
    return 'unreachable';
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, attempts = 200): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`test Redis Cluster: ${what}`);
}

export async function startTestRedisCluster(): Promise<TestRedisCluster> {
  const folder = await mkdtemp(join(tmpdir(), 'cb-cluster-'));
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let index = 0; index < TEST_CLUSTER_MASTERS; index++) ports.push(await freeClusterPort(taken));
  const children: ChildProcess[] = ports.map((port) => {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '2000',
        '--dir',
        folder,
      ],
      { stdio: 'ignore' },
    );
    child.once('error', () => undefined);
    return child;
  });
  const close = async () => {
    await Promise.all(
      children.map(
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
  try {
    for (const port of ports)
      await waitFor(
        `node ${port} did not start (is redis-server installed?)`,
        async () => (await clusterState(port)) !== 'unreachable',
      );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const port of ports)
      await waitFor(`node ${port} never reported cluster_state:ok`, async () => (await clusterState(port)) === 'ok');
  } catch (error) {
    await close();
    throw error;
  }
  return { nodes: ports.map((port) => `127.0.0.1:${port}`), close };
}
