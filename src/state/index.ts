import { MemoryStateStore } from './memory.js';
import { RedisStateStore } from './redis.js';
import type { StateStore } from './types.js';

export type {
  AtomicCommand, ConversationQueueKeys, HeadClaim, QueueAdvanceOptions, QueueAdvanceResult, QueueClaim, QueueOfferOptions, QueueOfferResult, StateStore,
} from './types.js';
export { DEFAULT_KEY_PREFIX } from './types.js';
export { MemoryStateStore } from './memory.js';
export { RedisStateStore } from './redis.js';

/**
 * Redis when a URL is configured, otherwise the in-memory store. The caller logs
 * the memory store's warning (state lost on restart, not shared between replicas).
 */
export function createStateStore(options: { redisUrl?: string | undefined; prefix?: string; onConnectionError?: (error: Error) => void }): StateStore {
  if (options.redisUrl) {
    return new RedisStateStore({
      url: options.redisUrl,
      ...(options.prefix ? { prefix: options.prefix } : {}),
      ...(options.onConnectionError ? { onConnectionError: options.onConnectionError } : {}),
    });
  }
  return new MemoryStateStore(options.prefix ? { prefix: options.prefix } : {});
}
