/**
 * Issue #7, item 10 (the queue's part): a message whose turn keeps getting cut
 * off (here: the process is frozen past its lock mid-turn, as a blocked event
 * loop would do, again and again) leaves the queue after MAX_TURN_ATTEMPTS with
 * a clear reply, instead of being taken up again for ever.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TURN_ATTEMPTS } from '../../../src/gateway/turn/poison-limit.js';
import { gatewayKeys, replies } from '../../../src/gateway/index.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import {
  FAST_TAKEOVER,
  startDeliveryGateway,
  startScriptedService,
  until,
  type DeliveryGateway,
  type ScriptedService,
} from '../../support/delivery-gateway.js';

const USER = { id: 8484, first_name: 'Ade', username: 'ade' };
const CONVERSATION = { bot: 'main', platform: 'telegram', id: String(USER.id) };

describe('a message that cuts off its turn every time (chatbridge start, as a process)', () => {
  let fake: FakeTelegram;
  let service: ScriptedService;
  let gateway: DeliveryGateway | undefined;

  afterEach(async () => {
    await gateway?.cleanup();
    await service.close();
    await fake.close();
  });

  const texts = () => fake.visibleMessages(USER.id).map((message) => message.text);

  it(`leaves the queue after ${MAX_TURN_ATTEMPTS} attempts with a reply saying so, recorded in the transcript, and the next message is answered`, async () => {
    fake = await startFakeTelegram();
    // The poison question never gets an answer: its turn waits until the process is frozen past its lock.
    service = await startScriptedService((question) =>
      question.startsWith('poison') ? { fragments: [], hangAfter: 0 } : { fragments: [`Answer to: ${question}`] },
    );
    gateway = await startDeliveryGateway({
      telegram: { token: fake.token, apiRoot: fake.apiRoot },
      upstreamUrl: service.url,
      gateway: FAST_TAKEOVER,
    });

    fake.userSends({ chat: USER.id, from: USER, text: 'poison pill' });
    for (let attempt = 1; attempt <= MAX_TURN_ATTEMPTS; attempt++) {
      await until(() => service.questions.length === attempt, `attempt ${attempt} to reach the service`);
      gateway.process.child.kill('SIGSTOP');
      try {
        // Frozen past its lock's lifetime: once it runs again, its turn stops and the message is taken up again.
        await sleep(FAST_TAKEOVER.lockTtlMs + 500);
      } finally {
        gateway.process.child.kill('SIGCONT');
      }
    }

    await fake.waitFor(() => texts().includes(replies.poisonMessage(MAX_TURN_ATTEMPTS)), {
      timeoutMs: 30_000,
      what: 'the poison-message reply',
    });
    expect(service.questions).toEqual(Array(MAX_TURN_ATTEMPTS).fill('poison pill'));
    fake.userSends({ chat: USER.id, from: USER, text: 'a normal question' });
    await fake.waitFor(() => texts().includes('Answer to: a normal question'), {
      timeoutMs: 30_000,
      what: 'the next answer',
    });
    expect(texts()).toEqual([replies.poisonMessage(MAX_TURN_ATTEMPTS), 'Answer to: a normal question']);
    expect(service.questions.filter((question) => question === 'poison pill')).toHaveLength(MAX_TURN_ATTEMPTS);

    const transcript = (await gateway.state.listRange(gatewayKeys.transcript(CONVERSATION), 0, -1)).map(
      (entry) => JSON.parse(entry) as { role: string; text: string },
    );
    expect(transcript.map(({ role, text }) => `${role}: ${text}`).slice(0, 2)).toEqual([
      'user: poison pill',
      `bot: ${replies.poisonMessage(MAX_TURN_ATTEMPTS)}`,
    ]);
  }, 120_000);
});
