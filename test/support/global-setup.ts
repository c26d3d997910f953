import { spawn, type ChildProcess } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { freePort } from './net.js';
import { startTestRedisCluster } from '../../fakes/redis-cluster.js';
import { redisAnswers } from './redis-ping.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    /**
     * `host:port,…` of a Redis Cluster's nodes: REDIS_CLUSTER_NODES when given, else a
     * 3-master cluster started here; '' when none could be started (cluster suites skip).
     */
    redisClusterNodes: string;
  }
}

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const answers = (url: string) => redisAnswers(url, 1000);

let spawned: ChildProcess | undefined;

/** A Redis Cluster for the cluster suites: the configured one, or our own; teardown stops ours. */
async function provideCluster(project: TestProject): Promise<() => Promise<void>> {
  const configured = process.env.REDIS_CLUSTER_NODES;
  if (configured) {
    project.provide('redisClusterNodes', configured);
    return async () => undefined;
  }
  try {
    const cluster = await startTestRedisCluster();
    project.provide('redisClusterNodes', cluster.nodes.join(','));
    return () => cluster.close();
  } catch (error) {
    console.warn(`No Redis Cluster for the cluster suites (they are skipped): ${(error as Error).message}`);
    project.provide('redisClusterNodes', '');
    return async () => undefined;
  }
}

/** Real Redis for every test: the configured one, or a private redis-server on a free port; and a Redis Cluster. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stopCluster = await provideCluster(project);
  const configured = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  if (await answers(configured)) {
    project.provide('redisUrl', configured);
    return stopCluster;
  }
  const port = await freePort();
  try {
    spawned = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await new Promise<void>((resolve, reject) => {
      spawned!.once('error', reject);
      setTimeout(resolve, 300);
    });
  } catch {
    await stopCluster();
    throw new Error(
      `No Redis answers at ${configured} and no redis-server binary could be started. ` +
        'Set REDIS_URL to a running Redis, or install one (Debian: apt-get install redis-server).',
    );
  }
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50 && !(await answers(url)); attempt++) await new Promise((r) => setTimeout(r, 100));
  if (!(await answers(url))) throw new Error(`Started redis-server on port ${port} but it does not answer.`);
  project.provide('redisUrl', url);
  return async () => {
    spawned?.kill();
    await stopCluster();
  };
}
