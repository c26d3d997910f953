/**
 * The rule a user can read when edits are refused mid-answer: a message that can no
 * longer be edited keeps what it shows, and the answer goes on in a new message exactly
 * where that text ends. The answer's messages, read one after another, are the answer
 * once: each part once, in order, nothing repeated, nothing missing. When the final
 * answer differs from what such a message shows, the whole final answer comes after it.
 */
import { describe, expect, it } from 'vitest';
import { relayAnswer } from '../../../../src/gateway/relay/index.js';
import { renderFinal } from '../../../../src/gateway/relay/rendering.js';
import { plainMarkup, type MarkupRenderer } from '../../../../src/contract.js';
import { telegramMarkup } from '../../../../adapters/telegram/markdown.js';
import { whatsappMarkup } from '../../../../adapters/whatsapp/markdown.js';
import type { AskStreamEvent } from '../../../../src/upstream/api.js';
import {
  LONG_ANSWER,
  answerStream,
  capabilities,
  eventually,
  fragmentsOf,
  readsOnce,
  request,
} from './support/answers.js';
import { RecordingPlatform } from './support/recording-platform.js';

/** Every message the platform shows, in the order they appeared. */
const screenOf = (platform: RecordingPlatform) => [...platform.messages.values()];

/** A list answer as a model writes it: Markdown bullets, a URL per line, no full stop at the line ends. */
const LISTINGS_ANSWER = [
  'I found 4 listings that match:',
  '',
  '- Single Family Residential, 1812 Elm St, Austin: 3 bd, 2.5 ba, for sale $585,000, MLS TX-10452 https://homes.example/austin/1812-elm-st',
  '- Condo, 300 Bowie St Unit 1204, Austin: 2 bd, 2 ba, for sale $449,000, MLS TX-10977 https://homes.example/austin/300-bowie-1204',
  '- Apartment, 2200 Guadalupe St Apt 5B, Austin: 1 bd, 1 ba, for rent $1,650/month, MLS TX-20318 https://homes.example/austin/2200-guadalupe-5b',
  '- Townhouse, 1450 Wynkoop St, Denver: 3 bd, 3 ba, for sale $879,000, MLS CO-55102 https://homes.example/denver/1450-wynkoop',
  '',
  'Tell me more about what you need to narrow it down.',
].join('\n');

/** Refuses every edit from the `from`-th on (1 = the first edit). */
function refusedFrom(from: number) {
  let edits = 0;
  return () => ++edits >= from;
}

/** Refuses the `which`-th edit only. */
function refusedOnce(which: number) {
  let edits = 0;
  return () => ++edits === which;
}

/** How many edits an answer takes when none is refused (the points refusals are tried at). */
async function editsOf(markdown: string, markup: MarkupRenderer): Promise<number> {
  const platform = new RecordingPlatform({ markup });
  await relayAnswer(request(platform, answerStream(fragmentsOf(markdown))));
  return platform.count('edit');
}

/** What one message holding the whole answer shows on this platform. */
function wholeAnswer(markdown: string, markup: MarkupRenderer): string {
  const chunks = renderFinal(markdown, capabilities({ markup }));
  expect(chunks).toHaveLength(1);
  return chunks[0]!;
}

describe('an answer whose edits are refused mid-answer reads once, in order', () => {
  for (const [name, markdown, markup] of [
    ['a long paragraph', LONG_ANSWER, plainMarkup],
    ['a list of listings (WhatsApp)', LISTINGS_ANSWER, whatsappMarkup],
  ] as const) {
    it(`${name}: edits refused from any point on, or one edit refused at any point`, async () => {
      const whole = wholeAnswer(markdown, markup);
      const edits = await editsOf(markdown, markup);
      expect(edits).toBeGreaterThan(2);
      for (let point = 1; point <= edits; point++) {
        for (const refuseEdit of [refusedFrom(point), refusedOnce(point)]) {
          const platform = new RecordingPlatform({ markup, refuseEdit });
          const result = await relayAnswer(request(platform, answerStream(fragmentsOf(markdown))));

          const screen = screenOf(platform);
          expect(readsOnce(screen, whole), `refused at edit ${point}: ${JSON.stringify(screen)}`).toBe(true);
          // Every message on screen is one of the answer's: none is left behind holding a repeat.
          expect(platform.textsOf(result.messages)).toEqual(screen);
        }
      }
    });
  }

  it('a short answer whose only edit (the final) is refused: the first message keeps its words, the second holds the rest', async () => {
    const platform = new RecordingPlatform({ refuseEdit: () => true });
    const answer = 'I could not find any listing in Paris. Our listings are in Austin, Denver and Portland.';
    const stream = shownInSteps(platform, [
      'I could not find any listing ',
      'in Paris. Our listings are in Austin, Denver and Portland.',
    ]);
    await relayAnswer(request(platform, stream));

    expect(screenOf(platform)).toEqual([
      'I could not find any listing',
      'in Paris. Our listings are in Austin, Denver and Portland.',
    ]);
    expect(readsOnce(screenOf(platform), answer)).toBe(true);
  });

  it('goes on from a refused message while the answer is still being written, not only at the end', async () => {
    const platform = new RecordingPlatform();
    const stream = shownInSteps(
      platform,
      ['The condo is downtown. ', 'The house has a garden. ', 'The loft is above a bakery. ', 'It has parking.'],
      {
        // Once the second sentence is shown, the first message can no longer be edited.
        afterShown: (step) => {
          if (step === 2) platform.rules.refuseEdit = ({ messageId }) => messageId === '1';
        },
      },
    );
    await relayAnswer(request(platform, stream));

    // The third sentence was shown (in a new message) before the answer ended.
    expect(screenOf(platform)).toEqual([
      'The condo is downtown. The house has a garden.',
      'The loft is above a bakery. It has parking.',
    ]);
  });
});

describe('a message that goes on where a refused one ends is valid on its own', () => {
  it('inside bold text, it opens the bold again (WhatsApp)', async () => {
    const platform = new RecordingPlatform({ markup: whatsappMarkup });
    const stream = shownInSteps(
      platform,
      ['Before you visit: **Bring an ID. ', 'Viewings start at nine.** See you there.'],
      {
        afterShown: () => {
          platform.rules.refuseEdit = () => true;
        },
      },
    );
    await relayAnswer(request(platform, stream));

    expect(screenOf(platform)).toEqual([
      'Before you visit: *Bring an ID.*',
      '*Viewings start at nine.* See you there.',
    ]);
  });

  it('inside bold text, it opens the bold again (Telegram HTML)', async () => {
    const platform = new RecordingPlatform({ markup: telegramMarkup });
    const stream = shownInSteps(
      platform,
      ['Before you visit: **Bring an ID. ', 'Viewings start at nine.** See you there.'],
      {
        afterShown: () => {
          platform.rules.refuseEdit = () => true;
        },
      },
    );
    await relayAnswer(request(platform, stream));

    expect(screenOf(platform)).toEqual([
      'Before you visit: <b>Bring an ID.</b>',
      '<b>Viewings start at nine.</b> See you there.',
    ]);
  });

  it('inside a code block, it opens the code block again', async () => {
    const platform = new RecordingPlatform({ markup: whatsappMarkup });
    const stream = shownInSteps(
      platform,
      ['Call it like this:\n```js\nconst homes = await list();\n', 'show(homes);\n```\nThat is all.'],
      {
        afterShown: () => {
          platform.rules.refuseEdit = () => true;
        },
      },
    );
    await relayAnswer(request(platform, stream));

    expect(screenOf(platform)).toEqual([
      'Call it like this:\n\n```const homes = await list();```',
      '```show(homes);```\n\nThat is all.',
    ]);
  });
});

describe('when the final answer differs from what a message that can no longer be edited shows', () => {
  it('the whole final answer comes after it (the message was sealed while the answer was written)', async () => {
    const platform = new RecordingPlatform();
    const final = 'The loft is downtown. It has two bedrooms. And a garden.';
    const stream = shownInSteps(platform, ['The condo is downtown. ', 'It has two bedrooms. ', 'And a garden.'], {
      final,
      afterShown: (step) => {
        if (step === 1) platform.rules.refuseEdit = ({ messageId }) => messageId === '1';
      },
    });
    const result = await relayAnswer(request(platform, stream));

    expect(screenOf(platform)).toEqual(['The condo is downtown.', final]);
    expect(platform.textsOf(result.messages).at(-1)).toBe(final);
  });

  it('the whole final answer comes after it (the final edit was refused)', async () => {
    const platform = new RecordingPlatform();
    const final = 'The loft is downtown. It has two bedrooms.';
    const stream = shownInSteps(platform, ['The condo is downtown. ', 'It has two bedrooms.'], {
      final,
      afterShown: () => {
        platform.rules.refuseEdit = () => true;
      },
    });
    const result = await relayAnswer(request(platform, stream));

    expect(screenOf(platform)).toEqual(['The condo is downtown.', final]);
    expect(platform.textsOf(result.messages)).toEqual([final]);
  });
});

/**
 * An answer stream that yields its next fragment only once the platform shows all the
 * text so far, so a test knows what is on screen when it changes the platform's rules
 * (`afterShown(step)`, step 1 after the first fragment is shown). The final is the
 * fragments joined unless `final` says otherwise.
 */
async function* shownInSteps(
  platform: RecordingPlatform,
  fragments: readonly string[],
  options: { afterShown?: (step: number) => void; final?: string } = {},
): AsyncGenerator<AskStreamEvent> {
  let joined = '';
  for (const [index, fragment] of fragments.entries()) {
    joined += fragment;
    yield { type: 'fragment', content: fragment };
    if (index === fragments.length - 1) break;
    const lastWords = joined.trim().split(/\s+/).slice(-2).join(' ').replace(/[*`]/g, '');
    await eventually(() => screenOf(platform).some((text) => text.replace(/<[^>]+>|[*`]/g, '').includes(lastWords)));
    options.afterShown?.(index + 1);
  }
  yield {
    type: 'final',
    questionId: 1,
    answerId: 2,
    answer: options.final ?? joined,
    totalToken: 10,
    noAnswer: false,
    incomplete: false,
  };
}
