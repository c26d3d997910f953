import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

const USER = { id: 7070, first_name: 'Grace', username: 'grace' };
/** Far above the gateway's own readiness deadline: a probe that waits this long means /readyz hung. */
const PROBE_TIMEOUT_MS = 15_000;

async function probe(
  port: number,
  path: '/healthz' | '/readyz',
): Promise<{ status: number; body: { status?: string; reason?: string } }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  return { status: response.status, body: (await response.json()) as { status?: string; reason?: string } };
}

async function metrics(port: number): Promise<string> {
  return (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })).text();
}

/** Polls `condition` until it holds; fails with `what` after `timeoutMs`. */
async function eventually(
  condition: () => Promise<boolean> | boolean,
  what: string,
  log: () => string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}; the gateway's log:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('readiness of a gateway process whose Redis freezes', () => {
  let redis: PrivateRedis;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    gateway = await startChatbridge({ REDIS_URL: redis.url });
  }, 60_000);

  afterAll(async () => {
    redis?.thaw();
    await gateway?.stop();
    await redis?.close();
  });

  it('answers /readyz 503 naming REDIS_URL while Redis does not answer, and 200 again once it does', async () => {
    expect((await probe(gateway.port, '/readyz')).status).toBe(200);
    redis.freeze();
    const frozen = await probe(gateway.port, '/readyz');
    expect(frozen.status).toBe(503);
    expect(frozen.body.reason).toContain('REDIS_URL');
    // The process itself is fine: liveness stays green, so an orchestrator does not kill it.
    expect((await probe(gateway.port, '/healthz')).status).toBe(200);
    redis.thaw();
    await eventually(
      async () => (await probe(gateway.port, '/readyz')).status === 200,
      '/readyz 200 after the thaw',
      gateway.log,
    );
  }, 90_000);
});

describe('a gateway process started while the Telegram Bot API is unreachable', () => {
  let fake: FakeTelegram;
  let proxy: TcpProxy;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    proxy = await startTcpProxy({ port: Number(new URL(fake.apiRoot).port) });
    await proxy.cut();
    gateway = await startChatbridge({ TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: proxy.url });
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await proxy?.close();
    await fake?.close();
  });

  it('runs, is live but not ready, and logs each failed attempt without the token', async () => {
    expect((await probe(gateway.port, '/healthz')).status).toBe(200);
    const readiness = await probe(gateway.port, '/readyz');
    expect(readiness.status).toBe(503);
    expect(readiness.body.reason).toContain('telegram:main not connected');
    expect(await metrics(gateway.port)).toContain('chatbridge_platform_connected{platform="telegram",bot="main"} 0');
    const failedAttempts = () =>
      gateway
        .log()
        .split('\n')
        .filter((line) => line.includes('the Bot API is not reachable'));
    await eventually(() => failedAttempts().length >= 2, 'a second failed attempt in the log', gateway.log);
    expect(failedAttempts().every((line) => line.includes('"level":40'))).toBe(true);
    expect(gateway.log()).not.toContain(fake.token);
  }, 90_000);

  it('becomes ready once the Bot API is back, and answers', async () => {
    await proxy.restore();
    await eventually(
      async () => (await probe(gateway.port, '/readyz')).status === 200,
      '/readyz 200 after the Bot API came back',
      gateway.log,
    );
    expect(await metrics(gateway.port)).toContain('chatbridge_platform_connected{platform="telegram",bot="main"} 1');
    fake.userSends({ chat: USER.id, from: USER, text: 'Do you have homes for sale in Austin?' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('MLS TX-10452')), {
      timeoutMs: 30_000,
      what: 'the answer',
    });
    expect(gateway.log()).not.toContain(fake.token);
  }, 120_000);
});

describe('a gateway process whose Telegram token is refused', () => {
  let fake: FakeTelegram;

  beforeAll(async () => {
    fake = await startFakeTelegram();
  });

  afterAll(async () => {
    await fake?.close();
  });

  it('does not retry: the start fails at once with what to fix', async () => {
    const refused = '987654321:WRONG_token';
    const failure = await startChatbridge({ TELEGRAM_BOT_TOKEN: refused, TELEGRAM_API_ROOT: fake.apiRoot }).then(
      (gateway) => gateway.cleanup().then(() => new Error('the gateway started with a refused token')),
      (error: Error) => error,
    );
    expect(failure.message).toContain('chatbridge exited with 1');
    expect(failure.message).toContain('Telegram rejected the token of bot');
    expect(failure.message).toContain('(401 Unauthorized): check TELEGRAM_BOT_TOKEN');
    expect(failure.message).not.toContain('the Bot API is not reachable');
  }, 60_000);
});
