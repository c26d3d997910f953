/**
 * Telegram refuses the bot token for a while (every Bot API call answers 401 Unauthorized, as for
 * a revoked token, then the token works again), with long polling: the process stays up and keeps
 * polling with backoff, /readyz answers 503 naming the platform and TELEGRAM_BOT_TOKEN,
 * chatbridge_platform_connected is 0, and both the question whose answer was refused and the one
 * sent while getUpdates was refused are answered, once each, when the token works again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { eventually, platformConnected, readiness } from '../../support/readiness-probe.js';

const QUESTION = 'Do you have homes for sale in Austin?';
/** In the demo chatbot's answer to QUESTION. */
const ANSWER_MARK = 'MLS TX-10452';
const FIRST = { id: 6161, first_name: 'Grace', username: 'grace' };
const SECOND = { id: 6262, first_name: 'Alan', username: 'alan' };
/** After the answers, how long the test watches for a second one. */
const WATCH_FOR_A_SECOND_ANSWER_MS = 4_000;

describe('chatbridge start with Telegram long polling while Telegram refuses the token', () => {
  let fake: FakeTelegram;
  let gateway: ChatbridgeProcess;
  const answers = (chat: number) =>
    fake.visibleMessages(chat).filter((message) => message.text.includes(ANSWER_MARK)).length;

  beforeAll(async () => {
    fake = await startFakeTelegram({ rateLimit: false });
    gateway = await startChatbridge({ TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot });
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake?.close();
  });

  it('says so on /readyz and in the metric, keeps polling, and answers what was asked meanwhile once the token works', async () => {
    const { port } = gateway;
    expect((await readiness(port)).status).toBe(200);

    fake.refuseToken(true);
    // Fetched by the long poll already waiting; its answer is refused.
    fake.userSends({ chat: FIRST.id, from: FIRST, text: QUESTION });
    await eventually(async () => (await readiness(port)).status === 503, '/readyz 503 while the token is refused', {
      log: gateway.log,
    });
    const refused = await readiness(port);
    expect(refused.reason).toContain('telegram:main');
    expect(refused.reason).toContain('TELEGRAM_BOT_TOKEN');
    expect(await platformConnected(port, 'telegram')).toBe(0);
    // Sent while getUpdates itself is refused: Telegram keeps it.
    fake.userSends({ chat: SECOND.id, from: SECOND, text: QUESTION });
    await eventually(
      () => fake.globalLog().some((call) => call.method === 'getUpdates' && call.errorCode === 401),
      'a refused getUpdates',
      { log: gateway.log },
    );
    expect(gateway.child.exitCode).toBeNull();
    expect(answers(FIRST.id) + answers(SECOND.id)).toBe(0);

    fake.refuseToken(false);
    await eventually(() => answers(FIRST.id) >= 1 && answers(SECOND.id) >= 1, 'both answers once the token works', {
      log: gateway.log,
      timeoutMs: 90_000,
    });
    await eventually(async () => (await readiness(port)).status === 200, '/readyz 200 again', { log: gateway.log });
    expect(await platformConnected(port, 'telegram')).toBe(1);
    await sleep(WATCH_FOR_A_SECOND_ANSWER_MS);
    expect([answers(FIRST.id), answers(SECOND.id)]).toEqual([1, 1]);
    expect(gateway.log()).not.toContain('polling stopped');
  }, 180_000);
});
