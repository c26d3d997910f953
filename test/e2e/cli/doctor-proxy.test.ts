/**
 * `chatbridge doctor` as a process: it says when the configuration shows a reverse proxy in front (PUBLIC_URL on https,
 * which the gateway does not serve) while TRUST_PROXY is unset, and what it checked when it sees none.
 */
import { describe, expect, it } from 'vitest';
import { runDoctor as doctor } from '../../support/doctor-process.js';
import { testRedisUrl } from '../../support/redis.js';

const ADMIN_TOKEN = 'doctor-proxy-admin-token-0123456789';

describe('chatbridge doctor and a reverse proxy', () => {
  it('warns, naming TRUST_PROXY, when PUBLIC_URL is https and TRUST_PROXY is unset; ok once it is set', async () => {
    const behind = await doctor({ REDIS_URL: testRedisUrl(), ADMIN_TOKEN, PUBLIC_URL: 'https://support.example.com' });
    expect(behind.output).toMatch(
      /^warn {2}proxy: PUBLIC_URL \(https:\/\/support\.example\.com\) is https, .*TRUST_PROXY \(http\.trustProxy\) is not set/m,
    );
    const trusted = await doctor({
      REDIS_URL: testRedisUrl(),
      ADMIN_TOKEN,
      PUBLIC_URL: 'https://support.example.com',
      TRUST_PROXY: '1',
    });
    expect(trusted.output).toMatch(/^ok {4}proxy: TRUST_PROXY is 1/m);
    const direct = await doctor({ REDIS_URL: testRedisUrl(), ADMIN_TOKEN });
    expect(direct.output).toMatch(
      /^ok {4}proxy: TRUST_PROXY is not set, and PUBLIC_URL shows no proxy in front \(checked:/m,
    );
  }, 60_000);
});
