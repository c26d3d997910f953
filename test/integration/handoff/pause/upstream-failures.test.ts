/**
 * The upstream failures in a row that hand a conversation to a person (handoff.failureThreshold): the handoff counts
 * them in the conversation's pause hash (src/handoff/pause/pause-store.ts countFailure, from the upstreamFailure
 * listener of src/handoff/pause/triggers.ts), an answer forgets them, and so does a pause's end. The turn's first
 * batch reads that hash anyway, so an answer with nothing counted writes nothing for it. Real Redis throughout.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationMember, gatewayKeys, replies } from '../../../../src/gateway/index.js';
import { handoffKeys } from '../../../../src/handoff/keys.js';
import { EXPIRED_PAUSE_NOTICE_MS, FAILURE_COUNT_TTL_MS } from '../../../../src/handoff/policy.js';
import { PauseStore, type PauseRecord } from '../../../../src/handoff/pause/pause-store.js';
import type { ChatbotServiceApi } from '../../../../src/upstream/api.js';
import { ChatbotServiceClient } from '../../../../src/upstream/index.js';
import type { ConversationRef } from '../../../../src/contract.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { watchCommands } from '../../../support/redis-monitor.js';
import {
  closedPort,
  HANDOFF_REPLY,
  SECRET,
  SESSION_KEY,
  startHandoffProcess,
  startHandoffStack,
  TEST_HANDOFF,
  type HandoffProcess,
  type HandoffStack,
  type ProcessOptions,
} from '../stack.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
const C1 = encodeURIComponent('main:fakechat:c1');
const DAY_MS = 24 * 60 * 60_000;

/** The service, reachable or not as the test says: `down` sends every call to a port nothing listens on. */
function switchableService(up: ChatbotServiceApi, off: ChatbotServiceApi): { api: ChatbotServiceApi; down: boolean } {
  const control = { down: false, api: undefined as unknown as ChatbotServiceApi };
  control.api = new Proxy(up, {
    get(_target, property) {
      const target = control.down ? off : up;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return control;
}

describe('the upstream failures in a row, counted by the handoff', () => {
  let stack: HandoffStack;
  let process: HandoffProcess | undefined;
  let service: { api: ChatbotServiceApi; down: boolean };
  beforeEach(async () => {
    stack = await startHandoffStack('handoff-upstream-failures');
    const unreachable = new ChatbotServiceClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      secretKey: SECRET,
      sessionKey: SESSION_KEY,
      retries: 0,
    });
    service = switchableService(stack.client, unreachable);
  });
  afterEach(async () => {
    await process?.stop();
    process = undefined;
    await stack.close();
  });
  /** Each message the service fails is given up at once (no waiting for it): a failure per message. */
  const start = async (options: Pick<ProcessOptions, 'outbox'> = {}) =>
    (process = await startHandoffProcess({
      ...options,
      state: stack.store,
      upstream: service.api,
      config: {
        smtp: { url: stack.smtp.url, from: 'bot@oakridge.example' },
        handoff: { ...TEST_HANDOFF, failureThreshold: 2 },
      },
      policy: { upstreamOutageHorizonMs: 0 },
    }));
  const hash = (conversation: ConversationRef) => stack.store.hashGetAll(handoffKeys.pause(conversation));
  /** The conversation's queue is empty: its last turn, listeners included, is over and written. */
  const written = (conversation: ConversationRef) =>
    eventually(async () => expect(await stack.store.listLength(gatewayKeys.queue(conversation))).toBe(0));

  it('an answer after a failure forgets the count: the next failure counts from 1, and only the one after hands off', async () => {
    const { adapter } = await start();
    const conversation = adapter.conversation('c1');
    service.down = true;
    await adapter.say('c1', 'Homes in Austin?', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toEqual([replies.upstreamDown]));
    // Counted in the conversation's hash, which holds no pause: forgotten after a quiet day.
    await eventually(async () => expect(await hash(conversation)).toEqual({ upstreamFailures: '1' }));
    const lifetime = await stack.store.ttlMs(handoffKeys.pause(conversation));
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(FAILURE_COUNT_TTL_MS);

    service.down = false;
    await adapter.say('c1', 'Homes in Denver?', ana);
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    // Forgotten with the answer's writes: the hash went with its last field.
    await eventually(async () => expect(await hash(conversation)).toEqual({}));

    service.down = true;
    await adapter.say('c1', 'Hello?', ana);
    await eventually(() => expect(adapter.textsIn('c1').slice(2)).toEqual([replies.upstreamDown]));
    await written(conversation);
    expect(await hash(conversation)).toEqual({ upstreamFailures: '1' });
    expect(adapter.textsIn('c1').slice(2)).toEqual([replies.upstreamDown]);

    await adapter.say('c1', 'Anyone?', ana);
    await eventually(() =>
      expect(adapter.textsIn('c1').slice(2)).toEqual([replies.upstreamDown, replies.upstreamDown, HANDOFF_REPLY]),
    );
    const mail = await eventually(() => {
      expect(stack.smtp.mails).toHaveLength(1);
      return stack.smtp.mails[0]!;
    });
    expect(mail.text).toContain('Why: 2 upstream failures in a row');
    // The pause started from a clean hash: the count is not in it.
    expect((await hash(conversation)).upstreamFailures).toBeUndefined();
  });

  it('a hand-back forgets the failures that led to the handoff: the next one does not hand off again', async () => {
    const { adapter, admin } = await start();
    const conversation = adapter.conversation('c1');
    service.down = true;
    await adapter.say('c1', 'Homes in Austin?', ana);
    await adapter.say('c1', 'Hello?', ana);
    await eventually(() =>
      expect(adapter.textsIn('c1')).toEqual([replies.upstreamDown, replies.upstreamDown, HANDOFF_REPLY]),
    );
    expect(await admin('POST', `/admin/conversations/${C1}/resume`)).toMatchObject({ body: { resumed: true } });
    expect(await hash(conversation)).toEqual({});

    await adapter.say('c1', 'Still down?', ana);
    await eventually(() => expect(adapter.textsIn('c1').slice(4)).toEqual([replies.upstreamDown]));
    await written(conversation);
    expect(await hash(conversation)).toEqual({ upstreamFailures: '1' });
    expect(adapter.textsIn('c1').slice(4)).toEqual([replies.upstreamDown]);
  });

  it('an answer with no failure counted writes nothing for the count: no DEL, no HDEL, as Redis counts commands', async () => {
    const { prefix } = stack.store;
    const watch = await watchCommands(prefix);
    try {
      // No e-mail to send: the outbox's poll (every shard, every 50 ms in these tests) would only hide the answer's commands.
      const { adapter } = await start({ outbox: { pollIntervalMs: 3_600_000 } });
      const conversation = adapter.conversation('c1');
      // Read through the watch's own connection, uncounted.
      const answered = () =>
        eventually(async () =>
          expect([
            await watch.reader.exists(prefix + gatewayKeys.queue(conversation)),
            await watch.reader.hexists(prefix + gatewayKeys.owners(conversation), conversationMember(conversation)),
          ]).toEqual([0, 0]),
        );
      await adapter.say('c1', 'Homes in Austin?', ana);
      await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(1));
      await answered();
      await watch.reset();

      await adapter.say('c1', 'Homes in Denver?', ana);
      await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
      await answered();
      const commands = await watch.seen();
      // The turn read the pause hash (its first batch) and found nothing to forget; the lock goes when the queue is empty.
      expect(commands.map(([name]) => name)).toContain('HGETALL');
      // The lock's own release (its owner field, HDEL) set aside.
      const deleted = commands
        .filter(([name]) => ['DEL', 'UNLINK', 'HDEL'].includes(name!))
        .filter(([name, key]) => !(name === 'HDEL' && key === prefix + gatewayKeys.owners(conversation)))
        .flatMap(([, ...keys]) => keys);
      expect(deleted).toEqual([]);
      console.info(
        'Redis commands run for one answered message, the handoff installed (and a once-a-second month tally, when one fell in):',
        `${commands.length} (${commands.map(([name]) => name).join(', ')})`,
      );
    } finally {
      await watch.close();
    }
  });
});

describe('the count in the pause hash', () => {
  let stack: HandoffStack;
  let conversations = 0;
  beforeEach(async () => {
    stack = await startHandoffStack('handoff-failure-count');
  });
  afterEach(() => stack.close());
  const conversation = (): ConversationRef => ({ bot: 'main', platform: 'fakechat', id: `p${++conversations}` });
  const paused = (of: ConversationRef, hours: number): PauseRecord => ({
    conversation: of,
    handoffId: `h-${of.id}`,
    since: Date.now(),
    expiresAt: Date.now() + hours * 60 * 60_000,
    reason: 'asked',
    isGroup: false,
  });

  it("gives a paused conversation's hash no expiry of its own: the pause keeps its lifetime, and counts", async () => {
    const pauses = new PauseStore(stack.store);
    const of = conversation();
    const record = paused(of, 72);
    await stack.store.atomic(pauses.writeCommands(record));
    const before = await stack.store.ttlMs(handoffKeys.pause(of));
    expect(before).toBeGreaterThan(72 * 60 * 60_000 + EXPIRED_PAUSE_NOTICE_MS - 60_000);

    expect(await pauses.countFailure(of)).toBe(1);
    expect(await pauses.countFailure(of)).toBe(2);
    // Not a day: the pause (72 hours, then the notice's month) is not cut short by a count.
    expect(await stack.store.ttlMs(handoffKeys.pause(of))).toBeGreaterThan(before - 60_000);
    expect(await pauses.read(of)).toMatchObject({ handoffId: record.handoffId });
  });

  it('counted against a read from before a pause started, still leaves the pause its lifetime (compare and set)', async () => {
    const pauses = new PauseStore(stack.store);
    const of = conversation();
    // What the turn read: no pause, no count. A pause starts before the failure is counted.
    const seen = pauses.decodeHash(of, {}).failures;
    await stack.store.atomic(pauses.writeCommands(paused(of, 72)));
    expect(await pauses.countFailure(of, seen)).toBe(1);
    expect(await stack.store.ttlMs(handoffKeys.pause(of))).toBeGreaterThan(72 * 60 * 60_000);
  });

  it('gives a count alone a quiet day, renewed by each failure', async () => {
    const pauses = new PauseStore(stack.store);
    const of = conversation();
    expect(await pauses.countFailure(of)).toBe(1);
    await stack.store.expire(handoffKeys.pause(of), 60_000);
    expect(await pauses.countFailure(of)).toBe(2);
    expect(await stack.store.ttlMs(handoffKeys.pause(of))).toBeGreaterThan(DAY_MS - 60_000);
    expect(await pauses.read(of)).toBeNull();
  });

  it("ends a pause once, and not a hash that holds a count written after that pause's end", async () => {
    const pauses = new PauseStore(stack.store);
    const of = conversation();
    const record = paused(of, 1);
    await stack.store.atomic(pauses.writeCommands(record));
    expect(await pauses.end(record)).toBe(true);
    await pauses.countFailure(of);
    expect(await pauses.end(record)).toBe(false);
    expect(await stack.store.hashGetAll(handoffKeys.pause(of))).toEqual({ upstreamFailures: '1' });
  });
});
