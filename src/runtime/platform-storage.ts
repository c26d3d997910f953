/**
 * An adapter's own durable state (contract `PlatformStorage`) on the gateway's state store,
 * under `platform:<platform>:<bot>:` so that two bots, or two platforms, never share a key.
 */
import type { PlatformStorage } from '../contract.js';
import type { StateStore } from '../state/index.js';

export function platformKeyPrefix(platform: string, bot: string): string {
  return `platform:${platform}:${bot}:`;
}

export function platformStorage(state: StateStore, platform: string, bot: string): PlatformStorage {
  const prefix = platformKeyPrefix(platform, bot);
  const key = (name: string) => prefix + name;
  const lease = (name: string) => key(`lease:${name}`);
  return {
    getBytes: (name) => state.getBytes(key(name)),
    setBytes: (name, value) => state.setBytes(key(name), value),
    exists: async (name) => (await state.ttlMs(key(name))) !== -2,
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
