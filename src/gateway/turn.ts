/**
 * Runs one queued message through the pipeline, and turns whatever went wrong
 * into a reply the user can act on: an apology when the assistant is
 * unreachable (counted, for the onUpstreamFailure hooks), the service's own
 * words when it refuses for a limit, a generic apology for our own bugs.
 * Nothing a user sent goes unanswered, and all of it is in the transcript.
 */
import { UpstreamError } from '../upstream/errors.js';
import type { Turn, TurnContext } from './context.js';
import type { GatewayHooks } from './hooks.js';
import { gatewayKeys } from './keys.js';
import type { Step } from './pipeline.js';
import { replies } from './replies.js';
import { PlatformError, type InboundAttachment } from './types.js';

/** Consecutive failures are forgotten after a quiet day, so one bad hour long ago does not count. */
export const FAILURE_COUNT_TTL_MS = 24 * 60 * 60_000;

export type TurnOutcome = 'done' | 'aborted';

export async function runTurn(turn: Turn, pipeline: (ctx: TurnContext) => Promise<void>, hooks: GatewayHooks): Promise<TurnOutcome> {
  try {
    await pipeline(turn);
    if (turn.answered) turn.later({ op: 'del', key: gatewayKeys.failures(turn.conversation) });
    return 'done';
  } catch (error) {
    if (turn.signal.aborted) return 'aborted';
    await reportFailure(turn, error, hooks);
    return 'done';
  }
}

async function reportFailure(turn: Turn, error: unknown, hooks: GatewayHooks): Promise<void> {
  const { logger } = turn;
  if (error instanceof PlatformError) {
    logger.error({ err: error }, 'the platform refused our reply; the user may not have seen an answer');
    turn.record('system', `Could not deliver the reply: ${error.message}`);
    return;
  }
  if (error instanceof UpstreamError && (error.status === 429 || error.code === 429)) {
    // The service applied one of the chatbot's own limits; its message is written for the user.
    logger.info({ err: error }, 'the service refused the message for a limit');
    await safeReply(turn, error.message || replies.rateLimitedDefault);
    return;
  }
  if (!(error instanceof UpstreamError)) {
    logger.error({ err: error }, 'answering a message failed');
    await safeReply(turn, replies.internalError);
    return;
  }
  logger.warn({ err: error, operation: error.operation, kind: error.kind, hint: error.hint }, 'the Chatbot Service failed');
  turn.services.observer.upstreamFailed?.(error.operation);
  const consecutiveFailures = await turn.services.state
    .incr(gatewayKeys.failures(turn.conversation), 1, FAILURE_COUNT_TTL_MS)
    .catch(() => 1);
  // A transient failure (down, timeout, 5xx) will pass; anything else is the service refusing this message.
  await safeReply(turn, error.transient ? replies.upstreamDown : replies.upstreamRefused);
  for (const hook of [...hooks.onUpstreamFailure]) {
    try {
      await hook({ error, consecutiveFailures }, turn);
    } catch (hookError) {
      logger.error({ err: hookError }, 'an onUpstreamFailure hook failed');
    }
  }
}

async function safeReply(turn: Turn, markdown: string): Promise<void> {
  try {
    await turn.reply(markdown);
  } catch (error) {
    turn.logger.error({ err: error }, 'could not deliver the apology either');
  }
}

/** The first step: the user's message goes into the transcript, whatever happens next. */
export function recordMessageStep(): Step {
  return async (ctx, next) => {
    const { inbound } = ctx;
    const text = inbound.action ? inbound.text || `(pressed a button: ${inbound.action.value})` : inbound.text;
    const attachments = inbound.attachments.map(describeAttachment);
    ctx.record('user', text, { user: inbound.user, ...(attachments.length > 0 ? { attachments } : {}) });
    await next();
  };
}

export function describeAttachment(attachment: Pick<InboundAttachment, 'kind' | 'fileName' | 'mimeType' | 'size'>): string {
  const details = [attachment.fileName, attachment.mimeType, attachment.size === undefined ? undefined : `${attachment.size} bytes`]
    .filter(Boolean);
  return details.length > 0 ? `${attachment.kind} (${details.join(', ')})` : attachment.kind;
}
