import { afterEach, describe, expect, it, vi } from 'vitest';
import { relayAnswer, startTyping, TYPING_DEFER_MS } from '../../../../src/gateway/relay/index.js';
import type { ConversationRef, Outbound } from '../../../../src/contract.js';
import type { AskStreamEvent } from '../../../../src/upstream/api.js';
import {
  LONG_ANSWER,
  answerStream,
  capabilities,
  conversation,
  fragmentsOf,
  request,
  sleep,
} from './support/answers.js';
import { RecordingPlatform } from './support/recording-platform.js';

const SHORT_LIVED_TYPING = { typingLifetimeMs: 30 };
/** Telegram's indicator lasts 5 s: refreshed every 4 s (TYPING_REFRESH_FRACTION). */
const TELEGRAM_TYPING = { typingLifetimeMs: 5_000 };

/** An outbound that only records typing calls; each call ends when the test says (`finishCall`). */
function typingOnly() {
  const calls: ConversationRef[] = [];
  const pending: (() => void)[] = [];
  const outbound = {
    send: () => Promise.reject(new Error('not in this test')),
    typing: (to: ConversationRef) => {
      calls.push(to);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  } satisfies Outbound;
  return { outbound, calls, finishCall: () => pending.shift()?.() };
}

/** The answer begins only after `ms`: a slow service, or a model that thinks first. */
async function* afterPause(ms: number, answer: AsyncIterable<AskStreamEvent>): AsyncGenerator<AskStreamEvent> {
  await sleep(ms);
  yield* answer;
}

describe('typing indicator (startTyping)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is shown only once nothing has been visible for TYPING_DEFER_MS', async () => {
    vi.useFakeTimers();
    const platform = typingOnly();
    const typing = startTyping(platform.outbound, capabilities(TELEGRAM_TYPING), conversation);

    await vi.advanceTimersByTimeAsync(TYPING_DEFER_MS - 1);
    expect(platform.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(platform.calls).toEqual([conversation]);

    platform.finishCall();
    await typing.stop();
  });

  it('names the message being answered to the platform when the caller gives it', async () => {
    vi.useFakeTimers();
    const seen: unknown[][] = [];
    const outbound = {
      send: () => Promise.reject(new Error('not in this test')),
      typing: (...args: unknown[]) => {
        seen.push(args);
        return Promise.resolve();
      },
    } satisfies Outbound;
    const typing = startTyping(outbound, capabilities(TELEGRAM_TYPING), conversation, { replyingTo: 'wamid.HBgM' });
    await vi.advanceTimersByTimeAsync(TYPING_DEFER_MS);
    expect(seen).toEqual([[conversation, { platformMessageId: 'wamid.HBgM' }]]);
    await typing.stop();
  });

  it('is never sent when the answer became visible first (stopped before the delay)', async () => {
    vi.useFakeTimers();
    const platform = typingOnly();
    const typing = startTyping(platform.outbound, capabilities(TELEGRAM_TYPING), conversation);

    await vi.advanceTimersByTimeAsync(TYPING_DEFER_MS / 2);
    await typing.stop();
    await vi.advanceTimersByTimeAsync(TYPING_DEFER_MS * 10);
    expect(platform.calls).toHaveLength(0);
  });

  it('once shown, is refreshed before it expires, and no more once stopped', async () => {
    vi.useFakeTimers();
    const platform = typingOnly();
    const typing = startTyping(platform.outbound, capabilities(TELEGRAM_TYPING), conversation);

    await vi.advanceTimersByTimeAsync(TYPING_DEFER_MS);
    expect(platform.calls).toHaveLength(1);
    platform.finishCall();
    // 5 s lifetime → refreshed every 4 s, so it never blinks out.
    await vi.advanceTimersByTimeAsync(4_000);
    expect(platform.calls).toHaveLength(2);
    platform.finishCall();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(platform.calls).toHaveLength(3);
    platform.finishCall();

    await typing.stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(platform.calls).toHaveLength(3);
  });

  it('never has two calls in flight: a refresh due while one is still running is skipped', async () => {
    vi.useFakeTimers();
    const platform = typingOnly();
    const typing = startTyping(platform.outbound, capabilities(TELEGRAM_TYPING), conversation);

    await vi.advanceTimersByTimeAsync(TYPING_DEFER_MS + 4_000 * 3);
    expect(platform.calls).toHaveLength(1);

    platform.finishCall();
    await typing.stop();
  });

  it('stop() resolves only once the call in flight has finished, so nothing shows after the answer', async () => {
    vi.useFakeTimers();
    const platform = typingOnly();
    const typing = startTyping(platform.outbound, capabilities(TELEGRAM_TYPING), conversation);
    await vi.advanceTimersByTimeAsync(TYPING_DEFER_MS);
    expect(platform.calls).toHaveLength(1);

    let stopped = false;
    const stopping = typing.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stopped).toBe(false);

    platform.finishCall();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('is not sent where the platform has none', async () => {
    vi.useFakeTimers();
    const platform = typingOnly();
    const typing = startTyping(platform.outbound, capabilities({ typingLifetimeMs: 0 }), conversation);

    await vi.advanceTimersByTimeAsync(TYPING_DEFER_MS * 10);
    await typing.stop();
    expect(platform.calls).toHaveLength(0);
  });
});

describe('typing indicator while an answer is relayed', () => {
  it('runs while a slow buffered answer is written and stops when it is delivered', async () => {
    const platform = new RecordingPlatform();
    // Four fragments, each half the deferral apart: nothing is visible for long enough.
    const slowAnswer = answerStream(fragmentsOf(LONG_ANSWER, 100), { delayMs: TYPING_DEFER_MS / 2 });
    await relayAnswer(request(platform, slowAnswer, { edit: false, ...SHORT_LIVED_TYPING }));

    const kinds = platform.calls.map((call) => call.kind);
    expect(kinds.filter((kind) => kind === 'typing').length).toBeGreaterThanOrEqual(2);
    expect(kinds.at(-1)).toBe('send');
    await sleep(100);
    expect(platform.calls.at(-1)?.kind).toBe('send');
  });

  it('shows while a slow answer has not begun, and stops when its first message appears', async () => {
    const platform = new RecordingPlatform();
    const slowToStart = afterPause(TYPING_DEFER_MS + 100, answerStream(fragmentsOf(LONG_ANSWER, 10), { delayMs: 10 }));
    await relayAnswer(request(platform, slowToStart, SHORT_LIVED_TYPING));

    const firstSend = platform.calls.findIndex((call) => call.kind === 'send');
    expect(platform.calls.slice(0, firstSend).some((call) => call.kind === 'typing')).toBe(true);
    expect(platform.calls.slice(firstSend).some((call) => call.kind === 'typing')).toBe(false);
    expect(platform.maxConcurrentCalls).toBe(1);
  });

  it('is never sent for an answer that is visible before the deferral ends', async () => {
    const platform = new RecordingPlatform();
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER, 10)), SHORT_LIVED_TYPING));
    // Long enough for an indicator that was wrongly left running to show up.
    await sleep(TYPING_DEFER_MS + 100);

    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.count('typing')).toBe(0);
  });
});
