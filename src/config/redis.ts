/**
 * Which Redis the configuration points at. Precedence, most specific first: a cluster
 * (REDIS_CLUSTER_NODES / redis.cluster.nodes), then Sentinel (REDIS_SENTINELS /
 * redis.sentinels), then one server (REDIS_URL / redisUrl); none = in-memory state.
 */
import { parseEndpoint, type RedisAuth, type RedisEndpoint, type RedisTopology } from '../state/index.js';
import type { Config } from './schema.js';

/** The topology to connect to; undefined when no Redis is configured. */
export function redisTopology(config: Pick<Config, 'redis' | 'redisUrl'>): RedisTopology | undefined {
  const { redis } = config;
  const auth: RedisAuth = {
    ...(redis.username ? { username: redis.username } : {}),
    ...(redis.password ? { password: redis.password } : {}),
    ...(redis.tls ? { tls: true } : {}),
  };
  if (redis.cluster) return { kind: 'cluster', nodes: endpoints(redis.cluster.nodes), ...auth };
  if (redis.sentinels)
    return { kind: 'sentinel', sentinels: endpoints(redis.sentinels), name: redis.name ?? '', ...auth };
  if (config.redisUrl) return { kind: 'single', url: config.redisUrl };
  return undefined;
}

/** The setting an operator changes to fix the connection, for error messages ("REDIS_URL (redisUrl)"). */
export function redisSetting(topology: RedisTopology | undefined): string {
  switch (topology?.kind) {
    case 'cluster':
      return 'REDIS_CLUSTER_NODES (redis.cluster.nodes)';
    case 'sentinel':
      return 'REDIS_SENTINELS (redis.sentinels)';
    default:
      return 'REDIS_URL (redisUrl)';
  }
}

function endpoints(list: readonly string[]): RedisEndpoint[] {
  return list.map((text) => {
    const endpoint = parseEndpoint(text);
    // The schema has refused anything else; a config built by hand gets the same words.
    if (!endpoint) throw new Error(`${JSON.stringify(text)} is not host:port`);
    return endpoint;
  });
}
