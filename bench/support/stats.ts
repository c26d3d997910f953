/** Small statistics helpers for the benchmarks. */

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export const round1 = (value: number): number => Math.round(value * 10) / 10;

/** High-resolution wall clock in ms since the epoch, shared by the fakes and the bench. */
export const clock = (): number => performance.timeOrigin + performance.now();

/** Polls `done` every `everyMs` until it holds; rejects after `timeoutMs` with `what`. */
export async function until(done: () => boolean, what: string, timeoutMs: number, everyMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
