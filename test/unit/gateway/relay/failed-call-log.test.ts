/**
 * A platform call that fails is named in the log: the error the adapter gives (here the
 * in-memory platform's, as every adapter's) carries the method called and a short summary of
 * what was sent, and the core's log line of the failure shows both, never the whole text.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { relayAnswer } from '../../../../src/gateway/relay/index.js';
import { LONG_ANSWER, answerStream, fragmentsOf, request } from './support/answers.js';
import { RecordingPlatform } from './support/recording-platform.js';

describe('a failed platform call in the log', () => {
  it("names the method and what was sent (the chat, the text's start and its length), never the whole text", async () => {
    const platform = new RecordingPlatform();
    platform.world.failNext('final', 'other');
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });

    // The answer streams by edits; its final edit is refused, and the final goes in a new message.
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER)), {}, { logger }));

    expect(platform.textsOf(result.messages).at(-1)).toBe(LONG_ANSWER);
    const failure = lines.map((line) => JSON.parse(line) as { err?: Record<string, unknown> }).find((line) => line.err);
    expect(failure?.err).toMatchObject({ type: 'PlatformError', kind: 'other', method: 'edit' });
    const start = [...LONG_ANSWER].slice(0, 20).join('');
    expect(failure?.err?.sent).toContain(`text "${start}…" (${[...LONG_ANSWER].length} chars)`);
    expect(lines.join('\n')).not.toContain(LONG_ANSWER.slice(0, 60));
  });
});
