/**
 * Issue #7, "as users expect": while the Chatbot Service is down, a message is
 * not dropped with an apology. It stays queued, the user is told once that the
 * answer will come, and it is answered when the service is back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendingMembers, replies } from '../../../src/gateway/index.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import {
  startDeliveryGateway,
  startScriptedService,
  until,
  waitForLog,
  type DeliveryGateway,
  type ScriptedService,
} from '../../support/delivery-gateway.js';

const USER = { id: 7373, first_name: 'Tomás', username: 'tomas' };

describe('the Chatbot Service down, then back (chatbridge start, as a process)', () => {
  let fake: FakeTelegram;
  let service: ScriptedService;
  let proxy: TcpProxy;
  let gateway: DeliveryGateway | undefined;

  beforeEach(async () => {
    fake = await startFakeTelegram();
    service = await startScriptedService((question) => ({
      fragments: [`You asked: ${question} `, 'Here is the answer.'],
      gapMs: 50,
    }));
    proxy = await startTcpProxy({ port: Number(new URL(service.url).port) });
    gateway = await startDeliveryGateway({
      telegram: { token: fake.token, apiRoot: fake.apiRoot },
      upstreamUrl: proxy.url,
    });
  }, 30_000);

  afterEach(async () => {
    await gateway?.cleanup();
    await proxy.close();
    await service.close();
    await fake.close();
  });

  const texts = () => fake.visibleMessages(USER.id).map((message) => message.text);

  it('keeps the messages, tells the user once that the answer will come, and answers them in order when the service is back', async () => {
    await proxy.cut();
    fake.userSends({ chat: USER.id, from: USER, text: 'Homes in Portland?' });
    fake.userSends({ chat: USER.id, from: USER, text: 'And in Austin?' });
    await fake.waitFor(() => texts().length > 0, { timeoutMs: 20_000, what: 'the waiting note' });
    // Asked again (refused again) at least once more without a second note.
    await waitForLog(gateway!.process, /the Chatbot Service is still unreachable/);
    expect(texts()).toEqual([replies.upstreamWaiting]);

    await proxy.restore();
    await fake.waitFor(() => texts().length === 3, {
      timeoutMs: 60_000,
      what: 'both answers after the service came back',
    });
    await until(async () => (await pendingMembers(gateway!.state)).length === 0, 'the queue to be empty');
    expect(texts()).toEqual([
      replies.upstreamWaiting,
      'You asked: Homes in Portland? Here is the answer.',
      'You asked: And in Austin? Here is the answer.',
    ]);
    expect(texts()).not.toContain(replies.upstreamDown);
  }, 120_000);
});
