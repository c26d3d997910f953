import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSecrets, loadConfig, redisSetting, redisTopology } from '../../../src/config/index.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';
import { describeTopology } from '../../../src/state/index.js';

const load = (env: Record<string, string>, yaml?: string) => {
  let file: string | undefined;
  if (yaml !== undefined) {
    file = join(mkdtempSync(join(tmpdir(), 'cb-redis-config-')), 'config.yaml');
    writeFileSync(file, yaml);
  }
  return loadConfig({ platforms: PLATFORMS, env, ...(file ? { file } : {}) });
};

function problems(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('Redis topology configuration', () => {
  it('keeps state in memory when no Redis is configured', () => {
    expect(redisTopology(load({}))).toBeUndefined();
  });

  it('connects to one server by REDIS_URL, TLS and ACL user in the URL as they are', () => {
    const topology = redisTopology(load({ REDIS_URL: 'rediss://app:s3cret@redis.example:6380/0' }));
    expect(topology).toEqual({ kind: 'single', url: 'rediss://app:s3cret@redis.example:6380/0' });
    expect(redisSetting(topology)).toBe('REDIS_URL (redisUrl)');
    expect(describeTopology(topology!)).toBe('Redis at rediss://app:***@redis.example:6380/0');
  });

  it('takes a cluster from REDIS_CLUSTER_NODES over Sentinel and REDIS_URL, with credentials and TLS', () => {
    const config = load({
      REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7001,[::1]:7002',
      REDIS_SENTINELS: '10.0.0.9:26379',
      REDIS_SENTINEL_NAME: 'primary',
      REDIS_URL: 'redis://10.0.0.5:6379',
      REDIS_USERNAME: 'chatbridge',
      REDIS_PASSWORD: 'cluster-pass',
      REDIS_TLS: 'true',
    });
    const topology = redisTopology(config);
    expect(topology).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: 'chatbridge',
      password: 'cluster-pass',
      tls: true,
    });
    expect(redisSetting(topology)).toBe('REDIS_CLUSTER_NODES (redis.cluster.nodes)');
    const described = describeTopology(topology!);
    expect(described).toBe('Redis Cluster (seed nodes 10.0.0.1:7000, 10.0.0.2:7001, [::1]:7002; user chatbridge, TLS)');
    expect(configSecrets(config, PLATFORMS)).toContain('cluster-pass');
  });

  it('takes Sentinel from the file over REDIS_URL', () => {
    const config = load(
      { REDIS_URL: 'redis://10.0.0.5:6379' },
      'redis:\n  sentinels: [s1.example:26379, s2.example:26379]\n  name: mymaster\n  password: pw-in-file\n',
    );
    expect(redisTopology(config)).toEqual({
      kind: 'sentinel',
      name: 'mymaster',
      password: 'pw-in-file',
      sentinels: [
        { host: 's1.example', port: 26379 },
        { host: 's2.example', port: 26379 },
      ],
    });
    expect(redisSetting(redisTopology(config))).toBe('REDIS_SENTINELS (redis.sentinels)');
    expect(configSecrets(config, PLATFORMS)).toContain('pw-in-file');
  });

  it('names the variable and the value of a node that is not host:port', () => {
    expect(problems(() => load({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,foo' }))).toEqual([
      'REDIS_CLUSTER_NODES (redis.cluster.nodes.1): "foo" is not host:port',
    ]);
    expect(problems(() => load({ REDIS_SENTINELS: '10.0.0.1:99999', REDIS_SENTINEL_NAME: 'm' }))).toEqual([
      'REDIS_SENTINELS (redis.sentinels.0): "10.0.0.1:99999" is not host:port',
    ]);
  });

  it('names the path of a bad node in the file', () => {
    expect(problems(() => load({}, 'redis:\n  cluster:\n    nodes: ["redis://10.0.0.1:7000"]\n'))).toEqual([
      'redis.cluster.nodes.0: "redis://10.0.0.1:7000" is not host:port',
    ]);
  });

  it('asks for the Sentinel name when Sentinels are given without one', () => {
    const [problem, ...rest] = problems(() => load({ REDIS_SENTINELS: '10.0.0.1:26379' }));
    expect(rest).toEqual([]);
    expect(problem).toMatch(/^redis\.name: required with redis\.sentinels.*\(REDIS_SENTINEL_NAME\)$/);
  });

  it('names REDIS_TLS when it is not a yes or no', () => {
    const [problem] = problems(() => load({ REDIS_CLUSTER_NODES: '10.0.0.1:7000', REDIS_TLS: 'maybe' }));
    expect(problem).toMatch(/^REDIS_TLS \(redis\.tls\): /);
  });
});
