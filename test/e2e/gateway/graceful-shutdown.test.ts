/**
 * Issue #13, graceful shutdown: on SIGTERM a gateway process leaves the load
 * balancer's rotation (/readyz 503), refuses new webhook updates (503, so Telegram
 * delivers them again, elsewhere), lets the answer in progress end in full, and
 * releases its conversation locks: a message queued behind that answer is answered
 * by another replica at once, not after the lock's lifetime. It exits with 0.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../../fakes/round-robin-proxy.js';
import { startScriptedService, until, waitForLog, type ScriptedService } from '../../support/delivery-gateway.js';
import { replicaSet, type ReplicaSet } from '../../support/replicas.js';

const USER = { id: 7373, first_name: 'Grace', username: 'grace' };
const SLOW_QUESTION = 'Slow one: homes for sale in Denver?';
const SLOW_ANSWER = [
  'Here are the homes for sale in Denver. ',
  'First, 12 Larimer St. ',
  'Second, 400 Colfax Ave. ',
  'That is all I have.',
];
const NEXT_QUESTION = 'And in Boulder?';
/**
 * Far longer than the test waits for the queued message: it can only be answered in time
 * if the stopping process released its lock instead of leaving it to expire.
 */
const LOCK_TTL_MS = 120_000;

describe('a replica stopped with SIGTERM while it answers (chatbridge start, as processes)', () => {
  let fake: FakeTelegram;
  let service: ScriptedService;
  let proxy: RoundRobinProxy;
  let replicas: ReplicaSet;

  afterEach(async () => {
    await replicas?.cleanup();
    await proxy?.close();
    await service?.close();
    await fake?.close();
  });

  it('finishes the answer in progress, refuses new updates, and hands the queued message to another replica at once; exit code 0', async () => {
    fake = await startFakeTelegram();
    service = await startScriptedService((question) =>
      question === SLOW_QUESTION ? { fragments: SLOW_ANSWER, gapMs: 1_500 } : { fragments: [`Answer to: ${question}`] },
    );
    proxy = await startRoundRobinProxy();
    replicas = replicaSet({
      telegram: { token: fake.token, apiRoot: fake.apiRoot },
      webhookUrl: proxy.url,
      upstreamUrl: service.url,
      gateway: { lockTtlMs: LOCK_TTL_MS, heartbeatMs: LOCK_TTL_MS / 3, sweepIntervalMs: 500 },
    });
    const first = await replicas.start();
    const second = await replicas.start();
    // Telegram reaches the first replica only, until the slow answer is under way there.
    proxy.setBackends([first.port]);

    fake.userSends({ chat: USER.id, from: USER, text: SLOW_QUESTION });
    await until(() => service.questions.length === 1, 'the slow question to reach the service');
    const queued = fake.userSends({ chat: USER.id, from: USER, text: NEXT_QUESTION });
    await fake.waitFor(
      () => fake.webhookAttempts().some((attempt) => attempt.update_id === queued.update_id && attempt.status === 200),
      { what: 'the next message to be queued behind the slow answer' },
    );

    proxy.setBackends([first.port, second.port]);
    const exited = first.process.stop();
    await waitForLog(first.process, /"msg":"stopping:/);

    const ready = await fetch(`http://127.0.0.1:${first.port}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'stopping' });
    // An update Telegram posts to it now is not taken (and so not lost): 503, Telegram posts it again.
    const update = {
      update_id: 9_000_001,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: 8484, type: 'private' },
        from: { id: 8484, is_bot: false, first_name: 'Late' },
        text: 'hello?',
      },
    };
    let refused = 0;
    await until(async () => {
      const response = await fetch(`http://127.0.0.1:${first.port}/telegram/main`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(update),
      });
      refused = response.status;
      return refused === 503;
    }, 'the stopping replica to refuse webhook updates');

    expect(await exited).toBe(0);
    // Still answering the slow question when it was told to stop, it finished it.
    const texts = () => fake.visibleMessages(USER.id).map((message) => message.text);
    expect(texts()[0]).toBe(SLOW_ANSWER.join(''));
    expect(first.process.log()).toMatch(/"msg":"stopped: every answer in progress finished/);

    // Answered by the other replica well before the lock would have expired.
    await until(() => texts().length === 2, 'the queued message to be answered by the other replica', LOCK_TTL_MS / 4);
    expect(texts()).toEqual([SLOW_ANSWER.join(''), `Answer to: ${NEXT_QUESTION}`]);
    expect(service.questions).toEqual([SLOW_QUESTION, NEXT_QUESTION]);
    expect(second.process.log()).toMatch(/taking over a conversation queue whose holder stopped/);
  }, 90_000);
});
