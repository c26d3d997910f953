/**
 * Issue 30 on the WhatsApp Cloud API, as a process: `chatbridge start` with the WHATSAPP_CLOUD_*
 * variables at the fake Cloud API, on the default gateway settings (a burst window of 1.5 s), talking
 * to the scripted Chatbot Service. The number is a Coexistence one (on the WhatsApp Business app as
 * well): only then does Meta post a user's edit and revoke as such (a number on the Cloud API alone
 * gets them as `unsupported`, saying nothing of what changed). Messages as people write them: three
 * bubbles are one question, messages written during an answer are answered together next, an edit
 * before the answer is answered as it reads now, a revoked message is not answered, a reply to a
 * listing carries the listing (Meta names the quoted message by its wamid only), and "stop" ends the
 * answer being written. The Cloud API cannot edit a message: an answer is shown whole at its end, a
 * stopped one as far as it was written. Assertions are on what the user sees and on the ClientAsks
 * the service received.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultBursts } from '../../support/chatbridge-process.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listingItem,
  startScriptedChatbotService,
  type RecordedAsk,
  type ScriptedChatbotService,
  type ScriptedReply,
} from '../../../fakes/chatbot-service/index.js';
import { gatewayKeys, userTexts } from '../../../src/gateway/index.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { until } from '../../support/delivery-gateway.js';
import { testRedisUrl } from '../../support/redis.js';
import { startCloudGateway, type CloudProcess } from '../../support/whatsapp-cloud-process.js';

const WAIT = { timeoutMs: 45_000 };
const TEST_TIMEOUT_MS = 90_000;
/** Typing speed on a phone: bubbles a few hundred ms apart, all within a second. */
const BETWEEN_BUBBLES_MS = 300;
const LONG_QUESTION = 'Tell me about every home you have';
const LONG_ANSWER = ['Here is the first part. ', 'Here is the second part. ', 'And here is the end.'];

/** "You said: <question>", or the long answer in three parts. */
function answer(ask: RecordedAsk): ScriptedReply {
  return ask.content === LONG_QUESTION ? { fragments: LONG_ANSWER } : { fragments: ['You said: ', ask.content] };
}

describe('chatbridge start with WhatsApp Cloud (a Coexistence number): messages as people write them', () => {
  let service: ScriptedChatbotService;
  let cloud: CloudProcess;
  let state: RedisStateStore;

  beforeAll(async () => {
    service = await startScriptedChatbotService({
      answer,
      listings: [
        listingItem(1812, 'Austin', { Address: '1812 Elm St' }),
        listingItem(300, 'Austin', { Address: '300 Bowie St' }),
      ],
    });
    // Meta's pair rate limit is another test's matter (delivery.test.ts): here it would only slow the replies.
    cloud = await startCloudGateway({
      fake: { coexistence: true, pairRateLimit: false },
      env: {
        UPSTREAM_BASE_URL: service.url,
        UPSTREAM_SECRET_KEY: service.secretKey,
        UPSTREAM_SESSION_KEY: service.sessionKey,
        CHATBOT_SERIAL_NUMBER: 'messages-as-written',
        ...defaultBursts(),
      },
    });
    state = new RedisStateStore({ url: testRedisUrl(), prefix: cloud.gateway.prefix });
  }, 60_000);

  afterAll(async () => {
    await state?.close();
    await cloud?.close();
    await service?.close();
  });

  /** What the user sees from the business after its greeting. */
  const answers = (user: string) => cloud.texts(user).filter((text) => !text.includes(userTexts.welcomeDefault));
  const saidTo = (user: string) => answers(user).filter((text) => text.startsWith('You said:'));
  const send = (from: string, text: string) => cloud.fake.userSends({ from, text });
  /** The questions the service received from now on. */
  const questionsFrom = () => {
    const before = service.asks.length;
    return () => service.questions.slice(before);
  };
  const queued = (user: string) =>
    state.listRange(gatewayKeys.queue({ bot: 'main', platform: 'whatsapp-cloud', id: user }), 0, -1);

  it(
    'answers three bubbles sent within a second once, asking the service one question of their three lines',
    async () => {
      const user = '4915100003101';
      const asked = questionsFrom();
      for (const text of ['hi', "I'm looking for", 'a 3 bedroom in Austin']) {
        await send(user, text);
        await sleep(BETWEEN_BUBBLES_MS);
      }
      await cloud.fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer' });
      // Sync point: a later question, answered after the burst's.
      await send(user, 'thanks');
      await cloud.fake.waitFor(() => saidTo(user).some((text) => text.includes('thanks')), {
        ...WAIT,
        what: 'the answer to the next question',
      });

      expect(asked()).toEqual(["hi\nI'm looking for\na 3 bedroom in Austin", 'thanks']);
      expect(answers(user)).toHaveLength(2);
      expect(answers(user)[0]).toContain('a 3 bedroom in Austin');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'answers two messages written while an answer is being written together, in one question, next',
    async () => {
      const user = '4915100003102';
      const asked = questionsFrom();
      const held = service.holdNextAnswer(1);
      await send(user, 'Homes in Denver?');
      await held.reached;
      await send(user, 'with a garden');
      await send(user, 'under 500k');
      // Both are queued behind the answer being written before it goes on.
      await until(async () => (await queued(user)).length === 3, 'the two messages queued behind the answer');
      held.release();
      await cloud.fake.waitFor(() => saidTo(user).length === 2 && saidTo(user)[1]!.includes('under 500k'), {
        ...WAIT,
        what: 'the answer to the two messages',
      });

      expect(asked()).toEqual(['Homes in Denver?', 'with a garden\nunder 500k']);
      expect(answers(user)).toHaveLength(2);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'answers a message edited before its answer started in its edited form',
    async () => {
      const user = '4915100003103';
      const asked = questionsFrom();
      const sent = await send(user, 'a 3 bedroom in Austni');
      await cloud.fake.userSends({ from: user, edit: { messageId: sent, text: 'a 3 bedroom in Austin' } });
      await cloud.fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer' });

      expect(asked()).toEqual(['a 3 bedroom in Austin']);
      expect(answers(user)).toEqual(['You said: a 3 bedroom in Austin']);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'does not answer a revoked message, alone or in a burst',
    async () => {
      const user = '4915100003104';
      const asked = questionsFrom();
      const alone = await send(user, 'never mind this');
      await cloud.fake.userSends({ from: user, revoke: { messageId: alone } });
      // The deletion reached the queue, and the turn that took it from there asked nothing.
      await cloud.fake.waitFor(
        () => cloud.gateway.log().includes('a queued message was deleted; it is not answered'),
        WAIT,
      );
      await until(async () => (await queued(user)).length === 0, 'the deleted message to leave the queue');
      expect(asked()).toEqual([]);

      const first = await send(user, 'a flat in Austin');
      await cloud.fake.userSends({ from: user, revoke: { messageId: first } });
      await send(user, 'a house in Denver');
      await cloud.fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer' });

      expect(asked()).toEqual(['a house in Denver']);
      expect(answers(user)).toEqual(['You said: a house in Denver']);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'sends a reply to a listing with the listing as context',
    async () => {
      const user = '4915100003105';
      await send(user, 'listings');
      const listingMessage = () =>
        cloud.fake.visibleMessages(user).find((message) => message.text?.includes('1812 Elm St') === true);
      await cloud.fake.waitFor(() => listingMessage() !== undefined, { ...WAIT, what: 'the listings page' });
      const asked = questionsFrom();
      await cloud.fake.userSends({ from: user, text: 'how much is this one?', replyTo: listingMessage()!.id });
      await cloud.fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer to the reply' });

      expect(asked()).toHaveLength(1);
      expect(asked()[0]).toMatch(
        /^\[In reply to the assistant's message: "[^\n]*1812 Elm St[^\n]*"\]\nhow much is this one\?$/,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '"stop" ends the answer being written where it is, closes the stream, and the next question is answered',
    async () => {
      const user = '4915100003106';
      const asked = questionsFrom();
      const held = service.holdNextAnswer(2);
      try {
        await send(user, LONG_QUESTION);
        await held.reached;
        await send(user, 'stop');
        await cloud.fake.waitFor(() => answers(user).some((text) => text.endsWith(userTexts.stoppedNote)), {
          ...WAIT,
          what: 'the answer marked as stopped',
        });
        // The service's stream was closed by the gateway: the held answer is over though never released.
        await until(() => service.answersInProgress === 0, "the service's stream to close");

        const stopped = answers(user);
        expect(stopped).toHaveLength(1);
        expect(stopped[0]).toMatch(/^Here is the first part\. Here is the second part\.\s+\(Stopped\.\)$/);

        await send(user, 'Homes in Portland?');
        await cloud.fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer to the next question' });
        expect(asked()).toEqual([LONG_QUESTION, 'Homes in Portland?']);
        expect(answers(user)).toEqual([stopped[0], 'You said: Homes in Portland?']);
      } finally {
        held.release();
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '"stop" with nothing being written says there is nothing to stop: as a first message, and after a whole answer',
    async () => {
      const user = '4915100003107';
      const asked = questionsFrom();
      const nothingToStop = () => answers(user).filter((text) => text === userTexts.nothingToStop);
      // The first message of a chat: the greeting is written before it, and is no answer to stop.
      await send(user, 'Stop');
      await cloud.fake.waitFor(() => nothingToStop().length === 1, { ...WAIT, what: 'the reply to the first stop' });
      await send(user, 'Homes in Austin?');
      await cloud.fake.waitFor(() => saidTo(user).length === 1, { ...WAIT, what: 'the answer' });
      await send(user, 'stop');
      await cloud.fake.waitFor(() => nothingToStop().length === 2, { ...WAIT, what: 'the reply to the second stop' });

      expect(answers(user)).toEqual([userTexts.nothingToStop, 'You said: Homes in Austin?', userTexts.nothingToStop]);
      expect(cloud.texts(user)[0]).toContain(userTexts.welcomeDefault);
      expect(asked()).toEqual(['Homes in Austin?']);
    },
    TEST_TIMEOUT_MS,
  );
});
