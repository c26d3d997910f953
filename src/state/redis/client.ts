/** Opening the ioredis connection of a topology: one server, a Sentinel-managed primary, or a Cluster. */
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisTopology } from './topology.js';

/** Options every connection gets; a cluster passes them to each node's connection. */
function connectionOptions(connectionName: string): RedisOptions {
  return { connectionName, maxRetriesPerRequest: 3, enableAutoPipelining: true };
}

export function openClient(topology: RedisTopology, connectionName: string): Redis | Cluster {
  switch (topology.kind) {
    case 'single':
      return new Redis(topology.url, connectionOptions(connectionName));
    case 'sentinel':
      return new Redis({
        ...connectionOptions(connectionName),
        sentinels: topology.sentinels,
        name: topology.name,
        ...credentials(topology),
        ...(topology.tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
        // Follows Sentinel's +switch-master at once instead of finding out on the next failed command.
        failoverDetector: true,
      });
    case 'cluster': {
      const options: ClusterOptions = {
        enableAutoPipelining: true,
        // Reads go to masters: a replica may lag behind a write this process just made.
        scaleReads: 'master',
        redisOptions: {
          ...connectionOptions(connectionName),
          ...credentials(topology),
          ...(topology.tls ? { tls: {} } : {}),
        },
        // With TLS the certificate names the host as given, not the IP a lookup returns (managed clusters).
        ...(topology.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
      };
      return new Cluster(topology.nodes, options);
    }
  }
}

function credentials(auth: { username?: string; password?: string }): { username?: string; password?: string } {
  return {
    ...(auth.username ? { username: auth.username } : {}),
    ...(auth.password ? { password: auth.password } : {}),
  };
}
