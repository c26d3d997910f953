import { RedisStateStore } from '../../src/state/index.js';
import type { BenchResult } from './result.js';

/**
 * Runs a suite's parts: all of them, or only those named in the environment variable
 * `onlyVariable` (comma-separated keys of `parts`, e.g. to profile one), then `cleanUp`.
 */
export async function runParts(
  parts: Record<string, () => Promise<BenchResult[]>>,
  onlyVariable: string,
  cleanUp: () => Promise<void>,
): Promise<BenchResult[]> {
  const only = process.env[onlyVariable]
    ?.split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const results: BenchResult[] = [];
  try {
    for (const [part, measure] of Object.entries(parts))
      if (!only?.length || only.includes(part)) results.push(...(await measure()));
  } finally {
    await cleanUp();
  }
  return results;
}

/** A suite's clean-up: deletes every key it wrote under its own prefix. */
export function deletePrefix(redisUrl: string, prefix: string): () => Promise<void> {
  return async () => {
    const store = new RedisStateStore({ url: redisUrl, prefix });
    try {
      await store.deleteByPrefix();
    } finally {
      await store.close();
    }
  };
}
