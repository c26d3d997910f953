/**
 * A native stream (Slack chat.startStream / appendStream / stopStream) takes standard
 * Markdown, not the platform's rendering, in calls of at most `nativeStreamMaxChars`,
 * and is addressed to the user the answer replies to.
 */
import { describe, expect, it } from 'vitest';
import { slackMarkup } from '../../../../adapters/slack/markdown.js';
import { relayAnswer } from '../../../../src/gateway/relay/index.js';
import { answerStream, asker, fragmentsOf, request } from './support/answers.js';
import { RecordingPlatform } from './support/recording-platform.js';

const MARKDOWN_ANSWER = [
  'Here are **two homes** that match.',
  '- A condo on *Main Street*, see [the listing](https://example.com/1).',
  '- A house with a `garden`.',
  'Ask me about either one.',
].join('\n');

/** Texts the stream took, in order: its start, appends and stop. */
function streamCalls(platform: RecordingPlatform) {
  return platform.calls.filter(
    (call) => call.result === 'ok' && (call.kind === 'startStream' || call.kind === 'append' || call.kind === 'stop'),
  );
}

describe('relayAnswer: native streams', () => {
  it('get the standard Markdown of the answer, not the platform markup, and end holding all of it', async () => {
    const platform = new RecordingPlatform({ markup: slackMarkup });
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(MARKDOWN_ANSWER)), { startStream: true }),
    );

    expect(result.renderer).toBe('native');
    const calls = streamCalls(platform);
    expect(calls.map((call) => call.kind)).toContain('append');
    expect(calls.map((call) => call.text).join('')).toBe(MARKDOWN_ANSWER);
    expect(platform.streamedMarkdown()).toBe(MARKDOWN_ANSWER);
    // Slack's mrkdwn would have turned these into *bold*, _italic_ and <url|text>.
    expect(platform.streamedMarkdown()).toContain('**two homes**');
    expect(platform.streamedMarkdown()).toContain('[the listing](https://example.com/1)');
  });

  it('are started for the user the answer replies to, with their team', async () => {
    const platform = new RecordingPlatform();
    await relayAnswer(request(platform, answerStream(fragmentsOf(MARKDOWN_ANSWER)), { startStream: true }));

    const start = platform.calls.filter((call) => call.kind === 'startStream');
    expect(start).toHaveLength(1);
    expect(start[0]?.recipient).toEqual(asker);
    expect(start[0]?.recipient?.team).toBe('T456');
  });

  it('never take more Markdown in one call than the platform allows, even when a long stretch arrives at once', async () => {
    const platform = new RecordingPlatform();
    const lines = Array.from({ length: 12 }, (_, n) => `Home number ${n + 1} has ${n + 2} rooms and a view.`).join(
      '\n',
    );
    // Arrives in big pieces, so each update has several lines to append.
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(lines, 150)), { startStream: true, nativeStreamMaxChars: 60 }),
    );

    expect(result.renderer).toBe('native');
    const calls = streamCalls(platform);
    expect(calls.length).toBeGreaterThan(lines.length / 60);
    for (const call of calls) expect(call.text!.length).toBeLessThanOrEqual(60);
    expect(platform.streamedMarkdown()).toBe(lines);
  });

  it('when the final answer differs from what was streamed, close the stream and send the final whole', async () => {
    const platform = new RecordingPlatform();
    const streamed = 'The condo is on Main Street.\nIt costs $350,000.\n';
    const authoritative = 'The condo is on Elm Street.\nIt costs $350,000.';
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(streamed), { final: { answer: authoritative }, delayMs: 15 }), {
        startStream: true,
      }),
    );

    // The stream showed the first line already, and a stream cannot take text back.
    expect(platform.streamedMarkdown()).toMatch(/^The condo is on Main Street\./);
    expect(platform.count('stop')).toBe(1);
    expect(platform.textsOf(result.messages)).toEqual([authoritative]);
  });

  it('open with the first finished sentence, not empty, so the first words do not wait a whole pacing interval', async () => {
    const platform = new RecordingPlatform();
    const fragments = [
      'The house on Maple Street has 3 bedrooms and 2 baths.',
      ' It was built in 1998',
      ' and sits on a quiet corner lot.',
      ' Open house on Sunday.',
    ];
    // A long interval: after the stream opens, nothing more is shown before the end.
    await relayAnswer(
      request(platform, answerStream(fragments, { delayMs: 30 }), {
        startStream: true,
        editIntervalMs: { private: 60_000, group: 60_000 },
      }),
    );

    const [start] = streamCalls(platform);
    expect(start?.kind).toBe('startStream');
    expect(start?.text).toBe('The house on Maple Street has 3 bedrooms and 2 baths.');
    expect(platform.streamedMarkdown()).toBe(fragments.join(''));
  });

  it('are closed even when Slack answers 429 to stopStream more often than an intermediate update would be retried', async () => {
    const platform = new RecordingPlatform();
    const answer = 'First line of the answer.\nSecond line of it.\nThird and last line.';
    platform.world.failNext('stop', 'rate-limited', { times: 4, retryAfterMs: 5 });
    await relayAnswer(request(platform, answerStream(fragmentsOf(answer)), { startStream: true }));

    expect(platform.count('stop', 'rate-limited')).toBe(4);
    const stopped = platform.calls.filter((call) => call.kind === 'stop' && call.result === 'ok');
    expect(stopped).toHaveLength(1);
    // One message, closed, holding the whole answer: nothing continued in a new message.
    expect(platform.messages.get(stopped[0]!.messageId!)).toBe(answer);
    expect(platform.count('send')).toBe(0);
  });
});
