/**
 * The gateway under a burst, with few answers allowed in flight (gateway.maxAnswersInFlight):
 * a real gateway on real Redis, the in-memory platform, and the scripted Chatbot Service, which
 * counts the answers it is writing at once.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createMemoryAdapter, MemoryPlatform, type MemoryAdapter } from '../../../../fakes/memory/index.js';
import { createGateway, gatewayKeys, type Gateway } from '../../../../src/gateway/index.js';
import { WAITING_FOR_SLOT_MAX } from '../../../../src/gateway/intake/intake.js';
import { monthOf } from '../../../../src/gateway/turn/allowance-step.js';
import { silentLogger } from '../../../../src/logger.js';
import type { ScriptedChatbotService } from '../../../../fakes/chatbot-service/index.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { lockOwner } from '../../../support/lock-owner.js';
import { startEchoService, upstreamClient } from '../../../support/scripted-service.js';
import type { ChatbotSettings } from '../../../../src/upstream/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const store = isolatedRedisStore('turn-slots');
afterAll(() => store.cleanup());

/** Resolves once `check` holds (checked every 10 ms); fails naming `what` after `timeoutMs`. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Process {
  gateway: Gateway;
  /** The service this process asks (each process its own, so a test sees who asked what). */
  service: ScriptedChatbotService;
}

/** One gateway process on the shared Redis with the given adapters and cap. */
/** `settings`: the chatbot's (a MessageLimit makes each turn reserve the month's message as it starts). */
async function startProcess(
  maxAnswersInFlight: number,
  adapters: MemoryAdapter[],
  settings?: ChatbotSettings,
): Promise<Process> {
  const service = await startEchoService();
  const gateway = createGateway({
    state: store,
    upstream: upstreamClient(service),
    bots: [{ id: 'main', serialNumber: 'serial', ...(settings ? { settings } : {}) }],
    adapters,
    logger: silentLogger(),
    // The sweep only when a test asks for it.
    policy: { maxAnswersInFlight, stopGraceMs: 2_000, sweepIntervalMs: 3_600_000, burstMs: 0 },
  });
  await gateway.start();
  cleanups.push(() => gateway.stop());
  return { gateway, service };
}

const platformWith = (name: string) => new MemoryPlatform({ name });

/** A MessageLimit no test reaches: each turn then reserves the month's message in its first batch, and gives it back when it answers nothing. */
const WITH_A_LIMIT = { MessageLimit: 1_000_000 } as ChatbotSettings;

/** The bot's count of messages this month (with a MessageLimit: reserved at each turn's start, given back when nothing is answered). */
const messagesThisMonth = async () =>
  Number((await store.get(gatewayKeys.monthly('serial', monthOf(new Date(), undefined)))) ?? 0);

const answered = (platform: MemoryPlatform, id: string, question: string) =>
  platform.textsIn(id).includes(`You said: ${question}`);

describe('a bounded number of answers in flight per process', () => {
  it('answers every conversation of a burst of 50 with at most 2 answers being written at once', async () => {
    const platform = platformWith('burst');
    const { service } = await startProcess(2, [createMemoryAdapter({ platform })]);
    const release = service.hold();
    const ids = Array.from({ length: 50 }, (_, i) => `chat-${i}`);
    await Promise.all(ids.map((id) => platform.userSends('main', id, `question from ${id}`)));
    // Both slots are used: two answers are being written at once (held by the service).
    await until(() => service.answersInProgress === 2, 'two answers being written at once');
    release();
    await until(() => ids.every((id) => answered(platform, id, `question from ${id}`)), 'every chat answered', 15_000);
    expect(service.asks).toHaveLength(50);
    // And never more than two, held or not.
    expect(service.mostAnswersAtOnce).toBe(2);
  });

  it('starts waiting conversations in the order their messages came', async () => {
    const platform = platformWith('order');
    const { service } = await startProcess(1, [createMemoryAdapter({ platform })]);
    const release = service.hold();
    const ids = ['a', 'b', 'c', 'd', 'e'];
    for (const id of ids) await platform.userSends('main', id, `hello from ${id}`);
    // Only the first is being answered; the others wait without a lock.
    await until(() => service.asks.length === 1, 'the first question asked');
    expect(service.questions).toEqual(['hello from a']);
    expect(await lockOwner(store, { bot: 'main', platform: 'order', id: 'c' })).toBeNull();
    release();
    await until(() => ids.every((id) => answered(platform, id, `hello from ${id}`)), 'every chat answered');
    expect(service.questions).toEqual(ids.map((id) => `hello from ${id}`));
  });

  it('does not let a conversation with several messages hold its slot while another waits: they take turns', async () => {
    const platform = platformWith('turns');
    const { service } = await startProcess(1, [createMemoryAdapter({ platform })]);
    const release = service.hold();
    for (const n of [1, 2, 3]) await platform.userSends('main', 'busy', `busy ${n}`);
    await platform.userSends('main', 'quiet', 'quiet 1');
    release();
    await until(() => answered(platform, 'busy', 'busy 3') && answered(platform, 'quiet', 'quiet 1'), 'both answered');
    expect(service.questions).toEqual(['busy 1', 'quiet 1', 'busy 2', 'busy 3']);
  });

  it('lets another process with a free slot answer a conversation waiting here', async () => {
    const platform = platformWith('shared');
    const busy = await startProcess(1, [createMemoryAdapter({ platform, instance: 'a' })]);
    const free = await startProcess(1, [createMemoryAdapter({ platform, instance: 'b' })]);
    busy.service.hold();
    // The platform delivers to the first process; its one slot is taken by the first chat.
    await platform.userSends('main', 'first', 'first question');
    await platform.userSends('main', 'second', 'second question');
    await until(() => busy.service.asks.length === 1, 'the first question asked');
    expect(busy.service.questions).toEqual(['first question']);
    expect(await free.gateway.sweep()).toBe(1);
    await until(() => answered(platform, 'second', 'second question'), 'the second chat answered by the other process');
    expect(free.service.questions).toEqual(['second question']);
    expect(answered(platform, 'first', 'first question')).toBe(false);
  });

  it('does not answer again a conversation another process answered while it waited here, nor count it against the month', async () => {
    const platform = platformWith('answered-elsewhere');
    const busy = await startProcess(1, [createMemoryAdapter({ platform, instance: 'a' })], WITH_A_LIMIT);
    const free = await startProcess(1, [createMemoryAdapter({ platform, instance: 'b' })], WITH_A_LIMIT);
    const monthBefore = await messagesThisMonth();
    const releaseBusy = busy.service.hold();
    await platform.userSends('main', 'first', 'first question');
    await platform.userSends('main', 'second', 'second question');
    await until(() => busy.service.asks.length === 1, 'the first question asked');
    expect(await free.gateway.sweep()).toBe(1);
    await until(() => answered(platform, 'second', 'second question'), 'the second chat answered by the other process');
    // Its turn comes here now: the claim riding on its first batch finds nothing left to answer.
    releaseBusy();
    await until(() => answered(platform, 'first', 'first question'), 'the first chat answered');
    await until(
      async () =>
        (await store.listLength(gatewayKeys.queue({ bot: 'main', platform: 'answered-elsewhere', id: 'first' }))) === 0,
      'the first answer advanced',
    );
    await busy.gateway.stop();
    expect(busy.service.questions).toEqual(['first question']);
    expect(platform.textsIn('second').filter((text) => text === 'You said: second question')).toHaveLength(1);
    expect((await messagesThisMonth()) - monthBefore).toBe(2);
  });

  it('leaves a conversation to the process answering it when its turn comes here, and gives back what that turn reserved', async () => {
    const platform = platformWith('taken-elsewhere');
    const busy = await startProcess(1, [createMemoryAdapter({ platform, instance: 'a' })], WITH_A_LIMIT);
    const free = await startProcess(1, [createMemoryAdapter({ platform, instance: 'b' })], WITH_A_LIMIT);
    const monthBefore = await messagesThisMonth();
    const releaseBusy = busy.service.hold();
    const releaseFree = free.service.hold();
    await platform.userSends('main', 'first', 'first question');
    await platform.userSends('main', 'second', 'second question');
    await until(() => busy.service.asks.length === 1, 'the first question asked');
    expect(await free.gateway.sweep()).toBe(1);
    await until(() => free.service.asks.length === 1, 'the second question asked by the other process');
    // The other process holds the second chat's lock while its answer is being written.
    releaseBusy();
    await until(() => answered(platform, 'first', 'first question'), 'the first chat answered');
    await until(
      async () =>
        (await store.listLength(gatewayKeys.queue({ bot: 'main', platform: 'taken-elsewhere', id: 'first' }))) === 0,
      'the first answer advanced',
    );
    await busy.gateway.stop();
    releaseFree();
    await until(() => answered(platform, 'second', 'second question'), 'the second chat answered by the other process');
    await until(
      async () =>
        (await store.listLength(gatewayKeys.queue({ bot: 'main', platform: 'taken-elsewhere', id: 'second' }))) === 0,
      'the second answer advanced',
    );
    expect(busy.service.questions).toEqual(['first question']);
    expect(free.service.questions).toEqual(['second question']);
    expect(platform.textsIn('second').filter((text) => text === 'You said: second question')).toHaveLength(1);
    expect((await messagesThisMonth()) - monthBefore).toBe(2);
  });

  it('keeps the messages of waiting conversations queued, and their locks free, when the gateway stops', async () => {
    const platform = platformWith('stopping');
    const { gateway, service } = await startProcess(1, [createMemoryAdapter({ platform })]);
    const release = service.hold();
    await platform.userSends('main', 'first', 'first question');
    await platform.userSends('main', 'second', 'second question');
    const second = { bot: 'main', platform: 'stopping', id: 'second' };
    const stopping = gateway.stop();
    release();
    await stopping;
    expect(await store.listLength(gatewayKeys.queue(second))).toBe(1);
    expect(await lockOwner(store, second)).toBeNull();
  });

  it('makes a polling source wait once the line is full, while a webhook still gets its answer at once; nothing is lost', async () => {
    const polled = platformWith('polled');
    const hooked = platformWith('hooked');
    const { service } = await startProcess(1, [
      createMemoryAdapter({ platform: polled, redeliversOnAcceptFailure: false }),
      createMemoryAdapter({ platform: hooked, redeliversOnAcceptFailure: true }),
    ]);
    const release = service.hold();
    // One chat is being answered; WAITING_FOR_SLOT_MAX - 1 more wait in line, each accept resolving.
    const ids = Array.from({ length: WAITING_FOR_SLOT_MAX }, (_, i) => `chat-${i}`);
    for (const id of ids) await polled.userSends('main', id, `question ${id}`);
    // The line is full now: this message is queued durably, but its accept waits.
    let confirmed = false;
    const last = polled.userSends('main', 'one-more', 'question one-more').then(() => {
      confirmed = true;
    });
    const lastConversation = { bot: 'main', platform: 'polled', id: 'one-more' };
    await until(
      async () => (await store.listLength(gatewayKeys.queue(lastConversation))) === 1,
      'the last message queued',
    );
    // A webhook's accept still resolves once queued.
    await hooked.userSends('main', 'hook', 'question hook');
    expect(confirmed).toBe(false);
    release();
    await last;
    // Waits on the count of answers (cheap to poll), then checks that each chat got its own.
    const chats = [...ids, 'one-more'];
    await until(
      () => polled.messages.length >= chats.length && hooked.messages.length >= 1,
      'every chat answered',
      60_000,
    );
    expect(chats.filter((id) => !answered(polled, id, `question ${id}`))).toEqual([]);
    expect(answered(hooked, 'hook', 'question hook')).toBe(true);
    expect(service.mostAnswersAtOnce).toBe(1);
  }, 90_000); // a thousand answers one at a time: seconds alone, a minute on a loaded machine
});
