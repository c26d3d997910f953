/**
 * The project's one backoff (src/contract/kit/backoff.ts), used by the adapters and the core:
 * the waits double from the first, never pass the cap (jitter included: "at most 30 s apart"
 * holds), and the retry loop on it stops when told to, with the failure or the stop's reason.
 */
import { describe, expect, it } from 'vitest';
import { backoffDelay, retryWithBackoff, type Backoff } from '../../../src/contract.js';

const PLATFORM: Backoff = { firstMs: 1_000, maxMs: 30_000, jitter: 0.5 };
const EXACT: Backoff = { firstMs: 250, maxMs: 5_000, jitter: 0 };
/** Short enough that a test waits next to nothing between its tries. */
const QUICK: Backoff = { firstMs: 1, maxMs: 4, jitter: 0 };

const lowest = () => 0;
/** Math.random never returns 1: this is as high as jitter goes. */
const highest = () => 0.999_999;

describe('backoffDelay', () => {
  it('doubles from the first wait up to the cap, exactly without jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 100].map((failures) => backoffDelay(failures, EXACT))).toEqual([
      250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000,
    ]);
  });

  it('treats "no failure yet" as the first', () => {
    expect(backoffDelay(0, EXACT)).toBe(250);
  });

  it('lengthens each wait by up to its jitter, never past the cap', () => {
    expect([1, 2, 3].map((failures) => backoffDelay(failures, PLATFORM, lowest))).toEqual([1_000, 2_000, 4_000]);
    expect([1, 2, 3, 5].map((failures) => backoffDelay(failures, PLATFORM, highest))).toEqual([
      1_500, 3_000, 6_000, 24_000,
    ]);
    // 16 s doubled is past the cap: the dice cannot lengthen it any more.
    for (const failures of [6, 10, 1_000]) {
      expect(backoffDelay(failures, PLATFORM, highest)).toBe(30_000);
    }
  });

  it('keeps every wait between the doubled wait and the cap, whatever the dice say', () => {
    for (let failures = 1; failures <= 40; failures++) {
      const doubled = Math.min(PLATFORM.maxMs, PLATFORM.firstMs * 2 ** (failures - 1));
      for (let n = 0; n < 50; n++) {
        const wait = backoffDelay(failures, PLATFORM);
        expect(wait).toBeGreaterThanOrEqual(doubled);
        expect(wait).toBeLessThanOrEqual(PLATFORM.maxMs);
      }
    }
  });
});

describe('retryWithBackoff', () => {
  it('tries again until the call succeeds, telling of each failure with its number', async () => {
    const failures: number[] = [];
    let calls = 0;
    const result = await retryWithBackoff(
      async () => {
        calls++;
        if (calls < 4) throw new Error(`down ${calls}`);
        return 'connected';
      },
      { backoff: QUICK, onFailure: (_error, attempt) => void failures.push(attempt) },
    );
    expect(result).toBe('connected');
    expect(failures).toEqual([1, 2, 3]);
  });

  it('gives up with the failure itself when retryIf says it is not worth another try', async () => {
    const refused = new Error('401 Unauthorized');
    let calls = 0;
    const outcome = retryWithBackoff(
      async () => {
        calls++;
        throw calls === 1 ? new Error('ECONNREFUSED') : refused;
      },
      { backoff: QUICK, retryIf: (error) => error !== refused },
    );
    await expect(outcome).rejects.toBe(refused);
    expect(calls).toBe(2);
  });

  it('waits for onFailure before trying again (a retry_after the platform asked for)', async () => {
    const order: string[] = [];
    let calls = 0;
    await retryWithBackoff(
      async () => {
        order.push(`try ${++calls}`);
        if (calls === 1) throw new Error('429');
      },
      {
        backoff: QUICK,
        onFailure: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          order.push('waited as asked');
        },
      },
    );
    expect(order).toEqual(['try 1', 'waited as asked', 'try 2']);
  });

  it('ends a wait at once when the signal aborts, rejecting with its reason', async () => {
    const stop = new AbortController();
    const reason = new Error('the adapter stopped');
    const outcome = retryWithBackoff(
      async () => {
        throw new Error('unreachable');
      },
      {
        backoff: { firstMs: 3_600_000, maxMs: 3_600_000, jitter: 0 },
        signal: stop.signal,
        onFailure: () => stop.abort(reason),
      },
    );
    await expect(outcome).rejects.toBe(reason);
  });
});
