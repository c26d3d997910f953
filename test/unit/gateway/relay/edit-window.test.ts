/**
 * A message that can no longer be edited (its edit window passed, or the platform
 * says "message can't be edited") does not stop the answer: it keeps what it shows,
 * and the answer goes on in a new message exactly where that text ends, while
 * streaming and for the final alike. The answer's messages read as the answer once.
 */
import { describe, expect, it } from 'vitest';
import { relayAnswer } from '../../../../src/gateway/relay/index.js';
import { LONG_ANSWER, answerStream, fragmentsOf, readsOnce, request } from './support/answers.js';
import { RecordingPlatform } from './support/recording-platform.js';

/** Long enough that the machine being slow cannot eat the 10% of it the relay keeps in reserve. */
const EDIT_WINDOW_MS = 1_000;

/** Every message the platform shows, in the order they appeared. */
const screenOf = (platform: RecordingPlatform) => [...platform.messages.values()];

describe('relayAnswer: messages that can no longer be edited', () => {
  it('an answer still streaming when its message is past the edit window goes on in a new message, before the platform refuses an edit', async () => {
    const platform = new RecordingPlatform({ editWindowMs: EDIT_WINDOW_MS });
    // About two windows of streaming: the first message's window passes mid-answer.
    const slowly = answerStream(fragmentsOf(LONG_ANSWER, 5), { delayMs: 25 });
    const result = await relayAnswer(request(platform, slowly, { editWindowMs: EDIT_WINDOW_MS }));

    expect(result.renderer).toBe('edit');
    expect(platform.count('edit', 'not-editable')).toBe(0);
    expect(platform.messages.size).toBeGreaterThan(1);
    expect(readsOnce(screenOf(platform), LONG_ANSWER)).toBe(true);
    // The last message ends the answer (where the split falls depends on when the window passed).
    const last = screenOf(platform).at(-1)?.trim() ?? '';
    expect(last).not.toBe('');
    expect(LONG_ANSWER.trimEnd().endsWith(last)).toBe(true);
  });

  it('a "message can\'t be edited" mid-answer seals that message, and the answer continues and ends complete in a new one', async () => {
    let editsOfFirst = 0;
    const platform = new RecordingPlatform({ refuseEdit: ({ messageId }) => messageId === '1' && ++editsOfFirst > 2 });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER), { delayMs: 5 })));

    // Refused once, then never tried again.
    expect(platform.count('edit', 'not-editable')).toBe(1);
    expect(result.messages[0]?.id).toBe('1');
    expect(result.messages.length).toBeGreaterThan(1);
    expect(readsOnce(platform.textsOf(result.messages), LONG_ANSWER)).toBe(true);
    // Nothing else is on screen: no part was sent twice.
    expect(screenOf(platform)).toEqual(platform.textsOf(result.messages));
  });

  it('a "message can\'t be edited" on the final edit keeps the partial message, and a new one holds the rest of the final answer', async () => {
    // The fragments lack the last sentence, so only the final edit carries the final text.
    const final = `${LONG_ANSWER} Just ask.`;
    const platform = new RecordingPlatform({ refuseEdit: ({ text }) => text === final });
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(LONG_ANSWER), { final: { answer: final } })),
    );

    expect(platform.count('edit', 'not-editable')).toBe(1);
    const [stuck, rest] = screenOf(platform);
    expect(screenOf(platform)).toHaveLength(2);
    expect(platform.textsOf(result.messages)).toEqual([stuck, rest]);
    // The message that could not take the final keeps its partial text; the new one goes on from there.
    expect(final.startsWith(stuck!)).toBe(true);
    expect(rest).toBe(final.slice(stuck!.length).trim());
  });
});
