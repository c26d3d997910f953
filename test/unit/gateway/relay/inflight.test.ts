import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  inflightIndexKey,
  INTERRUPTED_NOTE_SEPARATOR,
  InflightRecorder,
  inflightKey,
  recoverConversation,
  recoverInterruptedAnswers,
  relayAnswer,
} from '../../../../src/gateway/relay/index.js';
import { userTexts, userTextsFor } from '../../../../src/gateway/index.js';
import { silentLogger } from '../../../../src/logger.js';
import type { StateStore } from '../../../../src/state/index.js';
import { isolatedRedisStore, testRedisClusterNodes, type TestTopology } from '../../../support/redis.js';
import { conversationTag } from '../../../../src/gateway/state-keys.js';
import {
  LONG_ANSWER,
  answerStream,
  asker,
  capabilities,
  conversation,
  eventually,
  fragmentsOf,
  request,
  squash,
} from './support/answers.js';
import { RecordingPlatform } from './support/recording-platform.js';

const logger = silentLogger();
const TEN_MINUTES = 10 * 60 * 1000;
/** A process on another machine that stopped ten minutes ago. */
const goneProcess = { host: 'gateway-that-crashed', pid: 4242, boot: 'previous-boot' };
const NOTE = userTexts.interruptedNote;
/** The note as it follows the half-shown answer. */
const INTERRUPTED_NOTE = `${INTERRUPTED_NOTE_SEPARATOR}${NOTE}`;
/** What arrives of an answer before its turn is cut off: finished sentences, so a native stream shows them. */
const HALF_ANSWER = 'Here are three homes that match what you asked for. The first is a two-bedroom condo downtown. ';

/** Counts the writes that reach the store (each `atomic` is one round trip). */
function countingWrites(store: StateStore): { store: StateStore; writes: () => number } {
  let writes = 0;
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'atomic') {
        return (...args: Parameters<StateStore['atomic']>) => {
          writes++;
          return target.atomic(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: counted, writes: () => writes };
}

/** One Redis, and the test cluster when the global setup has one. */
const TOPOLOGIES: TestTopology[] = testRedisClusterNodes().length > 0 ? ['single', 'cluster'] : ['single'];

describe.each(TOPOLOGIES)('in-flight answers on Redis (%s)', (topology) => {
  let state: ReturnType<typeof isolatedRedisStore>;
  beforeEach(() => {
    // Refuses a MULTI across slots on one Redis too, as a cluster would.
    state = isolatedRedisStore('relay-inflight', { topology, checkSlots: true });
  });
  afterEach(async () => {
    await state.cleanup();
  });

  it('are recorded while the answer is shown and forgotten once the final is delivered', async () => {
    const platform = new RecordingPlatform();
    let recordedMidway: Record<string, string> = {};
    async function* answer() {
      yield* answerStream(fragmentsOf(LONG_ANSWER.slice(0, 80)), { final: null });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const [entry] = await state.sortedRangeByScore(inflightIndexKey(conversationTag(conversation)), 0, Date.now());
      recordedMidway = await state.hashGetAll(inflightKey(conversationTag(conversation), entry!.member));
      yield* answerStream(fragmentsOf(LONG_ANSWER.slice(80)));
    }
    await relayAnswer(request(platform, answer(), {}, { inflight: new InflightRecorder(state) }));

    expect(JSON.parse(recordedMidway.conversation!)).toEqual(conversation);
    expect(JSON.parse(recordedMidway.messageIds!)).toEqual(['1']);
    expect(
      await state.sortedRangeByScore(inflightIndexKey(conversationTag(conversation)), 0, Number.POSITIVE_INFINITY),
    ).toEqual([]);
    expect(await state.deleteByPrefix('inflight:')).toBe(0);
  });

  it('cost one write with the first message and one to end', async () => {
    const platform = new RecordingPlatform();
    const { store, writes } = countingWrites(state);
    await relayAnswer(
      request(platform, answerStream(fragmentsOf(LONG_ANSWER)), {}, { inflight: new InflightRecorder(store) }),
    );

    expect(platform.count('send')).toBe(1);
    expect(writes()).toBe(2);
  });

  it('written as drafts leave no record and cost no write: until the final there is no message to recover', async () => {
    const platform = new RecordingPlatform();
    const { store, writes } = countingWrites(state);
    const answer = request(
      platform,
      answerStream(fragmentsOf(LONG_ANSWER)),
      { draft: true },
      { inflight: new InflightRecorder(store) },
    );
    await relayAnswer(answer);

    expect(platform.count('draft')).toBeGreaterThan(0);
    expect(writes()).toBe(0);
    expect(
      await state.sortedRangeByScore(
        inflightIndexKey(conversationTag(conversation)),
        Number.NEGATIVE_INFINITY,
        Number.POSITIVE_INFINITY,
      ),
    ).toEqual([]);
  });

  it('of a crashed process are recovered: the half message gets the note, the record goes', async () => {
    const platform = new RecordingPlatform();
    const halfMessage = await platform.send(conversation, { text: 'Here are three homes that match' });
    const crashed = new InflightRecorder(state, { owner: goneProcess, now: () => Date.now() - TEN_MINUTES });
    const answer = crashed.begin(conversation, logger);
    answer.messageCreated(halfMessage, 'Here are three homes that match');
    // The process dies here: no finish().
    await answer.settled();

    const recovered = await recoverInterruptedAnswers({
      state,
      outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
      logger,
    });

    expect(recovered).toBe(1);
    expect(platform.messages.get(halfMessage.id)).toBe(`Here are three homes that match${INTERRUPTED_NOTE}`);
    expect(await state.hashGetAll(inflightKey(conversationTag(conversation), answer.id))).toEqual({});
    expect(
      await state.sortedRangeByScore(inflightIndexKey(conversationTag(conversation)), 0, Number.POSITIVE_INFINITY),
    ).toEqual([]);
  });

  it('that failed mid-stream are finished with the failure: no "interrupted" note follows the failure reply', async () => {
    const platform = new RecordingPlatform();
    const failing = answerStream(fragmentsOf(LONG_ANSWER.slice(0, 120)), {
      failWith: new Error('upstream connection reset'),
    });
    await expect(
      relayAnswer(request(platform, failing, {}, { inflight: new InflightRecorder(state) })),
    ).rejects.toThrow('connection reset');
    const shown = platform.messages.get('1')!;

    const recovered = await recoverInterruptedAnswers({
      state,
      outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
      logger,
      olderThanMs: 0,
    });

    expect(recovered).toBe(0);
    expect(platform.messages.get('1')).toBe(shown);
    expect(
      await state.sortedRangeByScore(
        inflightIndexKey(conversationTag(conversation)),
        Number.NEGATIVE_INFINITY,
        Number.POSITIVE_INFINITY,
      ),
    ).toEqual([]);
  });

  it('of a conversation taken over are resolved at once, whoever wrote them and however recent', async () => {
    const platform = new RecordingPlatform();
    const halfMessage = await platform.send(conversation, { text: 'Here are three homes that match' });
    // A process that is still alive but lost the conversation (its lock expired): the age rules would wait.
    const lostLock = new InflightRecorder(state, { owner: { host: 'other-live-gateway', pid: 7, boot: 'running' } });
    const answer = lostLock.begin(conversation, logger);
    answer.messageCreated(halfMessage, 'Here are three homes that match');
    await answer.settled();
    const options = { state, outboundFor: () => ({ outbound: platform, capabilities: capabilities() }), logger };

    expect(await recoverConversation(options, { ...conversation, id: 'another-chat' })).toBe(0);
    expect(await recoverConversation(options, conversation)).toBe(1);

    expect(platform.messages.get(halfMessage.id)).toBe(`Here are three homes that match${INTERRUPTED_NOTE}`);
    expect(await state.hashGetAll(inflightKey(conversationTag(conversation), answer.id))).toEqual({});
    expect(await recoverInterruptedAnswers({ ...options, olderThanMs: 0 })).toBe(0);
    expect(await recoverConversation(options, conversation)).toBe(0);
  });

  it("are noted in the conversation's chatbot's language", async () => {
    const platform = new RecordingPlatform();
    const halfMessage = await platform.send(conversation, { text: 'Aquí hay tres casas' });
    const lostLock = new InflightRecorder(state, { owner: { host: 'other-live-gateway', pid: 7, boot: 'running' } });
    const answer = lostLock.begin(conversation, logger);
    answer.messageCreated(halfMessage, 'Aquí hay tres casas');
    await answer.settled();
    const spanish = userTextsFor('Spanish');
    const asked: unknown[] = [];
    const options = {
      state,
      outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
      logger,
      textsOf: async (of: unknown) => {
        asked.push(of);
        return spanish;
      },
    };

    expect(await recoverConversation(options, conversation)).toBe(1);

    expect(platform.messages.get(halfMessage.id)).toBe(
      `Aquí hay tres casas${INTERRUPTED_NOTE_SEPARATOR}(Esta respuesta se interrumpió. El mensaje se responderá de nuevo.)`,
    );
    expect(asked).toEqual([conversation]);
  });

  describe('while the platform cannot take the note yet (unreachable, a WhatsApp standby without the browser)', () => {
    /**
     * A half answer on screen, recorded by a process that lost the conversation (or by `writer`);
     * the platform then goes unreachable.
     */
    async function halfAnswerLeftBehind(
      platform: RecordingPlatform,
      writer = new InflightRecorder(state, { owner: { host: 'other-live-gateway', pid: 7, boot: 'running' } }),
    ) {
      const halfMessage = await platform.send(conversation, { text: 'Here are three homes that match' });
      const answer = writer.begin(conversation, logger);
      answer.messageCreated(halfMessage, 'Here are three homes that match');
      await answer.settled();
      platform.world.reachable = false;
      return { halfMessage, recordKey: inflightKey(conversationTag(conversation), answer.id) };
    }
    const recorded = () =>
      state.sortedRangeByScore(
        inflightIndexKey(conversationTag(conversation)),
        Number.NEGATIVE_INFINITY,
        Number.POSITIVE_INFINITY,
      );

    it("the holder of the conversation waits for it by the answer's retry rule, and the note comes once the platform is back", async () => {
      const platform = new RecordingPlatform();
      const { halfMessage, recordKey } = await halfAnswerLeftBehind(platform);
      const options = { state, outboundFor: () => ({ outbound: platform, capabilities: capabilities() }), logger };

      const recovering = recoverConversation(options, conversation, new AbortController().signal);
      await eventually(() => platform.count('edit', 'unreachable') > 0);
      platform.world.reachable = true;

      expect(await recovering).toBe(1);
      expect(platform.messages.get(halfMessage.id)).toBe(`Here are three homes that match${INTERRUPTED_NOTE}`);
      // Edited into the half answer: no note of its own.
      expect(platform.count('send')).toBe(1);
      expect(await state.hashGetAll(recordKey)).toEqual({});
    });

    it("a run that holds no conversation does not wait: the record is kept, and the conversation's next holder gives the note", async () => {
      const platform = new RecordingPlatform();
      // Its process crashed ten minutes ago: well within the hour the platform is waited for.
      const { halfMessage } = await halfAnswerLeftBehind(
        platform,
        new InflightRecorder(state, { owner: goneProcess, now: () => Date.now() - TEN_MINUTES }),
      );
      const options = { state, outboundFor: () => ({ outbound: platform, capabilities: capabilities() }), logger };

      expect(await recoverInterruptedAnswers(options)).toBe(0);
      expect(platform.count('edit', 'unreachable')).toBe(1);
      expect(await recorded()).toHaveLength(1);
      expect(platform.messages.get(halfMessage.id)).toBe('Here are three homes that match');

      platform.world.reachable = true;
      expect(await recoverConversation(options, conversation, new AbortController().signal)).toBe(1);
      expect(platform.messages.get(halfMessage.id)).toBe(`Here are three homes that match${INTERRUPTED_NOTE}`);
      expect(await recorded()).toEqual([]);
    });

    it('a holder that loses the conversation while the note waits leaves it to the next holder', async () => {
      const platform = new RecordingPlatform();
      const { halfMessage } = await halfAnswerLeftBehind(platform);
      const options = { state, outboundFor: () => ({ outbound: platform, capabilities: capabilities() }), logger };
      const lock = new AbortController();

      const recovering = recoverConversation(options, conversation, lock.signal);
      await eventually(() => platform.count('edit', 'unreachable') > 0);
      lock.abort(new Error('the conversation lock expired'));
      expect(await recovering).toBe(0);
      expect(await recorded()).toHaveLength(1);

      platform.world.reachable = true;
      expect(await recoverConversation(options, conversation, new AbortController().signal)).toBe(1);
      expect(platform.messages.get(halfMessage.id)).toBe(`Here are three homes that match${INTERRUPTED_NOTE}`);
      expect([...platform.messages.values()].filter((text) => text.includes(NOTE))).toHaveLength(1);
    });

    it('past the outage horizon the note is given up, as the answer would be', async () => {
      const platform = new RecordingPlatform();
      const { halfMessage, recordKey } = await halfAnswerLeftBehind(platform);
      const options = {
        state,
        outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
        logger,
        outageHorizonMs: 0,
      };

      expect(await recoverConversation(options, conversation, new AbortController().signal)).toBe(0);

      expect(platform.messages.get(halfMessage.id)).toBe('Here are three homes that match');
      expect(await state.hashGetAll(recordKey)).toEqual({});
      expect(await recorded()).toEqual([]);
    });

    it('a run that holds no conversation gives up a note whose answer was last shown longer ago than the horizon', async () => {
      const platform = new RecordingPlatform();
      const { recordKey } = await halfAnswerLeftBehind(
        platform,
        new InflightRecorder(state, { owner: goneProcess, now: () => Date.now() - TEN_MINUTES }),
      );

      const options = {
        state,
        outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
        logger,
        outageHorizonMs: TEN_MINUTES / 2,
      };
      expect(await recoverInterruptedAnswers(options)).toBe(0);

      expect(await state.hashGetAll(recordKey)).toEqual({});
      expect(await recorded()).toEqual([]);
    });
  });

  it('of a native stream left open by a crashed process are ended with the note: nothing stays "writing…", and no note of its own', async () => {
    const platform = new RecordingPlatform();
    const stream = await platform.startStream(conversation, asker, 'Here are three homes that match. ');
    const crashed = new InflightRecorder(state, { owner: goneProcess, now: () => Date.now() - TEN_MINUTES });
    const answer = crashed.begin(conversation, logger);
    answer.streamStarted(stream.id);
    answer.textShown('Here are three homes that match.');
    // The process dies here: the stream was never stopped.
    await answer.settled();

    expect(
      await recoverInterruptedAnswers({
        state,
        outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
        logger,
      }),
    ).toBe(1);

    expect(platform.streamOpen()).toBe(false);
    expect([...platform.messages.values()]).toEqual([`Here are three homes that match. ${INTERRUPTED_NOTE}`]);
    expect(platform.count('send')).toBe(0);
  });

  it('of a native stream no longer open (ended already, or expired by the platform) get the note as a message of its own', async () => {
    const platform = new RecordingPlatform();
    const stream = await platform.startStream(conversation, asker, 'Here are three homes that match.');
    await stream.stop('');
    const crashed = new InflightRecorder(state, { owner: goneProcess, now: () => Date.now() - TEN_MINUTES });
    const answer = crashed.begin(conversation, logger);
    answer.streamStarted(stream.id);
    await answer.settled();

    expect(
      await recoverInterruptedAnswers({
        state,
        outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
        logger,
      }),
    ).toBe(1);

    expect([...platform.messages.values()]).toEqual(['Here are three homes that match.', NOTE]);
    expect(
      await state.sortedRangeByScore(
        inflightIndexKey(conversationTag(conversation)),
        Number.NEGATIVE_INFINITY,
        Number.POSITIVE_INFINITY,
      ),
    ).toEqual([]);
  });

  it('of a native stream that fell back to edits: the stream is ended, and the note goes on the last message', async () => {
    const platform = new RecordingPlatform();
    const stream = await platform.startStream(conversation, asker, 'Here are three');
    const continued = await platform.send(conversation, { text: 'Here are three homes that match' });
    const crashed = new InflightRecorder(state, { owner: goneProcess, now: () => Date.now() - TEN_MINUTES });
    const answer = crashed.begin(conversation, logger);
    answer.streamStarted(stream.id);
    answer.messageCreated(continued, 'Here are three homes that match');
    await answer.settled();

    expect(
      await recoverInterruptedAnswers({
        state,
        outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
        logger,
      }),
    ).toBe(1);

    expect(platform.streamOpen()).toBe(false);
    expect([...platform.messages.values()]).toEqual([
      'Here are three',
      `Here are three homes that match${INTERRUPTED_NOTE}`,
    ]);
  });

  it.each([
    ['edit', {}, 'send', 'on the half answer'],
    ['native', { startStream: true }, 'startStream', 'on the half answer'],
    ['draft', { draft: true }, 'draft', 'on the half answer'],
    // Without edits the note cannot join the half answer: it follows it.
    ['buffered (typing only)', { edit: false }, undefined, 'after the half answer'],
  ] as const)(
    'cut off mid-answer (%s): the process answering again puts the note %s, and nothing stays "writing…"',
    async (_renderer, shape, firstShownBy, where) => {
      const platform = new RecordingPlatform();
      const controller = new AbortController();
      async function* cutOffMidAnswer() {
        yield* answerStream(fragmentsOf(HALF_ANSWER), { final: null });
        // The gateway stops (or loses the lock) once the answer shows; at once where nothing shows before the final.
        if (firstShownBy) await eventually(() => platform.count(firstShownBy) > 0);
        controller.abort();
        await new Promise(() => undefined);
      }
      await relayAnswer(
        request(platform, cutOffMidAnswer(), shape, {
          inflight: new InflightRecorder(state),
          signal: controller.signal,
        }),
      );

      const shownBefore = platform.messages.size;
      const takeover = {
        state,
        outboundFor: () => ({ outbound: platform.offering(shape), capabilities: capabilities() }),
        logger,
      };
      expect(await recoverConversation(takeover, conversation)).toBe(1);

      const texts = [...platform.messages.values()];
      expect(texts).toHaveLength(where === 'on the half answer' ? shownBefore : shownBefore + 1);
      expect(platform.streamOpen()).toBe(false);
      expect(texts.filter((text) => text.includes(NOTE))).toHaveLength(1);
      expect(texts.at(-1)?.endsWith(NOTE)).toBe(true);
      // What was shown of the answer is still there, before the note.
      expect(squash(texts.join(' '))).toContain(squash(HALF_ANSWER));
      expect(
        await state.sortedRangeByScore(
          inflightIndexKey(conversationTag(conversation)),
          Number.NEGATIVE_INFINITY,
          Number.POSITIVE_INFINITY,
        ),
      ).toEqual([]);
    },
  );

  it('of a live process elsewhere, or of this process, are left alone even with no age threshold', async () => {
    const platform = new RecordingPlatform();
    const elsewhere = new InflightRecorder(state, { owner: { host: 'other-live-gateway', pid: 7, boot: 'running' } });
    const live = elsewhere.begin(conversation, logger);
    const ours = new InflightRecorder(state).begin(conversation, logger);
    live.textShown('Here are');
    ours.textShown('Here are');
    await live.settled();
    await ours.settled();

    expect(
      await recoverInterruptedAnswers({
        state,
        outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
        logger,
        olderThanMs: 0,
      }),
    ).toBe(0);
    expect(platform.calls).toEqual([]);
    await live.finish();
    await ours.finish();
  });

  it('are recovered once when several processes run recovery at the same time', async () => {
    const platform = new RecordingPlatform();
    const crashed = new InflightRecorder(state, { owner: goneProcess, now: () => Date.now() - TEN_MINUTES });
    for (let i = 0; i < 5; i++) {
      const answer = crashed.begin(conversation, logger);
      answer.textShown(`answer ${i}`);
      await answer.settled();
    }
    const run = () =>
      recoverInterruptedAnswers({
        state,
        outboundFor: () => ({ outbound: platform, capabilities: capabilities() }),
        logger,
      });

    const counts = await Promise.all([run(), run(), run()]);

    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    expect(platform.count('send')).toBe(5);
  });
});
