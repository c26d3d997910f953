/**
 * Issue 30 on WhatsApp Web, as a process: `chatbridge start` with WHATSAPP_ENABLED (whatsapp-web.js
 * swapped for the fake by its module hook) on the default gateway settings (a burst window of
 * 1.5 s), talking to the scripted Chatbot Service. Messages as people write them: three bubbles
 * are one question, messages written during an answer are answered together next, an edit before
 * the answer is answered as it reads now, a message deleted for everyone is not answered, a reply
 * to a listing carries the listing, and "stop" ends the answer being written. What the user sees is
 * the fake's screen; what the chatbot was asked is the service's record of its ClientAsks.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultBursts } from '../../support/chatbridge-process.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import {
  listingItem,
  startScriptedChatbotService,
  type RecordedAsk,
  type ScriptedChatbotService,
  type ScriptedReply,
} from '../../../fakes/chatbot-service/index.js';
import { gatewayKeys, userTexts } from '../../../src/gateway/index.js';
import { RedisStateStore } from '../../../src/state/index.js';
import type { ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { until } from '../../support/delivery-gateway.js';
import { testRedisUrl } from '../../support/redis.js';
import { startLinkedWhatsAppGateway } from '../../support/whatsapp-process.js';

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

describe('chatbridge start with WhatsApp Web: messages as people write them', () => {
  let fake: FakeWhatsApp;
  let service: ScriptedChatbotService;
  let gateway: ChatbridgeProcess;
  let state: RedisStateStore;

  beforeAll(async () => {
    service = await startScriptedChatbotService({
      answer,
      listings: [
        listingItem(1812, 'Austin', { Address: '1812 Elm St' }),
        listingItem(300, 'Austin', { Address: '300 Bowie St' }),
      ],
    });
    fake = await startFakeWhatsApp();
    gateway = await startLinkedWhatsAppGateway(fake, {
      UPSTREAM_BASE_URL: service.url,
      UPSTREAM_SECRET_KEY: service.secretKey,
      UPSTREAM_SESSION_KEY: service.sessionKey,
      CHATBOT_SERIAL_NUMBER: 'messages-as-written',
      ...defaultBursts(),
    });
    state = new RedisStateStore({ url: testRedisUrl(), prefix: gateway.prefix });
  }, 60_000);

  afterAll(async () => {
    await state?.close();
    await gateway?.cleanup();
    await fake?.close();
    await service?.close();
  });

  const chatOf = (number: string) => `${number}@c.us`;
  /** The bot's messages in the chat, as they read now, after its greeting. */
  const answers = (number: string) =>
    fake.screen(chatOf(number)).filter((text) => !text.includes(userTexts.welcomeDefault));
  const saidTo = (number: string) => answers(number).filter((text) => text.startsWith('You said:'));
  /** The questions the service received from now on. */
  const questionsFrom = () => {
    const before = service.asks.length;
    return () => service.questions.slice(before);
  };
  const queued = (number: string) =>
    state.listRange(gatewayKeys.queue({ bot: 'main', platform: 'whatsapp', id: chatOf(number) }), 0, -1);

  it(
    'answers three bubbles sent within a second once, asking the service one question of their three lines',
    async () => {
      const user = '4915100003001';
      const asked = questionsFrom();
      for (const text of ['hi', "I'm looking for", 'a 3 bedroom in Austin']) {
        fake.userSends({ from: user, text });
        await sleep(BETWEEN_BUBBLES_MS);
      }
      await fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer' });
      // Sync point: a later question, answered after the burst's.
      fake.userSends({ from: user, text: 'thanks' });
      await fake.waitFor(() => saidTo(user).some((text) => text.includes('thanks')), {
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
      const user = '4915100003002';
      const asked = questionsFrom();
      const held = service.holdNextAnswer(1);
      fake.userSends({ from: user, text: 'Homes in Denver?' });
      await held.reached;
      fake.userSends({ from: user, text: 'with a garden' });
      fake.userSends({ from: user, text: 'under 500k' });
      // Both are queued behind the answer being written before it goes on.
      await until(async () => (await queued(user)).length === 3, 'the two messages queued behind the answer');
      held.release();
      await fake.waitFor(() => saidTo(user).length === 2 && saidTo(user)[1]!.includes('under 500k'), {
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
      const user = '4915100003003';
      const asked = questionsFrom();
      const sent = fake.userSends({ from: user, text: 'a 3 bedroom in Austni' });
      fake.userEdits(sent.id._serialized, 'a 3 bedroom in Austin');
      await fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer' });

      expect(asked()).toEqual(['a 3 bedroom in Austin']);
      expect(saidTo(user)).toEqual(['You said: a 3 bedroom in Austin']);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'does not answer a message deleted for everyone before its answer, alone or in a burst',
    async () => {
      const user = '4915100003004';
      const asked = questionsFrom();
      const alone = fake.userSends({ from: user, text: 'never mind this' });
      fake.userRevokes(alone.id._serialized);
      // The deletion reached the queue, and the turn that took it from there asked nothing.
      await fake.waitFor(() => gateway.log().includes('a queued message was deleted; it is not answered'), WAIT);
      await until(async () => (await queued(user)).length === 0, 'the deleted message to leave the queue');
      expect(asked()).toEqual([]);

      const first = fake.userSends({ from: user, text: 'a flat in Austin' });
      fake.userRevokes(first.id._serialized);
      fake.userSends({ from: user, text: 'a house in Denver' });
      await fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer' });

      expect(asked()).toEqual(['a house in Denver']);
      expect(answers(user)).toEqual(['You said: a house in Denver']);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'sends a reply to a listing with the listing as context',
    async () => {
      const user = '4915100003005';
      const chat = chatOf(user);
      fake.userSends({ from: user, text: 'listings' });
      const listingMessage = () =>
        fake.world.botMessages(chat).find((message) => message.data.body.includes('1812 Elm St'));
      await fake.waitFor(() => listingMessage() !== undefined, { ...WAIT, what: 'the listings page' });
      const asked = questionsFrom();
      fake.userSends({ from: user, text: 'how much is this one?', quoting: listingMessage()!.data.id._serialized });
      await fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer to the reply' });

      expect(asked()).toHaveLength(1);
      const [question] = asked();
      expect(question).toMatch(
        /^\[In reply to the assistant's message: "[^\n]*1812 Elm St[^\n]*"\]\nhow much is this one\?$/,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '"stop" ends the answer being written where it is, closes the stream, and the next question is answered',
    async () => {
      const user = '4915100003006';
      const asked = questionsFrom();
      const held = service.holdNextAnswer(2);
      try {
        fake.userSends({ from: user, text: LONG_QUESTION });
        await held.reached;
        await fake.waitFor(() => answers(user).some((text) => text.includes('Here is the second part.')), {
          ...WAIT,
          what: 'the first parts of the answer on screen',
        });
        fake.userSends({ from: user, text: 'stop' });
        await fake.waitFor(() => answers(user).some((text) => text.endsWith(userTexts.stoppedNote)), {
          ...WAIT,
          what: 'the answer marked as stopped',
        });
        // The service's stream was closed by the gateway: the held answer is over though never released.
        await until(() => service.answersInProgress === 0, "the service's stream to close");

        const stopped = answers(user);
        expect(stopped).toHaveLength(1);
        expect(stopped[0]).toMatch(/^Here is the first part\. Here is the second part\.\s+\(Stopped\.\)$/);

        fake.userSends({ from: user, text: 'Homes in Portland?' });
        await fake.waitFor(() => saidTo(user).length > 0, { ...WAIT, what: 'the answer to the next question' });
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
      const user = '4915100003007';
      const asked = questionsFrom();
      const nothingToStop = () => answers(user).filter((text) => text === userTexts.nothingToStop);
      // The first message of a chat: the greeting is written before it, and is no answer to stop.
      fake.userSends({ from: user, text: 'Stop' });
      await fake.waitFor(() => nothingToStop().length === 1, { ...WAIT, what: 'the reply to the first stop' });
      fake.userSends({ from: user, text: 'Homes in Austin?' });
      await fake.waitFor(() => saidTo(user).length === 1, { ...WAIT, what: 'the answer' });
      fake.userSends({ from: user, text: 'stop' });
      await fake.waitFor(() => nothingToStop().length === 2, { ...WAIT, what: 'the reply to the second stop' });

      expect(answers(user)).toEqual([userTexts.nothingToStop, 'You said: Homes in Austin?', userTexts.nothingToStop]);
      expect(fake.screen(chatOf(user))[0]).toContain(userTexts.welcomeDefault);
      expect(asked()).toEqual(['Homes in Austin?']);
    },
    TEST_TIMEOUT_MS,
  );
});
