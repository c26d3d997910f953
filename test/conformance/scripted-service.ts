/**
 * The Chatbot Service for the conformance suite: the scripted service (fakes/chatbot-service),
 * asked over HTTP through the real upstream client, answering every question at once with a
 * known text in four fragments, so the suite knows the full answer the user must end up
 * seeing, and costs no engine time. A scenario can hold the next answer half-way
 * (`holdNextAnswer()`: after its first two fragments, enough for every renderer to show
 * something) to act while it is being written.
 */
import { listingItem, type ScriptedChatbotService } from '../../fakes/chatbot-service/index.js';
import { startScriptedService } from '../support/scripted-service.js';

/** The fragments of the answer to `question` (for a file: to its caption). */
export function answerFragments(question: string): string[] {
  return [
    `About ${question}: `,
    'here is the first part of the answer. ',
    'The second part follows it. ',
    'The third part ends it.',
  ];
}

/** The whole answer, as the user must see it once it is final. */
export const fullAnswer = (question: string): string => answerFragments(question).join('').trim();

/** Four listings in Austin: two pages with the suite's page size of 2. */
const LISTINGS = [1, 2, 3, 4].map((id) => listingItem(id, 'Austin', { Address: `${id}0${id} Conformance Lane` }));

/** Started for the running test, closed when it finishes. */
export function startConformanceService(): Promise<ScriptedChatbotService> {
  return startScriptedService({ answer: (ask) => ({ fragments: answerFragments(ask.content) }), listings: LISTINGS });
}
