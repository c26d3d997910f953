/**
 * An adapter's own durable state (contract `PlatformStorage`) on the gateway's state store,
 * under `platform:<platform>:<bot>:` so that two bots, or two platforms, never share a key.
 * Every operation touches one key (a lease is one key and one script), so it runs on a Redis
 * Cluster as it is; these keys need no hash tag. A step over two keys would need one.
 */
import type { PlatformStorage } from '../contract.js';
import { SESSION_IDLE_TTL_MS } from '../gateway/index.js';
import type { StateStore } from '../state/index.js';

export function platformKeyPrefix(platform: string, bot: string): string {
  return `platform:${platform}:${bot}:`;
}

/** `conversationIdleTtlMs`: gateway.sessionIdleTtlMs when configured (the gateway's default otherwise). */
export function platformStorage(
  state: StateStore,
  platform: string,
  bot: string,
  options: { conversationIdleTtlMs?: number | undefined } = {},
): PlatformStorage {
  const prefix = platformKeyPrefix(platform, bot);
  const key = (name: string) => prefix + name;
  const lease = (name: string) => key(`lease:${name}`);
  return {
    getBytes: (name) => state.getBytes(key(name)),
    setBytes: (name, value, options) => state.setBytes(key(name), value, options),
    exists: async (name) => (await state.ttlMs(key(name))) !== -2,
    renew: (name, ttlMs) => state.expire(key(name), ttlMs),
    conversationIdleTtlMs: options.conversationIdleTtlMs ?? SESSION_IDLE_TTL_MS,
    delete: async (name) => {
      await state.del(key(name));
    },
    acquireLease: (name, ttlMs) => state.acquireLock(lease(name), ttlMs),
    renewLease: (name, token, ttlMs) => state.extendLock(lease(name), token, ttlMs),
    releaseLease: async (name, token) => {
      await state.releaseLock(lease(name), token);
    },
  };
}
