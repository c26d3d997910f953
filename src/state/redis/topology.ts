/**
 * How the Redis store reaches Redis: one server (a URL), a Redis Cluster, or a primary
 * found through Sentinel. The configuration (src/config/redis.ts) picks one; the store
 * (store.ts) opens the matching ioredis client.
 */

/** Credentials and TLS for cluster nodes and Sentinel-managed servers (a URL carries its own). */
export interface RedisAuth {
  /** ACL user (Redis ≥ 6); unset = the default user. */
  username?: string;
  password?: string;
  /** Connect with TLS (managed Redis/Valkey). */
  tls?: boolean;
}

export interface RedisEndpoint {
  host: string;
  port: number;
}

export type RedisTopology =
  /** `redis://` or `rediss://` (TLS), `user:pass@` for an ACL user: given to ioredis as it is. */
  | { kind: 'single'; url: string }
  | ({ kind: 'cluster'; nodes: RedisEndpoint[] } & RedisAuth)
  | ({ kind: 'sentinel'; sentinels: RedisEndpoint[]; name: string } & RedisAuth);

/** `host:port` (IPv6 as `[::1]:6379`); null when it is not one. */
export function parseEndpoint(text: string): RedisEndpoint | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]/]+)):(\d{1,5})$/.exec(text.trim());
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) return null;
  return { host: (match[1] ?? match[2])!, port };
}

export function formatEndpoint({ host, port }: RedisEndpoint): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The topology in words, for logs and `chatbridge doctor`: never a password. */
export function describeTopology(topology: RedisTopology): string {
  switch (topology.kind) {
    case 'single': {
      const url = safeUrl(topology.url);
      return `Redis at ${url}`;
    }
    case 'cluster':
      return `Redis Cluster (seed nodes ${topology.nodes.map(formatEndpoint).join(', ')}${authWords(topology)})`;
    case 'sentinel':
      return `Redis Sentinel "${topology.name}" (Sentinels ${topology.sentinels.map(formatEndpoint).join(', ')}${authWords(topology)})`;
  }
}

function authWords(auth: RedisAuth): string {
  const words = [auth.username ? `user ${auth.username}` : '', auth.tls ? 'TLS' : ''].filter(Boolean);
  return words.length > 0 ? `; ${words.join(', ')}` : '';
}

/** The URL without its password (the user name stays: it says which ACL user is used). */
function safeUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password) url.password = '***';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(an unparsable URL)';
  }
}
