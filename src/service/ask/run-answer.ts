import type { Response } from 'express';
import { API_VERSION, ServiceError } from '../envelope.js';
import { countTokens } from '../engines/tokens.js';
import type { EngineOutcome } from '../engines/types.js';

export interface FinishedAnswer {
  answer: string;
  noAnswer: boolean;
  totalToken: number;
}

/**
 * The engine's fragments followed by the AnswerSuffix, so that the streamed
 * fragments joined are exactly the final Answer. A blank line separates the
 * suffix unless either side already brings whitespace.
 */
export async function* withSuffix(
  fragments: AsyncGenerator<string, EngineOutcome, void>,
  suffix: string,
): AsyncGenerator<string, EngineOutcome, void> {
  let last = '';
  let step = await fragments.next();
  while (!step.done) {
    if (step.value) {
      last = step.value;
      yield step.value;
    }
    step = await fragments.next();
  }
  if (suffix) yield /\s$/.test(last) || /^\s/.test(suffix) || last === '' ? suffix : `\n\n${suffix}`;
  return step.value;
}

async function finish(question: string, answer: string, outcome: EngineOutcome): Promise<FinishedAnswer> {
  return {
    answer,
    noAnswer: outcome.noAnswer,
    totalToken: outcome.totalTokens ?? (await countTokens(question)) + (await countTokens(answer)),
  };
}

export async function collectAnswer(
  question: string,
  fragments: AsyncGenerator<string, EngineOutcome, void>,
): Promise<FinishedAnswer> {
  let answer = '';
  let step = await fragments.next();
  while (!step.done) {
    answer += step.value;
    step = await fragments.next();
  }
  return finish(question, answer, step.value);
}

const sse = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

/**
 * SSE: `data: {"content": …}` per fragment, then one final object. Headers are
 * only committed once the engine produced something, so an engine that fails at
 * once still gets a proper envelope error. A failure after that is sent as an
 * envelope-shaped `data:` object (Success false) and the stream ends.
 */
export async function streamAnswer(
  res: Response,
  question: string,
  ids: { questionId: number; answerId: number },
  fragments: AsyncGenerator<string, EngineOutcome, void>,
): Promise<FinishedAnswer | null> {
  let step = await fragments.next();
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  let answer = '';
  try {
    while (!step.done) {
      answer += step.value;
      res.write(sse({ content: step.value }));
      step = await fragments.next();
    }
  } catch (error) {
    const failure =
      error instanceof ServiceError ? error : new ServiceError(500, 'The answer failed part-way; please ask again.');
    res.end(sse({ Version: API_VERSION, Success: false, Code: failure.code, Message: failure.message }));
    throw error;
  }
  const done = await finish(question, answer, step.value);
  res.end(
    sse({
      QuestionID: ids.questionId,
      AnswerID: ids.answerId,
      Answer: done.answer,
      TotalToken: done.totalToken,
      noAnswer: done.noAnswer,
    }),
  );
  return done;
}
