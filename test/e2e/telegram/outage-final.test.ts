/**
 * Issue #7, item 2: a network error or a 5xx from Telegram while the final answer
 * is delivered is not a refusal. The gateway keeps the answer (and the message
 * queued) and delivers it, complete and once, when Telegram is reachable again.
 */
import { pendingMembers } from '../../../src/gateway/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

const USER = { id: 5151, first_name: 'Noor', username: 'noor' };
const FRAGMENTS = [
  'Here are the homes for sale in Austin that match what you asked for. ',
  'First, 1812 Elm St: three bedrooms, two baths, a large garden. ',
  'Second, 300 Bowie St: a loft downtown with a view of the river. ',
  'Third, 77 Oak Ave: a family house near good schools. ',
  'Ask me about any of them for the details.',
];
const FULL_ANSWER = FRAGMENTS.join('').trim();

describe('the final answer while Telegram is unreachable (chatbridge start, as a process)', () => {
  let fake: FakeTelegram;
  let proxy: TcpProxy;
  let service: ScriptedService;
  let gateway: DeliveryGateway | undefined;

  beforeEach(async () => {
    fake = await startFakeTelegram();
    proxy = await startTcpProxy({ port: Number(new URL(fake.apiRoot).port) });
    // Slow enough that the connection can be cut while the answer is still being written.
    service = await startScriptedService(() => ({ fragments: FRAGMENTS, gapMs: 600 }));
    gateway = await startDeliveryGateway({
      telegram: { token: fake.token, apiRoot: proxy.url },
      upstreamUrl: service.url,
    });
  }, 30_000);

  afterEach(async () => {
    await gateway?.cleanup();
    await proxy.close();
    await service.close();
    await fake.close();
  });

  const finalAnswers = () =>
    fake.visibleMessages(USER.id).filter((message) => message.text.includes('Ask me about any of them'));

  it('keeps the final answer through a cut connection and delivers it, complete and once, when Telegram comes back', async () => {
    fake.userSends({ chat: USER.id, from: USER, text: 'Homes for sale in Austin?' });
    await fake.waitFor(() => fake.drafts(USER.id).length > 0, {
      timeoutMs: 20_000,
      what: 'the first draft of the answer',
    });
    await proxy.cut();
    // The answer is complete on the gateway's side, and its delivery fails for want of a connection.
    await waitForLog(gateway!.process, /the platform is unreachable; keeping the final answer/);
    expect(fake.visibleMessages(USER.id)).toEqual([]);
    await proxy.restore();

    await fake.waitFor(() => finalAnswers().length > 0, {
      timeoutMs: 60_000,
      what: 'the final answer after Telegram came back',
    });
    // The turn is over once its message left the queue: nothing more will be sent for it.
    await until(async () => (await pendingMembers(gateway!.state)).length === 0, 'the queue to be empty');
    expect(fake.visibleMessages(USER.id).map((message) => message.text)).toEqual([FULL_ANSWER]);
    expect(gateway!.process.log()).not.toContain('the platform refused our reply');
  }, 90_000);

  it('delivers the final answer complete and once after Telegram answered 502 Bad Gateway to it several times', async () => {
    fake.failNext('sendMessage', { errorCode: 502 }, 3);
    fake.userSends({ chat: USER.id, from: USER, text: 'Homes for sale in Austin?' });

    await fake.waitFor(() => finalAnswers().length > 0, { timeoutMs: 60_000, what: 'the final answer after the 502s' });
    await until(async () => (await pendingMembers(gateway!.state)).length === 0, 'the queue to be empty');
    expect(
      fake.chatLog(USER.id).filter((call) => call.method === 'sendMessage' && call.errorCode === 502),
    ).toHaveLength(3);
    expect(fake.visibleMessages(USER.id).map((message) => message.text)).toEqual([FULL_ANSWER]);
    expect(gateway!.process.log()).not.toContain('the platform refused our reply');
  }, 90_000);
});
