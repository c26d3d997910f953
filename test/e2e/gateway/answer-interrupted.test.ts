/**
 * Issue #7, item 5: the last thing a user sees is the truth. An answer the
 * Chatbot Service cuts off mid-stream ends on the failure reply, and no
 * "interrupted, it will be answered again" note follows (the message is not
 * answered again). An answer cut off because its process lost the conversation
 * (frozen past its lock) gets the note before the answer given again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { pendingMembers, replies, userTexts } from '../../../src/gateway/index.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { testRedisClusterNodes, type TestTopology } from '../../support/redis.js';
import {
  FAST_TAKEOVER,
  startDeliveryGateway,
  startScriptedService,
  until,
  type DeliveryGateway,
  type ScriptedService,
} from '../../support/delivery-gateway.js';

const USER = { id: 6262, first_name: 'Ines', username: 'ines' };
const FRAGMENTS = [
  'Here are the homes for sale in Denver that match what you asked for. ',
  'First, 12 Larimer St: two bedrooms and a balcony over the square. ',
  'Second, 400 Colfax Ave: a house with a garden and a garage. ',
  'That is all I have for now.',
];
const NOTE = userTexts.interruptedNote;
/** One Redis, and the test cluster when the global setup has one. */
const TOPOLOGIES: TestTopology[] = testRedisClusterNodes().length > 0 ? ['single', 'cluster'] : ['single'];

describe.each(TOPOLOGIES)('an answer cut short (chatbridge start, as a process, on Redis %s)', (topology) => {
  let fake: FakeTelegram;
  let service: ScriptedService;
  const gateways: DeliveryGateway[] = [];

  afterEach(async () => {
    for (const gateway of gateways.splice(0)) await gateway.cleanup();
    await service.close();
    await fake.close();
  });

  const texts = () => fake.visibleMessages(USER.id).map((message) => message.text);

  it('ends on the failure reply when the service cuts its stream mid-answer, and no "interrupted" note follows, even after a restart', async () => {
    fake = await startFakeTelegram({ drafts: 'refused' });
    service = await startScriptedService(() => ({ fragments: FRAGMENTS, gapMs: 1_500, cutAfter: 2 }));
    const options = {
      telegram: { token: fake.token, apiRoot: fake.apiRoot },
      upstreamUrl: service.url,
      gateway: FAST_TAKEOVER,
      topology,
    };
    const first = await startDeliveryGateway(options);
    gateways.push(first);

    fake.userSends({ chat: USER.id, from: USER, text: 'Homes for sale in Denver?' });
    await fake.waitFor(() => texts().at(-1) === replies.answerCutOff, { timeoutMs: 30_000, what: 'the failure reply' });
    // The half answer was on screen before the reply.
    expect(texts()[0]).toContain('12 Larimer St');
    await until(async () => (await pendingMembers(first.state)).length === 0, 'the message to leave the queue');

    // A new process on the same state runs recovery at start, before it says it is running.
    await first.process.stop();
    const second = await startDeliveryGateway({ ...options, prefix: first.prefix });
    gateways.push(second);
    fake.userSends({ chat: USER.id, from: USER, text: 'Are you there?' });
    await until(() => service.questions.length === 2, 'the next question to reach the service');
    await until(async () => (await pendingMembers(second.state)).length === 0, 'the next message to be answered');

    expect(texts().some((text) => text.includes(NOTE))).toBe(false);
    expect(texts().indexOf(replies.answerCutOff)).toBe(1);
    expect(service.questions).toEqual(['Homes for sale in Denver?', 'Are you there?']);
  }, 120_000);

  it('a process frozen past its lock mid-answer: the half answer gets the note before the answer given again', async () => {
    fake = await startFakeTelegram({ drafts: 'refused' });
    // The first ask stops after two fragments (the process is frozen then); the second is answered in full.
    service = await startScriptedService((_question, askNumber) =>
      askNumber === 1 ? { fragments: FRAGMENTS, gapMs: 300, hangAfter: 2 } : { fragments: FRAGMENTS, gapMs: 100 },
    );
    const gateway = await startDeliveryGateway({
      telegram: { token: fake.token, apiRoot: fake.apiRoot },
      upstreamUrl: service.url,
      gateway: FAST_TAKEOVER,
      topology,
    });
    gateways.push(gateway);

    fake.userSends({ chat: USER.id, from: USER, text: 'Homes for sale in Denver?' });
    await fake.waitFor(() => texts().some((text) => text.includes('12 Larimer St')), {
      timeoutMs: 30_000,
      what: 'the half answer',
    });
    gateway.process.child.kill('SIGSTOP');
    try {
      // Frozen past its lock's lifetime, as under a blocked event loop: once it runs again, its turn stops.
      await sleep(FAST_TAKEOVER.lockTtlMs + 500);
    } finally {
      gateway.process.child.kill('SIGCONT');
    }

    await fake.waitFor(() => texts().some((text) => text.endsWith('That is all I have for now.')), {
      timeoutMs: 30_000,
      what: 'the answer given again',
    });
    const messages = fake.visibleMessages(USER.id);
    const noted = messages.find((message) => message.text.includes(NOTE));
    const answered = messages.find((message) => message.text.endsWith('That is all I have for now.'));
    expect(noted?.text).toContain('12 Larimer St');
    expect(noted!.message_id).toBeLessThan(answered!.message_id);
    // The note was written before the new answer was sent.
    const calls = fake.chatLog(USER.id).filter((call) => call.ok);
    const noteAt = calls.findIndex((call) => call.visibleText?.includes(NOTE));
    const answerAt = calls.findIndex(
      (call) => call.method === 'sendMessage' && call.messageId === answered!.message_id,
    );
    expect(noteAt).toBeGreaterThanOrEqual(0);
    expect(noteAt).toBeLessThan(answerAt);
    expect(service.questions).toHaveLength(2);
  }, 120_000);
});
