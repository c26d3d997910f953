/**
 * What /readyz checks: the state store answers, and every platform adapter is
 * connected. A load balancer or orchestrator asks often and gives up soon, so a
 * check never waits longer than a short deadline: a frozen Redis (the port open,
 * nothing answering) is reported, not waited for.
 */
import type { Adapter } from '../gateway/index.js';
import type { StateStore } from '../state/index.js';

/**
 * A healthy Redis answers PING in about a millisecond; 1.5 s leaves room for a busy
 * one and still answers before the usual probe timeouts (Kubernetes: 1 s default,
 * commonly raised to 2-5 s). Past it, /readyz answers 503 instead of hanging.
 */
export const STATE_PING_TIMEOUT_MS = 1_500;

/** Rejects with `message` when `promise` has not settled within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function checkState(state: StateStore, setting: string): Promise<void> {
  const waited = `${STATE_PING_TIMEOUT_MS / 1000} s`;
  try {
    await within(state.ping(), STATE_PING_TIMEOUT_MS, `no answer to PING within ${waited}`);
  } catch (error) {
    throw new Error(`Redis at ${setting} is not answering: ${(error as Error).message}`, { cause: error });
  }
}

/** The adapters that are not connected (and not waiting by design: AdapterStatus.waiting), as "telegram:main not connected: <why>". */
export function unconnectedAdapters(adapters: readonly Adapter[]): string[] {
  const reasons: string[] = [];
  for (const adapter of adapters) {
    const status = adapter.status?.();
    if (!status || status.connected || status.waiting) continue;
    reasons.push(`${adapter.platform}:${adapter.bot} not connected${status.reason ? `: ${status.reason}` : ''}`);
  }
  return reasons;
}

/** The /readyz check: resolves when ready, rejects with every reason it is not. */
/** `redisSetting`: the setting that named the Redis (REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS), for the reason. */
export function readinessCheck(
  state: StateStore,
  adapters: readonly Adapter[],
  redisSetting = 'REDIS_URL (redisUrl)',
): () => Promise<void> {
  return async () => {
    const reasons = unconnectedAdapters(adapters);
    await checkState(state, redisSetting).catch((error: Error) => reasons.unshift(error.message));
    if (reasons.length > 0) throw new Error(reasons.join('; '));
  };
}
