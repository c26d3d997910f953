import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../../../src/contract.js';
import { relayAnswer } from '../../../../src/gateway/relay/index.js';
import { LAST_RESORT_ATTEMPTS } from '../../../../src/gateway/reply/platform-retry.js';
import { LONG_ANSWER, answerStream, fragmentsOf, request } from './support/answers.js';
import { RecordingPlatform, type CallKind } from './support/recording-platform.js';

/** 429s the first `count` calls of `kind`, with the given retry_after. */
function firstCallsLimited(kind: CallKind, count: number, retryAfterMs = 5) {
  let seen = 0;
  return (call: { kind: CallKind }) => (call.kind === kind && seen++ < count ? retryAfterMs : undefined);
}

describe('relayAnswer under 429s', () => {
  it('skips rate-limited intermediate edits, counts them, and still ends on the full answer', async () => {
    const platform = new RecordingPlatform({ rateLimit: firstCallsLimited('edit', 4) });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER, 3))));

    expect(platform.count('edit', 'rate-limited')).toBe(4);
    expect(result.rateLimitedUpdates).toBe(4);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.maxConcurrentCalls).toBe(1);
  });

  it('retries a rate-limited final edit after retry_after', async () => {
    const platform = new RecordingPlatform();
    const stream = answerStream(fragmentsOf(LONG_ANSWER));
    // Accept the stream's edits, then 429 the final one twice.
    let finalEditsRefused = 0;
    platform.rules.rateLimit = (call) => {
      if (call.kind === 'edit' && call.text === LONG_ANSWER && finalEditsRefused < 2) {
        finalEditsRefused++;
        return 5;
      }
      return undefined;
    };
    const result = await relayAnswer(request(platform, stream));

    expect(finalEditsRefused).toBe(2);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.count('send')).toBe(1);
  });

  it('sends the final as a new message when every edit is rate-limited', async () => {
    const platform = new RecordingPlatform({ rateLimit: (call) => (call.kind === 'edit' ? 5 : undefined) });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER))));

    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.count('send')).toBe(2);
    // The final edit was tried as many times as the policy allows before giving up.
    const finalEditTries = platform.calls.filter((call) => call.kind === 'edit' && call.text === LONG_ANSWER).length;
    expect(finalEditTries).toBe(3);
  });

  it('does not wait a retry_after longer than the retry budget: falls back to a new message at once', async () => {
    const platform = new RecordingPlatform({ rateLimit: (call) => (call.kind === 'edit' ? 60_000 : undefined) });
    const result = await relayAnswer(
      request(
        platform,
        answerStream(fragmentsOf(LONG_ANSWER)),
        {},
        {
          pacing: { editIntervalMs: { private: 20, group: 20 }, minInitialChars: 10, finalRetryBudgetMs: 1_000 },
        },
      ),
    );

    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.calls.filter((call) => call.kind === 'edit' && call.text === LONG_ANSWER)).toHaveLength(1);
  });

  it('holds the final edit for the per-chat spacing instead of earning a 429 right after an update', async () => {
    // Like Telegram's one message per second per chat, scaled down: a call within 150 ms of the previous one is refused.
    let lastCallAt = Number.NEGATIVE_INFINITY;
    const platform = new RecordingPlatform({
      rateLimit: () => {
        const now = Date.now();
        const tooSoon = now - lastCallAt < 150;
        if (!tooSoon) lastCallAt = now;
        return tooSoon ? 150 : undefined;
      },
    });
    const result = await relayAnswer(
      request(
        platform,
        answerStream(fragmentsOf(LONG_ANSWER)),
        {},
        {
          pacing: { editIntervalMs: { private: 200, group: 200 }, minInitialChars: 10 },
        },
      ),
    );

    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.calls.filter((call) => call.result === 'rate-limited')).toEqual([]);
  });

  it('retries a rate-limited final send without sending the answer twice', async () => {
    const platform = new RecordingPlatform({ rateLimit: firstCallsLimited('send', 2) });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), { edit: false }));

    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
    expect(platform.count('send')).toBe(1);
    expect(result.rateLimitedUpdates).toBe(2);
  });

  it('ends on the final when every draft is rate-limited', async () => {
    const platform = new RecordingPlatform({ rateLimit: (call) => (call.kind === 'draft' ? 5 : undefined) });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), { draft: true }));

    expect(result.renderer).toBe('draft');
    expect(platform.count('draft', 'rate-limited')).toBeGreaterThan(0);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it('keeps honouring retry_after on the last-resort new message through a long flood', async () => {
    // More 429s than the final edit's tries: only the new message's longer patience delivers it.
    const platform = new RecordingPlatform({ rateLimit: firstCallsLimited('send', LAST_RESORT_ATTEMPTS - 2) });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), { edit: false }));

    expect(platform.count('send', 'rate-limited')).toBe(LAST_RESORT_ATTEMPTS - 2);
    expect(platform.textsOf(result.messages)).toEqual([LONG_ANSWER]);
  });

  it('rejects (rather than pretend) when even the new message cannot be sent', async () => {
    const platform = new RecordingPlatform({ rateLimit: (call) => (call.kind === 'send' ? 5 : undefined) });
    const relay = relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), { edit: false }));

    await expect(relay).rejects.toBeInstanceOf(PlatformError);
    expect(platform.count('send', 'rate-limited')).toBe(LAST_RESORT_ATTEMPTS);
  });
});
