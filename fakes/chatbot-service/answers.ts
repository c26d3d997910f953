/**
 * Writing one scripted answer the way the Chatbot Service does (docs/chatbot-service-api.md
 * §5, §6): streamed as Server-Sent Events, one `data:` JSON object per fragment and then the
 * final object (or, breaking off, an envelope-shaped error object); not streamed, the answer
 * object in the envelope.
 */
import type { ServerResponse } from 'node:http';
import { API_VERSION, sendFailure, sendOk } from './envelope.js';
import type { PendingPause, ScriptedReply, ServiceFailure } from './world.js';

type ScriptedAnswer = Exclude<ScriptedReply, { refusal: ServiceFailure }>;

/** The message ids of a question and its answer (the n-th ask: 2n - 1 and 2n). */
export interface AnswerIds {
  questionId: number;
  answerId: number;
}

const sse = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

/** "Tokens" as the scripted service counts them: words of the answer. */
const tokensOf = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/**
 * Streams `answer`, pausing where `pause` says (until released, or until the caller
 * leaves, which ends the answer as closing the connection does on the real service).
 */
export async function streamAnswer(
  res: ServerResponse,
  answer: ScriptedAnswer,
  ids: AnswerIds,
  pause: PendingPause | null,
): Promise<void> {
  let callerLeft = false;
  const left = new Promise<void>((resolve) =>
    res.once('close', () => {
      callerLeft = true;
      resolve();
    }),
  );
  const events = answer.fragments.map((content) => sse({ content }));
  const text = answer.fragments.join('');
  const last = sse(
    answer.breakOff
      ? { Version: API_VERSION, Success: false, Code: answer.breakOff.code, Message: answer.breakOff.message }
      : {
          QuestionID: ids.questionId,
          AnswerID: ids.answerId,
          Answer: text,
          TotalToken: tokensOf(text),
          noAnswer: false,
        },
  );
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  if (pause) {
    const before = Math.min(pause.afterFragments, events.length);
    res.write(events.slice(0, before).join(''));
    pause.reached();
    await Promise.race([pause.released, left]);
    if (callerLeft) return;
    events.splice(0, before);
  }
  // What comes without a pause comes at once, in one write, as from a service that had it ready.
  res.end(events.join('') + last);
}

/** The answer in one piece (ClientAsk with `stream` false); breaking off is then an ordinary failure. */
export function sendWholeAnswer(res: ServerResponse, answer: ScriptedAnswer, ids: AnswerIds): void {
  if (answer.breakOff) return sendFailure(res, answer.breakOff);
  const text = answer.fragments.join('');
  sendOk(res, { messageid: ids.answerId, content: text, totalToken: tokensOf(text), noAnswer: false });
}
