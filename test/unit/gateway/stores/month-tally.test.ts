/**
 * The month's count of a chatbot with no MessageLimit (src/gateway/stores/month-tally.ts): answered
 * messages added up in the process and written once a second, one command per counter; what could
 * not be written (Redis unreachable) is kept and written later, counted once. Real Redis, reached
 * through a TCP proxy the test can cut.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonthTally, MONTHLY_COUNTER_TTL_MS } from '../../../../src/gateway/stores/month-tally.js';
import { silentLogger } from '../../../../src/logger.js';
import { RedisStateStore } from '../../../../src/state/index.js';
import { startPrivateRedis } from '../../../support/private-redis.js';
import { startTcpProxy, type TcpProxy } from '../../../support/tcp-proxy.js';
import { testRedisUrl } from '../../../support/redis.js';

const prefix = `cbtest:month-tally:${randomUUID().slice(0, 8)}:`;
const direct = new RedisStateStore({ url: testRedisUrl(), prefix });
let proxy: TcpProxy;
let throughProxy: RedisStateStore;

beforeAll(async () => {
  const url = new URL(testRedisUrl());
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 6379) });
  url.port = String(proxy.port);
  throughProxy = new RedisStateStore({ url: url.toString(), prefix });
});
afterAll(async () => {
  await direct.deleteByPrefix();
  await Promise.all([direct.close(), throughProxy.close()]);
  await proxy.close();
});

describe("the month's count of a chatbot with no MessageLimit", () => {
  it('adds up the answers in the process and writes each counter once per flush, with its window', async () => {
    const tally = new MonthTally(direct, silentLogger(), 60_000);
    for (let i = 0; i < 5; i++) tally.add('monthly:a:2026-11');
    tally.add('monthly:b:2026-11');
    expect(await direct.get('monthly:a:2026-11')).toBeNull();
    await tally.flush();
    expect(await direct.get('monthly:a:2026-11')).toBe('5');
    expect(await direct.get('monthly:b:2026-11')).toBe('1');
    expect(await direct.ttlMs('monthly:a:2026-11')).toBeGreaterThan(MONTHLY_COUNTER_TTL_MS - 60_000);
    tally.add('monthly:a:2026-11');
    await tally.stop();
    expect(await direct.get('monthly:a:2026-11')).toBe('6');
  });

  it('writes once a second while started', async () => {
    const tally = new MonthTally(direct, silentLogger());
    tally.start();
    tally.add('monthly:timed:2026-11');
    await expect.poll(() => direct.get('monthly:timed:2026-11'), { timeout: 5_000 }).toBe('1');
    await tally.stop();
  });

  it('does not keep a stopping gateway waiting on a Redis that answers nothing (frozen): it gives up after its wait', async () => {
    const frozen = await startPrivateRedis();
    const store = new RedisStateStore({ url: frozen.url, prefix });
    try {
      await store.ping();
      const tally = new MonthTally(store, silentLogger(), 60_000);
      tally.add('monthly:frozen:2026-11');
      frozen.freeze();
      const stopped = tally.stop(300).then(() => 'stopped');
      const stillWaiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000));
      expect(await Promise.race([stopped, stillWaiting])).toBe('stopped');
    } finally {
      frozen.thaw();
      await store.close();
      await frozen.close();
    }
  });

  it('keeps what it could not write while Redis was unreachable, and writes it once Redis is back: counted once', async () => {
    const tally = new MonthTally(throughProxy, silentLogger(), 60_000);
    await throughProxy.ping();
    tally.add('monthly:outage:2026-11');
    tally.add('monthly:outage:2026-11');
    await proxy.cut();
    await tally.flush();
    await proxy.restore();
    expect(await direct.get('monthly:outage:2026-11')).toBeNull();
    tally.add('monthly:outage:2026-11');
    await expect
      .poll(
        async () => {
          await tally.flush();
          return direct.get('monthly:outage:2026-11');
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe('3');
  });
});
