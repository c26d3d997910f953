/**
 * Staying connected to a platform (StayConnected in the contract's kit), as Telegram and
 * Slack do at start: a refusal fails start() with what to fix; an unreachable platform does
 * not hold start() up, status() says why the bot is not connected, and the tries go on until
 * the platform answers, refuses, or the adapter stops.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectRefusedError, StayConnected, type Backoff, type StayConnectedOptions } from '../../../src/contract.js';

/** Short enough that a test waits next to nothing between its tries. */
const QUICK: Backoff = { firstMs: 1, maxMs: 4, jitter: 0 };

const unreachable = () => new Error('connect ECONNREFUSED 127.0.0.1:9');
const refused = () => new ConnectRefusedError('the platform refused the token of bot "main": check its token');

/** A platform that answers each try with the next outcome given ('ok' = connected); the last one repeats. */
function platform(outcomes: ('ok' | Error)[]) {
  let tries = 0;
  return {
    attempt: async () => {
      const outcome = outcomes[Math.min(tries++, outcomes.length - 1)];
      if (outcome !== 'ok') throw outcome;
    },
    tries: () => tries,
  };
}

const running: StayConnected[] = [];
afterEach(() => {
  for (const link of running.splice(0)) link.stop();
});

function connection(options: StayConnectedOptions): StayConnected {
  const link = new StayConnected({ backoff: QUICK, ...options });
  running.push(link);
  return link;
}

/** Resolves once `onConnectedLater` ran. */
function connectedLater(): { called: Promise<void>; callback(): void } {
  let callback = (): void => undefined;
  const called = new Promise<void>((resolve) => {
    callback = resolve;
  });
  return { called, callback: () => callback() };
}

describe('StayConnected', () => {
  it('says not started before start(), connected once the first try answers', async () => {
    const link = connection({ attempt: platform(['ok']).attempt });
    expect(link.status()).toEqual({ connected: false, reason: 'not started' });
    expect(await link.start(() => undefined)).toBe(true);
    expect(link.status()).toEqual({ connected: true });
  });

  it('fails start() with the refusal and its words, and tries no more', async () => {
    const remote = platform([refused()]);
    const link = connection({ attempt: remote.attempt });
    await expect(link.start(() => undefined)).rejects.toThrow(
      'the platform refused the token of bot "main": check its token',
    );
    expect(link.status()).toEqual({
      connected: false,
      reason: 'the platform refused the token of bot "main": check its token',
    });
    expect(remote.tries()).toBe(1);
  });

  it('does not hold start() up while the platform is unreachable, says why, and connects in the background', async () => {
    const remote = platform([unreachable(), unreachable(), 'ok']);
    const retried: { attempt: number; reason: string }[] = [];
    const later = connectedLater();
    const link = connection({
      attempt: remote.attempt,
      describe: (error) => `no answer (${(error as Error).message})`,
      onRetry: (_error, attempt, reason) => void retried.push({ attempt, reason }),
    });
    expect(await link.start(later.callback)).toBe(false);
    expect(link.status()).toMatchObject({ connected: false, reason: 'no answer (connect ECONNREFUSED 127.0.0.1:9)' });
    await later.called;
    expect(link.status()).toEqual({ connected: true });
    expect(retried).toEqual([
      { attempt: 1, reason: 'no answer (connect ECONNREFUSED 127.0.0.1:9)' },
      { attempt: 2, reason: 'no answer (connect ECONNREFUSED 127.0.0.1:9)' },
    ]);
  });

  it('stays offline, and says so, when the platform refuses after start() resolved', async () => {
    const remote = platform([unreachable(), refused()]);
    let refusedLater: ConnectRefusedError | undefined;
    const link = connection({ attempt: remote.attempt, onRefusedLater: (error) => void (refusedLater = error) });
    let connected = false;
    expect(await link.start(() => void (connected = true))).toBe(false);
    await expect
      .poll(() => refusedLater?.message)
      .toBe('the platform refused the token of bot "main": check its token');
    expect(link.status()).toMatchObject({
      connected: false,
      reason: 'the platform refused the token of bot "main": check its token',
    });
    expect(connected).toBe(false);
  });

  it('stops trying at stop(): no connection comes after it', async () => {
    const remote = platform([unreachable()]);
    let connected = false;
    const link = connection({ attempt: remote.attempt, backoff: { firstMs: 3_600_000, maxMs: 3_600_000, jitter: 0 } });
    expect(await link.start(() => void (connected = true))).toBe(false);
    link.stop();
    expect(link.status()).toEqual({ connected: false, reason: 'stopped' });
    expect(remote.tries()).toBe(1);
    expect(connected).toBe(false);
  });

  it('cuts off a try that hangs, and tries again', async () => {
    let tries = 0;
    const later = connectedLater();
    const link = connection({
      attemptTimeoutMs: 20,
      // The first try never answers on its own: only its signal ends it.
      attempt: (signal) =>
        ++tries === 1
          ? new Promise<void>((_resolve, reject) =>
              signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
            )
          : Promise.resolve(),
    });
    expect(await link.start(later.callback)).toBe(false);
    await later.called;
    expect(tries).toBe(2);
  });
});
