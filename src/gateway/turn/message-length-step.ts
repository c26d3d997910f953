/**
 * The message-length step: a message longer than the Chatbot Service takes in one
 * ClientAsk (src/upstream/limits.ts) gets a reply naming the limit, instead of the
 * service's refusal turned into a vague apology. It sits at the limits position,
 * before the allowance is checked: like the service, which checks `content` before its
 * counters, a message refused for its length uses up none of the user's rate window or
 * the chatbot's month. A message with files counts its caption: the files are not
 * fetched or uploaded for a question that cannot be asked.
 */
import {
  CLIENT_ASK_CONTENT_MAX_CHARS,
  clientAskContentLength,
  isClientAskContentTooLong,
} from '../../upstream/limits.js';
import type { Step } from './pipeline.js';
import { questionText } from './question.js';

export function messageLengthStep(): Step {
  return async (ctx, next) => {
    // What the ask step sends as ClientAsk `content`: the turn's messages with what they quote.
    const content = questionText(ctx.messages, ctx.services.policy.quoteMaxChars);
    if (!isClientAskContentTooLong(content)) return next();
    const length = clientAskContentLength(content);
    ctx.logger.info(
      { length, limit: CLIENT_ASK_CONTENT_MAX_CHARS },
      'message longer than the Chatbot Service takes; the user is told the limit',
    );
    await ctx.reply((await ctx.texts()).messageTooLong(CLIENT_ASK_CONTENT_MAX_CHARS, length));
  };
}
