import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { relayAnswer } from '../../../../src/gateway/relay/index.js';
import { userTexts } from '../../../../src/gateway/index.js';
import type { AskStreamEvent } from '../../../../src/upstream/api.js';
import { LONG_ANSWER, answerStream, fragmentsOf, request, squash } from './support/answers.js';
import { RecordingPlatform } from './support/recording-platform.js';

/** A stream whose every event arrived in one read: a short answer, or one the service had ready. */
async function* arrivedAtOnce(fragments: readonly string[]): AsyncGenerator<AskStreamEvent> {
  for (const content of fragments) yield { type: 'fragment', content };
  yield {
    type: 'final',
    questionId: 1,
    answerId: 2,
    answer: fragments.join(''),
    totalToken: 10,
    noAnswer: false,
    incomplete: false,
  };
}

const talkToPerson = [{ label: 'Talk to a person', value: 'handoff' }];

describe('relayAnswer: each renderer ends on the final answer', () => {
  it('edit: sends a first message as soon as there is text, edits it as the answer grows, ends on the final', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER))));

    expect(result.renderer).toBe('edit');
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.count('send')).toBe(1);
    expect(platform.count('edit')).toBeGreaterThan(0);
    expect(platform.maxConcurrentCalls).toBe(1);
  });

  it('edit: marks intermediate renders as progress (a platform may drop them under load), never the final', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER))));

    const okCalls = platform.calls.filter(
      (call) => call.result === 'ok' && (call.kind === 'send' || call.kind === 'edit'),
    );
    const final = okCalls.at(-1)!;
    expect(final.text).toBe(LONG_ANSWER);
    expect(final.progress).toBeUndefined();
    expect(okCalls.slice(0, -1).length).toBeGreaterThan(0);
    for (const call of okCalls.slice(0, -1)) expect(call.progress).toBe(true);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it('edit: intermediate renders grow by whole sentences when the text has sentence ends', async () => {
    const platform = new RecordingPlatform();
    // Sentences here are under 100 characters, so with a 30-character growth step a cut
    // at a sentence end is always in reach before the renderer gives up waiting for one.
    const pacing = { editIntervalMs: { private: 20, group: 20 }, minInitialChars: 10, minGrowthChars: 30 };
    await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER, 3)), {}, { pacing }));

    const intermediate = platform.calls.filter((call) => call.kind === 'edit' && call.result === 'ok').slice(0, -1);
    expect(intermediate.length).toBeGreaterThan(0);
    for (const call of intermediate) expect(call.text).toMatch(/[.!?]$/);
  });

  it('draft: previews the answer in a draft, then sends the final as a real message', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), { draft: true }));

    expect(result.renderer).toBe('draft');
    expect(platform.count('draft')).toBeGreaterThan(0);
    expect(platform.count('edit')).toBe(0);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it('draft refused: the rest of the answer goes by edits and still ends on the final', async () => {
    const platform = new RecordingPlatform({ refuseDrafts: true });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), { draft: true }));

    expect(result.renderer).toBe('edit');
    expect(platform.count('draft', 'unsupported')).toBe(1);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it('native: starts a stream, appends to it, and stops it on the final text', async () => {
    const lines = LONG_ANSWER.split('. ').join('.\n');
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(lines)), { startStream: true }));

    expect(result.renderer).toBe('native');
    expect(platform.count('startStream')).toBe(1);
    expect(platform.count('append')).toBeGreaterThan(0);
    const stop = platform.calls.find((call) => call.kind === 'stop');
    expect(stop?.result).toBe('ok');
    expect(platform.messages.get(stop!.messageId!)).toBe(lines);
  });

  it('native: a single paragraph is appended sentence by sentence', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), { startStream: true }));

    expect(result.renderer).toBe('native');
    const appends = platform.calls.filter((call) => call.kind === 'append' && call.result === 'ok');
    expect(appends.length).toBeGreaterThan(0);
    for (const call of appends) expect(call.text).toMatch(/[.!?]$/);
    const stop = platform.calls.find((call) => call.kind === 'stop');
    expect(platform.messages.get(stop!.messageId!)).toBe(LONG_ANSWER);
  });

  it('native failure: falls back to edits on the first failed append and ends on the final', async () => {
    const lines = LONG_ANSWER.split('. ').join('.\n');
    const platform = new RecordingPlatform({ failNative: 'append' });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(lines)), { startStream: true }));

    expect(result.renderer).toBe('edit');
    expect(platform.count('append', 'other')).toBe(1);
    expect(platform.textsOf(result.messages)).toEqual([lines]);
  });

  it('native refused at start: falls back to edits', async () => {
    const platform = new RecordingPlatform({ failNative: 'start' });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), { startStream: true }));

    expect(result.renderer).toBe('edit');
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it('native stop failing: the stream keeps what it took, and the rest of the answer follows in a new message', async () => {
    const lines = LONG_ANSWER.split('. ').join('.\n');
    const platform = new RecordingPlatform({ failNative: 'stop' });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(lines)), { startStream: true }));

    expect(platform.count('stop', 'other')).toBe(1);
    const streamed = platform.streamedMarkdown() ?? '';
    expect(lines.startsWith(streamed)).toBe(true);
    expect(streamed + platform.textsOf(result.messages).join('')).toBe(lines);
  });

  it('buffered: shows nothing until the final, then sends it once', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), { edit: false }));

    expect(result.renderer).toBe('buffered');
    expect(platform.calls.filter((call) => call.kind !== 'typing').map((call) => call.kind)).toEqual(['send']);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });
});

describe('relayAnswer: an answer whose stream ended before anything was shown', () => {
  it('draft: is sent once as the final message, with no draft before it', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, arrivedAtOnce(fragmentsOf(LONG_ANSWER)), { draft: true }));

    expect(platform.calls.map((call) => call.kind)).toEqual(['send']);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it('edit: is sent once as the final message, not as a first message edited into the final', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, arrivedAtOnce(fragmentsOf(LONG_ANSWER))));

    expect(platform.calls.map((call) => call.kind)).toEqual(['send']);
    expect(platform.calls[0]?.progress).toBeUndefined();
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it('native: is sent once as a message, without opening a stream', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, arrivedAtOnce(fragmentsOf(LONG_ANSWER)), { startStream: true }));

    expect(platform.calls.map((call) => call.kind)).toEqual(['send']);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });
});

describe('relayAnswer: what the final shows', () => {
  it('the final answer is authoritative, even when the fragments said something else', async () => {
    const platform = new RecordingPlatform();
    const authoritative = 'The condo on Main Street is for sale at $350,000. — Your agent';
    const result = await relayAnswer(
      request(
        platform,
        answerStream(['The condo on Main St is for sale at $35', '0,000.'], { final: { answer: authoritative } }),
      ),
    );

    expect(platform.textsOf(result.messages)).toEqual([authoritative]);
  });

  it('a stream that ends without a final shows the fragments joined', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER), { final: null })));

    expect(result.final.incomplete).toBe(true);
    expect(result.final.answer).toBe(LONG_ANSWER);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it('an incomplete final shows the fragments that arrived', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(LONG_ANSWER), { final: { answer: '', incomplete: true } })),
    );

    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it.each([
    ['edit', {}],
    ['buffered', { edit: false }],
    ['draft', { draft: true }],
    ['native', { startStream: true }],
  ] as const)('an empty answer is never sent as an empty message (%s)', async (_renderer, platformCapabilities) => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(
      request(platform, answerStream([], { final: { answer: '  ' } }), platformCapabilities),
    );

    expect(platform.textsOf(result.messages)).toEqual([userTexts.emptyAnswer]);
    expect(platform.calls.every((call) => call.result === 'ok')).toBe(true);
  });

  it('stopping the relay (abort) delivers what arrived so far', async () => {
    const platform = new RecordingPlatform();
    const controller = new AbortController();
    async function* slowAfterTwo() {
      yield { type: 'fragment' as const, content: 'The first part of the answer. ' };
      yield { type: 'fragment' as const, content: 'And a second part.' };
      controller.abort();
      await new Promise(() => undefined);
    }
    const result = await relayAnswer(request(platform, slowAfterTwo(), {}, { signal: controller.signal }));

    expect(result.final.incomplete).toBe(true);
    expect(platform.textsOf(result.messages)).toEqual(['The first part of the answer. And a second part.']);
  });
  it('leaves no abort listener behind on the signal, which a drain shares across every answer of a conversation', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) {
      await relayAnswer(
        request(
          new RecordingPlatform(),
          answerStream(fragmentsOf('A short answer.')),
          {},
          { signal: controller.signal },
        ),
      );
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('relayAnswer: buttons', () => {
  it('are attached to the final message when it is sent (draft, buffered)', async () => {
    for (const platformCapabilities of [{ draft: true }, { edit: false }]) {
      const platform = new RecordingPlatform();
      const result = await relayAnswer(
        request(platform, answerStream(fragmentsOf(LONG_ANSWER)), platformCapabilities, { buttons: talkToPerson }),
      );

      expect(platform.buttonsOf.get(result.messages.at(-1)!.id)).toEqual(talkToPerson);
    }
  });

  it('go with the final edit of the last message when the final was edited into place', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(LONG_ANSWER)), {}, { buttons: talkToPerson }),
    );

    expect(result.renderer).toBe('edit');
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.buttonsOf.get(result.messages.at(-1)!.id)).toEqual(talkToPerson);
    const last = platform.calls.filter((call) => call.kind !== 'typing').at(-1);
    expect(last).toMatchObject({ kind: 'edit', result: 'ok', text: LONG_ANSWER, buttons: talkToPerson });
    expect(platform.calls.some((call) => call.text === userTexts.buttonsMessage)).toBe(false);
  });

  it('are edited in even when the last intermediate already showed the final text', async () => {
    const platform = new RecordingPlatform();
    // One fragment, long enough for a first message: the screen shows the final text before the final arrives.
    const result = await relayAnswer(
      request(platform, answerStream([LONG_ANSWER], { delayMs: 30 }), {}, { buttons: talkToPerson }),
    );

    expect(platform.calls.filter((call) => call.kind === 'send').map((call) => call.text)).toEqual([LONG_ANSWER]);
    expect(platform.buttonsOf.get(result.messages.at(-1)!.id)).toEqual(talkToPerson);
    expect(platform.count('send')).toBe(1);
  });

  it('go on the last message only when the answer spans several', async () => {
    const platform = new RecordingPlatform({ maxMessageLength: 120 });
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(LONG_ANSWER)), {}, { buttons: talkToPerson }),
    );

    expect(result.messages.length).toBeGreaterThan(1);
    expect(squash(platform.textsOf(result.messages).join(' '))).toBe(LONG_ANSWER);
    expect(result.messages.map((message) => platform.buttonsOf.get(message.id))).toEqual([
      ...result.messages.slice(0, -1).map(() => undefined),
      talkToPerson,
    ]);
    expect(platform.calls.some((call) => call.text === userTexts.buttonsMessage)).toBe(false);
  });

  it('come in a message of their own after a native stream, which cannot carry them', async () => {
    const lines = LONG_ANSWER.split('. ').join('.\n');
    const platform = new RecordingPlatform();
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(lines)), { startStream: true }, { buttons: talkToPerson }),
    );

    expect(result.renderer).toBe('native');
    const last = platform.calls.filter((call) => call.kind === 'send').at(-1);
    expect(last).toMatchObject({ text: userTexts.buttonsMessage, buttons: talkToPerson });
  });

  it('come in a message of their own when the platform refuses them on an edit, the text still edited in', async () => {
    const platform = new RecordingPlatform({ refuseButtonsOnEdit: true });
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(LONG_ANSWER)), {}, { buttons: talkToPerson }),
    );

    expect(platform.count('edit', 'unsupported')).toBe(1);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.count('send')).toBe(2);
    const last = platform.calls.filter((call) => call.kind === 'send').at(-1);
    expect(last).toMatchObject({ text: userTexts.buttonsMessage, buttons: talkToPerson });
  });

  it('are retried with the final edit on 429, and never sent separately when the edit carried them', async () => {
    let refusals = 1;
    const platform = new RecordingPlatform({
      rateLimit: (call) => (call.kind === 'edit' && call.text === LONG_ANSWER && refusals-- > 0 ? 10 : undefined),
    });
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(LONG_ANSWER)), {}, { buttons: talkToPerson }),
    );

    expect(platform.buttonsOf.get(result.messages.at(-1)!.id)).toEqual(talkToPerson);
    expect(platform.calls.some((call) => call.text === userTexts.buttonsMessage)).toBe(false);
  });

  it('are left out where the platform has none', async () => {
    const platform = new RecordingPlatform();
    await relayAnswer(
      request(
        platform,
        answerStream(fragmentsOf(LONG_ANSWER)),
        { edit: false, buttons: false },
        { buttons: talkToPerson },
      ),
    );

    expect(platform.calls.some((call) => call.buttons)).toBe(false);
  });
});

describe('relayAnswer: group chats', () => {
  it('use the group pacing and still end on the final', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(
      request(
        platform,
        answerStream(fragmentsOf(LONG_ANSWER)),
        {},
        {
          isGroup: true,
          pacing: { editIntervalMs: { private: 10_000, group: 15 }, minInitialChars: 10, minGrowthChars: 10 },
        },
      ),
    );

    expect(squash(platform.textsOf(result.messages).join(' '))).toBe(LONG_ANSWER);
    expect(platform.count('edit')).toBeGreaterThan(0);
  });
});
