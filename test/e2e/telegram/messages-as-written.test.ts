/**
 * Messages as people write them, on Telegram, as a user meets it: `chatbridge start` with its default
 * settings (bursts of 1.5 s) against the fake Telegram and a scripted Chatbot Service that records
 * every question it receives. A burst is one question; messages written during an answer are answered
 * together next; an edit before the answer counts; a reply carries what it replies to; /stop ends the
 * answer being written and closes the service's stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import {
  listingItem,
  startScriptedChatbotService,
  type ScriptedChatbotService,
} from '../../../fakes/chatbot-service/index.js';
import { gatewayKeys, userTexts } from '../../../src/gateway/index.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { until } from '../../support/delivery-gateway.js';
import { testRedisUrl } from '../../support/redis.js';
import { defaultBursts, startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';

const ANSWER = { timeoutMs: 45_000 };
const user = (id: number) => ({ id, first_name: `User ${id}` });

describe('messages as people write them, on Telegram (chatbridge start with its defaults, as a process)', () => {
  let fake: FakeTelegram;
  let service: ScriptedChatbotService;
  let gateway: ChatbridgeProcess;
  let state: RedisStateStore;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    service = await startScriptedChatbotService({
      answer: (ask) => ({ fragments: `You asked: ${ask.content}`.split(/(?<= )/) }),
      listings: [listingItem(1200, 'Austin', { Address: '1200 Barton Springs Rd' })],
    });
    gateway = await startChatbridge({
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
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
    await service?.close();
    await fake?.close();
  });

  const texts = (chat: number) => fake.visibleMessages(chat).map((message) => message.text);
  const questionsWith = (word: string) => service.questions.filter((question) => question.includes(word));

  it('answers three bubbles written within a second once, with all three in the one question', async () => {
    const from = user(6101);
    for (const text of ['hi 6101', "I'm looking for", 'a 3 bedroom in Austin'])
      fake.userSends({ chat: from.id, from, text });
    await fake.waitFor(() => texts(from.id).length > 0, { ...ANSWER, what: 'the answer' });
    const asked = questionsWith('hi 6101');
    expect(asked).toEqual(["hi 6101\nI'm looking for\na 3 bedroom in Austin"]);
    await fake.waitFor(() => texts(from.id).at(-1)!.endsWith('in Austin'), { ...ANSWER, what: 'the whole answer' });
    expect(texts(from.id)).toEqual([`You asked: ${asked[0]}`]);
  }, 60_000);

  it('answers two messages written during an answer together, next', async () => {
    const from = user(6102);
    const held = service.holdNextAnswer(1);
    fake.userSends({ chat: from.id, from, text: 'first 6102' });
    await held.reached;
    fake.userSends({ chat: from.id, from, text: 'second 6102' });
    fake.userSends({ chat: from.id, from, text: 'third 6102' });
    // Both are queued (in Redis, behind the answer being written) before the answer goes on.
    const queue = gatewayKeys.queue({ bot: 'main', platform: 'telegram', id: String(from.id) });
    await until(async () => (await state.listLength(queue)) === 3, 'the two queued behind the answer');
    held.release();
    await fake.waitFor(() => questionsWith('6102').length === 2 && texts(from.id).length === 2, {
      ...ANSWER,
      what: 'the second answer',
    });
    expect(questionsWith('6102')).toEqual(['first 6102', 'second 6102\nthird 6102']);
  }, 60_000);

  it('answers a message edited before its answer started in its edited form', async () => {
    const from = user(6103);
    const sent = fake.userSends({ chat: from.id, from, text: 'a 2 bedrom in Austin 6103' });
    fake.userEdits({ chat: from.id, messageId: sent.message.message_id, text: 'a 3 bedroom in Austin 6103' });
    await fake.waitFor(() => texts(from.id).some((text) => text.endsWith('6103')), { ...ANSWER, what: 'the answer' });
    expect(
      questionsWith('6103'),
      gateway
        .log()
        .split('\n')
        .filter((l) => /edit|revis/i.test(l))
        .join('\n'),
    ).toEqual(['a 3 bedroom in Austin 6103']);
  }, 60_000);

  it('sends a reply to a listing with the listing as its context', async () => {
    const from = user(6104);
    fake.userSends({ chat: from.id, from, text: '/listings' });
    await fake.waitFor(() => texts(from.id).some((text) => text.includes('1200 Barton Springs Rd')), {
      ...ANSWER,
      what: 'the listings',
    });
    const listing = fake.visibleMessages(from.id).find((message) => message.text.includes('1200 Barton Springs Rd'))!;
    fake.userSends({ chat: from.id, from, text: 'how much is this one? 6104', reply_to_message: listing.message_id });
    await fake.waitFor(() => questionsWith('6104').length === 1, { ...ANSWER, what: 'the question' });
    const [question] = questionsWith('6104');
    expect(question).toMatch(/^\[In reply to the assistant's message: "[^\n]*1200 Barton Springs Rd[^\n]*"\]\n/);
    expect(question!.endsWith('\nhow much is this one? 6104')).toBe(true);
  }, 60_000);

  it('stops an answer being written at /stop, closes the stream, and answers the next question normally', async () => {
    const from = user(6105);
    const held = service.holdNextAnswer(2);
    fake.userSends({ chat: from.id, from, text: 'tell me everything 6105' });
    await held.reached;
    // As a user does: the answer is seen being written, then stopped.
    await fake.waitFor(() => fake.drafts(from.id).some((draft) => draft.text.startsWith('You asked:')), {
      ...ANSWER,
      what: 'the answer being written',
    });
    fake.userSends({ chat: from.id, from, text: '/stop' });
    await fake.waitFor(() => texts(from.id).some((text) => text.endsWith(userTexts.stoppedNote)), {
      ...ANSWER,
      what: 'the stopped answer',
    });
    const stopped = texts(from.id).find((text) => text.endsWith(userTexts.stoppedNote))!;
    expect(stopped.startsWith('You asked: ')).toBe(true);
    // The service's stream was closed by the gateway, not finished: nothing of it is still being written.
    await fake.waitFor(() => service.answersInProgress === 0, { ...ANSWER, what: 'the stream closed' });
    fake.userSends({ chat: from.id, from, text: 'and now? 6105' });
    await fake.waitFor(() => texts(from.id).at(-1) === 'You asked: and now? 6105', { ...ANSWER, what: 'the next' });
    // The /stop that stopped something says nothing more of its own.
    expect(texts(from.id)).not.toContain(userTexts.nothingToStop);
    held.release();
  }, 60_000);

  it('says so when /stop finds nothing being written', async () => {
    const from = user(6106);
    fake.userSends({ chat: from.id, from, text: '/stop' });
    await fake.waitFor(() => texts(from.id).includes(userTexts.nothingToStop), { ...ANSWER, what: 'the reply' });
  }, 60_000);
});
