import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { telegramMarkup } from '../../../../adapters/telegram/markdown.js';
import { whatsappMarkup } from '../../../../adapters/whatsapp/markdown.js';
import { plainMarkup } from '../../../../src/contract.js';
import { relayAnswer } from '../../../../src/gateway/relay/index.js';
import { LONG_ANSWER, answerStream, fragmentsOf, request, squash } from './support/answers.js';
import { RecordingPlatform, type OfferedMethods } from './support/recording-platform.js';

const RENDERERS: [string, OfferedMethods][] = [
  ['edit', {}],
  ['draft', { draft: true }],
  ['native', { startStream: true }],
  ['buffered', { edit: false }],
];

const CODE_ANSWER = [
  'To list the homes, call the API like this:',
  '',
  '```js',
  'const homes = await client.listListings({ City: "Austin" });',
  'for (const home of homes) console.log(home.Address, home.Price);',
  '```',
  '',
  'Then **filter** the ones you like.',
].join('\n');

describe('relayAnswer: answers longer than one message', () => {
  it.each(RENDERERS)(
    '%s: the final becomes several messages, each within the limit, together the whole answer',
    async (_name, platformCapabilities) => {
      const platform = new RecordingPlatform({ maxMessageLength: 120 });
      const result = await relayAnswer(
        request(platform, answerStream(fragmentsOf(LONG_ANSWER, 11)), platformCapabilities),
      );

      const texts = platform.textsOf(result.messages);
      expect(texts.length).toBeGreaterThan(1);
      for (const text of texts) expect(plainMarkup.measure(text)).toBeLessThanOrEqual(120);
      // A native stream's own message has no handle; it holds the beginning (within one message), the rest follows.
      const streamed = platform.streamedMarkdown();
      if (streamed !== undefined) expect(plainMarkup.measure(streamed)).toBeLessThanOrEqual(120);
      expect(squash([...(streamed ? [streamed] : []), ...texts].join(' '))).toBe(LONG_ANSWER);
    },
  );

  it('when the platform counts a chunk as longer than we do, the answer is split again shorter', async () => {
    const platform = new RecordingPlatform({ maxMessageLength: 100 });
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf(LONG_ANSWER, 11)), { maxMessageLength: 120 }),
    );

    expect(platform.count('edit', 'too-long') + platform.count('send', 'too-long')).toBeGreaterThan(0);
    expect(squash(platform.textsOf(result.messages).join(' '))).toBe(LONG_ANSWER);
  });

  it('edit: the messages already on screen are edited into place, the rest are sent', async () => {
    const platform = new RecordingPlatform({ maxMessageLength: 120 });
    const result = await relayAnswer(request(platform, answerStream(fragmentsOf(LONG_ANSWER, 11))));

    const firstSent = platform.calls.find((call) => call.kind === 'send');
    expect(result.messages[0]!.id).toBe('1');
    expect(firstSent?.text).not.toBe(platform.messages.get('1'));
    expect(platform.count('send')).toBe(result.messages.length);
  });
});

describe('relayAnswer: intermediate renders are always valid', () => {
  it('never show an unclosed code block (Telegram HTML)', async () => {
    const platform = new RecordingPlatform({ markup: telegramMarkup });
    await relayAnswer(
      request(
        platform,
        answerStream(fragmentsOf(CODE_ANSWER, 4)),
        {},
        {
          pacing: { editIntervalMs: { private: 5, group: 5 }, minInitialChars: 5, minGrowthChars: 1 },
        },
      ),
    );

    const texts = platform.acceptedTexts();
    expect(texts.some((text) => text.includes('<pre>') && !text.includes('filter'))).toBe(true);
    for (const text of texts) expect(count(text, '<pre>')).toBe(count(text, '</pre>'));
  });

  it('never show an unclosed code fence, wherever the stream is cut (WhatsApp, drafts and edits)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), fc.boolean(), async (fragmentSize, drafts) => {
        const platform = new RecordingPlatform({ markup: whatsappMarkup });
        await relayAnswer(
          request(
            platform,
            answerStream(fragmentsOf(CODE_ANSWER, fragmentSize), { delayMs: 1 }),
            { draft: drafts },
            {
              pacing: {
                editIntervalMs: { private: 1, group: 1 },
                draftIntervalMs: 1,
                minInitialChars: 1,
                minGrowthChars: 1,
              },
            },
          ),
        );
        const texts = platform.acceptedTexts();
        expect(texts.some((text) => text.includes('```'))).toBe(true);
        for (const text of texts) expect(count(text, '```') % 2).toBe(0);
      }),
      { numRuns: 12 },
    );
  });

  it('a final the platform cannot parse is sent again as plain text', async () => {
    const platform = new RecordingPlatform({ markup: telegramMarkup, refuseText: (text) => text.includes('<b>') });
    const result = await relayAnswer(
      request(platform, answerStream(fragmentsOf('Prices are **falling** this month.', 5))),
    );

    expect(platform.textsOf(result.messages)).toEqual(['Prices are falling this month.']);
  });
});

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
