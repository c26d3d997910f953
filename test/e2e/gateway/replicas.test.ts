/**
 * Issue #13, replicas: two `chatbridge start` processes in Telegram webhook mode on
 * one Redis, behind a round-robin load balancer. Telegram posts 500 conversations x
 * 4 messages; one replica is killed (SIGKILL) mid-run, half the messages before the kill and half after, and the
 * load balancer keeps sending it its share (502, Telegram posts them again). Every message is answered,
 * in order within its conversation, and none is lost; once, but for an answer the
 * killed replica had sent in the instant before the kill (see below).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../../fakes/round-robin-proxy.js';
import { startScriptedService, type ScriptedService } from '../../support/delivery-gateway.js';
import { replicaSet, type ReplicaSet } from '../../support/replicas.js';

const CONVERSATIONS = 500;
const MESSAGES_EACH = 4;
const FIRST_CHAT = 810_000;

const question = (chat: number, n: number) => `Question ${n} from ${chat}`;
const answer = (text: string) => `Answer to: ${text}`;

describe('two replicas behind a load balancer (chatbridge start, as processes)', () => {
  let fake: FakeTelegram;
  let service: ScriptedService;
  let proxy: RoundRobinProxy;
  let replicas: ReplicaSet;

  afterEach(async () => {
    await replicas?.cleanup();
    await proxy?.close();
    await service?.close();
    await fake?.close();
  });

  it('answers 500 conversations x 4 messages in order and loses none, with one replica killed mid-run', async () => {
    // As Telegram: several webhook connections at once, one update of a chat at a time; no flood limits here.
    fake = await startFakeTelegram({ rateLimit: false, webhookConnections: 40, webhookRetryDelayMs: 50 });
    service = await startScriptedService((text) => ({ fragments: [answer(text)] }));
    proxy = await startRoundRobinProxy();
    replicas = replicaSet({
      telegram: { token: fake.token, apiRoot: fake.apiRoot },
      webhookUrl: proxy.url,
      upstreamUrl: service.url,
      // The killed replica's conversations are taken over within seconds; not sooner, so that a
      // replica slowed down by the load (both share the machine with this test, and in a full run
      // with the other test files) keeps its locks: at 6 s a full run once saw 3 conversations with
      // an answer out of place, a live replica having lost a lock mid-answer (see the #13 note).
      gateway: { lockTtlMs: 15_000, heartbeatMs: 3_000, sweepIntervalMs: 1_000 },
    });
    const [first, second] = [await replicas.start(), await replicas.start()];
    proxy.setBackends([first.port, second.port]);

    const chats = Array.from({ length: CONVERSATIONS }, (_, i) => FIRST_CHAT + i);
    const userSends = (n: number) => {
      for (const chat of chats)
        fake.userSends({ chat, from: { id: chat, first_name: `User ${chat}` }, text: question(chat, n) });
    };
    // Half the messages first: the webhook takes them faster than they are answered, so by the kill the
    // dead replica holds queues and locks of conversations it has not finished.
    for (let n = 1; n <= MESSAGES_EACH / 2; n++) userSends(n);
    const answered = () => chats.reduce((sum, chat) => sum + fake.visibleMessages(chat).length, 0);
    const total = CONVERSATIONS * MESSAGES_EACH;
    await fake.waitFor(() => answered() >= total / 4, { timeoutMs: 60_000, what: 'a quarter of the answers' });
    second.process.child.kill('SIGKILL');
    // The rest after the kill, so some are certain to reach the dead replica: the load balancer has not
    // noticed and keeps giving it its turn (502 answers, posted again by Telegram to the live one).
    for (let n = MESSAGES_EACH / 2 + 1; n <= MESSAGES_EACH; n++) userSends(n);
    const last = (chat: number) => fake.visibleMessages(chat).at(-1)?.text;
    await fake.waitFor(() => chats.every((chat) => last(chat) === answer(question(chat, MESSAGES_EACH))), {
      timeoutMs: 90_000,
      what: 'the last answer in every conversation',
    });

    expect(proxy.badGateways).toBeGreaterThan(0);
    const expected = (chat: number) => [1, 2, 3, 4].map((n) => answer(question(chat, n)));
    const texts = (chat: number) => fake.visibleMessages(chat).map((message) => message.text);
    // Nothing lost, nothing out of order: each conversation's answers, a repeat right after itself set aside, are its questions' in order.
    const collapsed = (list: string[]) => list.filter((text, i) => text !== list[i - 1]);
    expect(chats.filter((chat) => JSON.stringify(collapsed(texts(chat))) !== JSON.stringify(expected(chat)))).toEqual(
      [],
    );
    // Once each, but for an answer the killed replica had sent and not yet recorded as sent (Telegram's
    // sendMessage has no idempotency key): given again by the replica that took the conversation over,
    // at most one per conversation, since a replica answers one message of a conversation at a time.
    const repeated = chats.filter((chat) => texts(chat).length > MESSAGES_EACH);
    expect(
      repeated.filter((chat) => texts(chat).length > MESSAGES_EACH + 1).map((chat) => ({ chat, texts: texts(chat) })),
    ).toEqual([]);
  }, 180_000);
});
