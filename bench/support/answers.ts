import type { AnswerScript } from './scripted-upstream.js';

/** First fragment long enough for the renderers' first message (minInitialChars = 30), ending a sentence. */
export const FIRST = 'The house on Maple Street has 3 bedrooms and 2 baths.';
/** "Instant": one fragment, then the final, no pause. */
export const INSTANT: AnswerScript = { fragments: [FIRST], gapMs: 0 };
/** A short streamed answer: the first fragment at once, four more 20 ms apart. */
export const STREAMED: AnswerScript = {
  fragments: [
    FIRST,
    ' It was built in 1998',
    ' and sits on a quiet corner lot.',
    ' The asking price is $750,000.',
    ' Open house on Sunday.',
  ],
  gapMs: 20,
};
