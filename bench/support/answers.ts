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

/**
 * Four answers of about 600 characters as a real-estate assistant writes them, each about something else: what the
 * idle-conversation memory measure keeps in a transcript. Distinct on purpose: four copies of one answer would
 * compress to one, and flatter the transcript's packing (gateway.transcriptPackEntries) beyond what a user's
 * conversation gets.
 */
export const CONVERSATION_ANSWERS: readonly string[] = [
  'The three-bedroom house at 214 Maple Street is still available. It was built in 1998 and renovated in 2021: new ' +
    'roof, double-glazed windows and a heat pump that keeps the winter bills low. The kitchen opens onto a south-facing ' +
    'garden of about 400 square metres with two apple trees and a small shed. Both bathrooms were redone last spring. ' +
    'The asking price is $485,000 and the owners are open to offers from buyers with a mortgage approval in principle. ' +
    'Would you like me to book a viewing this week, or send you the floor plan first?',
  'Yes, the area is good for families. Lincoln Elementary is a ten-minute walk, rated 8 out of 10 by the state, and ' +
    'the middle school bus stops two blocks away. There is a public library on Cedar Avenue with reading hours for ' +
    'children on Saturdays, and Riverside Park has a playground, tennis courts and a swimming pool open from June to ' +
    'September. Crime figures for the neighbourhood are below the city average. Most neighbours on the street are ' +
    'long-time owners; the last house sold there stayed on the market for only nineteen days.',
  'With a 20% down payment of $97,000, a 30-year fixed mortgage at the current rate of about 6.4% would come to roughly ' +
    '$2,430 a month for principal and interest. Property taxes in the county are near 1.1% of the assessed value, so ' +
    'add about $445 a month, plus homeowner insurance of around $120. Closing costs usually run between 2% and 5% of ' +
    'the price. These are estimates only: a lender will give you exact figures after a credit check. I can put you in ' +
    'touch with two local brokers who answer within a day if you wish.',
  'Of course. Viewings for Maple Street are possible on Tuesday and Thursday afternoons between 2 and 6 pm, and on ' +
    'Saturday mornings. Our agent Laura Chen will meet you at the front gate; parking is free on the street. Please ' +
    'bring a photo ID. If you cannot make those times, Laura can offer a video tour on a weekday evening instead. Tell ' +
    'me which slot suits you and the phone number she can reach you on, and I will confirm the appointment by e-mail ' +
    'and send a reminder the day before.',
];

/** A script that streams `answer` in 10 fragments, as the 600-character answers are. */
export function tenFragments(answer: string): AnswerScript {
  const size = Math.ceil(answer.length / 10);
  return { fragments: Array.from({ length: 10 }, (_, i) => answer.slice(i * size, (i + 1) * size)), gapMs: 0 };
}

/** What a user asks before each of CONVERSATION_ANSWERS. */
export const CONVERSATION_QUESTIONS: readonly string[] = [
  'Is the house on Maple Street still for sale? What is it like?',
  'Is it a good area for kids, schools and parks?',
  'How much would I pay per month with 20% down?',
  'Can I see it this week?',
];
