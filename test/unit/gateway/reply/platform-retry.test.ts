import { describe, expect, it } from 'vitest';
import { retryPlatformCall, type PlatformRetryPolicy } from '../../../../src/gateway/reply/platform-retry.js';
import { PlatformError } from '../../../../src/contract.js';

const policy: PlatformRetryPolicy = { rateLimitAttempts: 3, rateLimitBudgetMs: 1_000, outageHorizonMs: 60_000 };

/** A call that fails with `failures` in order, then answers 'sent'. */
function scripted(failures: PlatformError[]) {
  let calls = 0;
  return {
    call: async () => {
      const failure = failures[calls++];
      if (failure) throw failure;
      return 'sent';
    },
    calls: () => calls,
  };
}

const rateLimited = (ms: number) => new PlatformError('429', 'rate-limited', ms);
const unreachable = () => new PlatformError('ECONNREFUSED', 'unreachable');

describe('retryPlatformCall', () => {
  it('waits out 429s within the tries and budget, and counts each', async () => {
    const seen: number[] = [];
    const { call, calls } = scripted([rateLimited(10), rateLimited(20)]);
    await expect(
      retryPlatformCall(call, { policy, onRateLimited: (error) => seen.push(error.retryAfterMs!) }),
    ).resolves.toBe('sent');
    expect(calls()).toBe(3);
    expect(seen).toEqual([10, 20]);
  });

  it('gives up on 429s past the tries, or past the budget, with the 429', async () => {
    await expect(
      retryPlatformCall(scripted([rateLimited(1), rateLimited(1), rateLimited(1)]).call, { policy }),
    ).rejects.toMatchObject({ kind: 'rate-limited' });
    const overBudget = scripted([rateLimited(2_000)]);
    await expect(retryPlatformCall(overBudget.call, { policy })).rejects.toMatchObject({ kind: 'rate-limited' });
    expect(overBudget.calls()).toBe(1);
  });

  it('tries again while the platform is unreachable, however many times, within the horizon', async () => {
    const attempts: number[] = [];
    const { call, calls } = scripted([unreachable(), unreachable()]);
    await expect(
      retryPlatformCall(call, { policy, onUnreachable: (_error, attempt) => attempts.push(attempt) }),
    ).resolves.toBe('sent');
    expect(calls()).toBe(3);
    expect(attempts).toEqual([1, 2]);
  }, 20_000);

  it('gives up at once on an unreachable platform with a horizon of 0, and on any refusal', async () => {
    await expect(
      retryPlatformCall(scripted([unreachable()]).call, { policy: { ...policy, outageHorizonMs: 0 } }),
    ).rejects.toMatchObject({ kind: 'unreachable' });
    const refused = scripted([new PlatformError('blocked', 'other')]);
    await expect(retryPlatformCall(refused.call, { policy })).rejects.toMatchObject({ kind: 'other' });
    expect(refused.calls()).toBe(1);
  });

  it('stops waiting when the signal aborts, with the platform error', async () => {
    const controller = new AbortController();
    const pending = retryPlatformCall(scripted([unreachable(), unreachable()]).call, {
      policy,
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'unreachable' });
  });
});
