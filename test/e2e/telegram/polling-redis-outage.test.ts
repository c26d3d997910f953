import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replies } from '../../../src/gateway/index.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.js';

const QUESTION = 'Do you have homes for sale in Austin?';
/** In the builtin engine's answer to QUESTION. */
const ANSWER_MARK = 'MLS TX-10452';
const NOTICE_MARK = replies.answerDelayed.slice(0, 20);
const USERS = Array.from({ length: 6 }, (_, i) => ({ id: 9100 + i, first_name: `User${i}`, username: `user${i}` }));

/**
 * Six users write while the gateway's Redis is unavailable (long polling); each is told
 * once that the answer will come, and every message is answered once Redis is back.
 */
function outageSpec(
  name: string,
  outage: { begin(redis: PrivateRedis): Promise<void>; end(redis: PrivateRedis): Promise<void> },
) {
  describe(`Telegram long polling while Redis is ${name}`, () => {
    let redis: PrivateRedis;
    let fake: FakeTelegram;
    let gateway: ChatbridgeProcess;

    beforeAll(async () => {
      redis = await startPrivateRedis();
      fake = await startFakeTelegram({ rateLimit: false });
      gateway = await startChatbridge({
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.apiRoot,
        REDIS_URL: redis.url,
      });
    }, 30_000);

    afterAll(async () => {
      await gateway?.stop();
      await fake?.close();
      await redis?.close();
    });

    const answers = (chat: number) => fake.visibleMessages(chat).filter((m) => m.text.includes(ANSWER_MARK)).length;
    const notices = (chat: number) => fake.visibleMessages(chat).filter((m) => m.text.includes(NOTICE_MARK)).length;

    it('tells each user once that the answer will come, and answers every message when Redis is back', async () => {
      // Before the outage: answered as usual, and no notice.
      fake.userSends({ chat: USERS[0]!.id, from: USERS[0]!, text: QUESTION });
      await fake.waitFor(() => answers(USERS[0]!.id) === 1, {
        timeoutMs: 30_000,
        what: 'the answer before the outage',
      });

      await outage.begin(redis);
      for (const user of USERS) fake.userSends({ chat: user.id, from: user, text: QUESTION });
      // The users are told while Redis is still unavailable (after about 10 s).
      await fake.waitFor(() => USERS.every((user) => notices(user.id) === 1), {
        timeoutMs: 60_000,
        what: 'a notice in every chat',
      });
      await outage.end(redis);

      await fake.waitFor(() => USERS.every((user) => answers(user.id) === (user === USERS[0] ? 2 : 1)), {
        timeoutMs: 90_000,
        what: 'every answer after the outage',
      });
      for (const user of USERS) expect(notices(user.id)).toBe(1);
      expect(await gateway.stop()).toBe(0);
    }, 200_000);
  });
}

outageSpec('frozen (SIGSTOP)', {
  begin: async (redis) => redis.freeze(),
  end: async (redis) => redis.thaw(),
});

// Restarted without persistence: the gateway seeds the demo chatbot again when it notices the state is gone.
outageSpec('stopped and restarted', {
  begin: (redis) => redis.stop(),
  end: (redis) => redis.start(),
});

describe('Telegram long polling: a gateway killed while Redis is frozen', () => {
  let redis: PrivateRedis;
  let fake: FakeTelegram;
  let first: ChatbridgeProcess | undefined;
  let second: ChatbridgeProcess | undefined;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    fake = await startFakeTelegram({ rateLimit: false });
  }, 30_000);

  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await fake?.close();
    await redis?.close();
  });

  it('leaves the messages it could not queue with Telegram, and the next process answers them', async () => {
    const env = { TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot, REDIS_URL: redis.url };
    first = await startChatbridge(env);
    const users = USERS.slice(0, 3);
    redis.freeze();
    for (const user of users) fake.userSends({ chat: user.id, from: user, text: QUESTION });
    // Told: so the first process did fetch every message, and holds it.
    await fake.waitFor(
      () => users.every((user) => fake.visibleMessages(user.id).some((m) => m.text.includes(NOTICE_MARK))),
      { timeoutMs: 60_000, what: 'a notice in every chat' },
    );
    const killed = first;
    first = undefined;
    killed.child.kill('SIGKILL');
    await new Promise((resolve) => killed.child.once('exit', resolve));
    redis.thaw();

    second = await startChatbridge(env);
    await fake.waitFor(
      () => users.every((user) => fake.visibleMessages(user.id).some((m) => m.text.includes(ANSWER_MARK))),
      { timeoutMs: 90_000, what: 'every answer from the next process' },
    );
  }, 200_000);
});
