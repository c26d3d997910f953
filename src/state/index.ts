import { MemoryStateStore } from './memory.js';
import { RedisStateStore } from './redis/store.js';
import type { RedisTopology } from './redis/topology.js';
import type { StateStore } from './types.js';

export type {
  AtomicCommand,
  AtomicCommandOf,
  AtomicResult,
  AtomicResults,
  ClaimHeadCommand,
  ConversationQueueKeys,
  HashCompareResult,
  HeadClaim,
  LegacyQueueKeys,
  QueueAdvanceOptions,
  QueueAdvanceResult,
  QueueClaim,
  QueueOfferOptions,
  QueueOfferResult,
  StateStore,
} from './types.js';
export { DEFAULT_KEY_PREFIX } from './types.js';
export { MemoryStateStore } from './memory.js';
export { RedisStateStore, type RedisStateOptions } from './redis/store.js';
export { isSupportedRedisVersion, MIN_REDIS_VERSION } from './redis/version.js';
export {
  describeTopology,
  formatEndpoint,
  parseEndpoint,
  type RedisAuth,
  type RedisEndpoint,
  type RedisTopology,
} from './redis/topology.js';

export interface CreateStateStoreOptions {
  /** How to reach Redis (src/config/redis.ts redisTopology); unset = in memory. */
  topology?: RedisTopology | undefined;
  /** Shorthand for a single-server topology (kept for callers with only a URL). */
  redisUrl?: string | undefined;
  prefix?: string;
  onConnectionError?: (error: Error) => void;
  /** Refuse atomic steps whose keys span hash slots (see RedisStateOptions.checkSlots). */
  checkSlots?: boolean;
}

/**
 * Redis when a topology (or URL) is configured, otherwise the in-memory store. The caller
 * logs the memory store's warning (state lost on restart, not shared between replicas).
 */
export function createStateStore(options: CreateStateStoreOptions): StateStore {
  const topology =
    options.topology ?? (options.redisUrl ? { kind: 'single' as const, url: options.redisUrl } : undefined);
  if (topology) {
    return new RedisStateStore({
      topology,
      ...(options.prefix ? { prefix: options.prefix } : {}),
      ...(options.onConnectionError ? { onConnectionError: options.onConnectionError } : {}),
      ...(options.checkSlots !== undefined ? { checkSlots: options.checkSlots } : {}),
    });
  }
  return new MemoryStateStore({
    ...(options.prefix ? { prefix: options.prefix } : {}),
    ...(options.checkSlots !== undefined ? { checkSlots: options.checkSlots } : {}),
  });
}
export { NamedBatch, type BatchRead, type BatchResults } from './named-batch.js';
