import { describe, expect, it } from 'vitest';
import { relayAnswer, startTyping } from '../../../src/gateway/relay/index.js';
import { LONG_ANSWER, answerStream, capabilities, conversation, eventually, fragmentsOf, request, sleep } from './support/answers.js';
import { RecordingPlatform } from './support/recording-platform.js';

const SHORT_LIVED_TYPING = { typingLifetimeMs: 30 };

describe('typing indicator', () => {
  it('is refreshed before it expires, and no more once stopped', async () => {
    const platform = new RecordingPlatform();
    const typing = startTyping(platform, capabilities(SHORT_LIVED_TYPING), conversation);

    await eventually(() => platform.count('typing') >= 3);
    await typing.stop();
    const afterStop = platform.count('typing');
    await sleep(100);
    expect(platform.count('typing')).toBe(afterStop);
  });

  it('is not sent where the platform has none', async () => {
    const platform = new RecordingPlatform();
    const typing = startTyping(platform, capabilities({ typingLifetimeMs: 0 }), conversation);
    await sleep(20);
    await typing.stop();
    expect(platform.count('typing')).toBe(0);
  });

  it('runs while a buffered answer is written and stops when it is delivered', async () => {
    const platform = new RecordingPlatform();
    const slowAnswer = answerStream(fragmentsOf(LONG_ANSWER, 40), { delayMs: 40 });
    await relayAnswer(request(platform, slowAnswer, { edit: false, ...SHORT_LIVED_TYPING }));

    const kinds = platform.calls.map((call) => call.kind);
    expect(kinds.filter((kind) => kind === 'typing').length).toBeGreaterThanOrEqual(2);
    expect(kinds.at(-1)).toBe('send');
    await sleep(100);
    expect(platform.calls.at(-1)?.kind).toBe('send');
  });

  it('stops when the first message of an edited answer appears', async () => {
    const platform = new RecordingPlatform();
    await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER, 10), { delayMs: 10 }), SHORT_LIVED_TYPING));

    const firstSend = platform.calls.findIndex((call) => call.kind === 'send');
    expect(platform.calls.slice(0, firstSend).some((call) => call.kind === 'typing')).toBe(true);
    expect(platform.calls.slice(firstSend).some((call) => call.kind === 'typing')).toBe(false);
    expect(platform.maxConcurrentCalls).toBe(1);
  });
});
