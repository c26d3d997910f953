/**
 * WhatsApp while the gateway's Redis is unavailable: `chatbridge start` with WHATSAPP_ENABLED on
 * a private redis-server, whatsapp-web.js swapped for the fake. WhatsApp Web hands a message to
 * the linked device once, so the gateway holds what it could not queue until Redis is back, and
 * tells every user whose message waits that the answer will come.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replies } from '../../../src/gateway/index.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import type { ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.js';
import { startLinkedWhatsAppGateway } from '../../support/whatsapp-process.js';

const QUESTION = 'Do you have homes for sale in Austin?';
/** The end of the builtin engine's answer to QUESTION: a text with it is the whole answer, not a part being written. */
const ANSWER_END = 'homes.example/austin/300-bowie-1204';
const USERS = ['4915100000201', '4915100000202', '4915100000203', '4915100000204'];
const chatOf = (number: string) => `${number}@c.us`;

function outageSpec(
  name: string,
  outage: { begin(redis: PrivateRedis): Promise<void>; end(redis: PrivateRedis): Promise<void> },
) {
  describe(`WhatsApp while Redis is ${name}`, () => {
    let redis: PrivateRedis;
    let fake: FakeWhatsApp;
    let gateway: ChatbridgeProcess;
    /** Whether the outage is on: a failed test may leave it on, and the gateway's stop would wait for Redis. */
    let unavailable = false;

    beforeAll(async () => {
      // Its data survives a stop, as with any Redis that holds a WhatsApp session (the session lives there).
      redis = await startPrivateRedis({ persist: true });
      fake = await startFakeWhatsApp();
      gateway = await startLinkedWhatsAppGateway(fake, { REDIS_URL: redis.url });
    }, 60_000);

    afterAll(async () => {
      if (unavailable) await outage.end(redis);
      await gateway?.cleanup();
      await fake?.close();
      await redis?.close();
    });

    const answers = (number: string) => fake.screen(chatOf(number)).filter((text) => text.includes(ANSWER_END));
    const notices = (number: string) => fake.screen(chatOf(number)).filter((text) => text === replies.answerDelayed);

    it('tells each waiting user once that the answer will come, and answers each of them once Redis is back', async () => {
      await outage.begin(redis);
      unavailable = true;
      for (const user of USERS) fake.userSends({ from: user, text: QUESTION });
      // Every one of them is told while Redis is still unavailable (after about 10 s), not only the first.
      await fake.waitFor(() => USERS.every((user) => notices(user).length === 1), {
        timeoutMs: 30_000,
        what: 'a notice in every chat while Redis is unavailable',
      });
      await outage.end(redis);
      unavailable = false;

      await fake.waitFor(() => USERS.every((user) => answers(user).length === 1), {
        timeoutMs: 90_000,
        what: 'every answer after the outage',
      });
      for (const user of USERS) {
        // In each chat: the one notice, then the whole answer, once. (No greeting: whether the chat
        // was greeted could not be read while Redis was unavailable, and the answer matters more.)
        const [notice, answer, ...more] = fake.screen(chatOf(user));
        expect(notice).toBe(replies.answerDelayed);
        expect(answer).toMatch(/^I found 2 listings that match:/);
        expect(answer).toContain(ANSWER_END);
        expect(more).toEqual([]);
      }
      expect(await gateway.stop()).toBe(0);
    }, 200_000);
  });
}

outageSpec('frozen (SIGSTOP)', {
  begin: async (redis) => redis.freeze(),
  end: async (redis) => redis.thaw(),
});

outageSpec('stopped and started again', {
  begin: (redis) => redis.stop(),
  end: (redis) => redis.start(),
});
