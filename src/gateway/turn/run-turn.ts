/**
 * Runs one queued message through the pipeline, and turns whatever went wrong
 * into a reply the user can act on: the answer cut short mid-stream, the
 * service unreachable (after the ask step waited for it up to the horizon,
 * see upstream-wait.ts), the service's own words when it refuses for a limit,
 * an apology when it refuses the message, a generic apology for our own bugs.
 * A message cut off in every turn leaves the queue, saying so (turn/poison-limit.ts).
 * After the pipeline, the turn's events (turn/turn-events.ts) are told of the answer, or
 * of an upstream failure (once per message; the handoff counts them in a row). Nothing a
 * user sent goes unanswered, and all of it is in the transcript.
 */
import { UpstreamError } from '../../upstream/errors.js';
import { hasAnswerStarted, hasWaitedForService } from './ask-step.js';
import type { Turn, TurnContext } from './turn-context.js';
import type { TurnEvents } from './turn-events.js';
import type { Step } from './pipeline.js';
import { givePoisonReply, hasUsedUpAttempts } from './poison-limit.js';
import { PlatformError } from '../../contract.js';
import { describeAttachment, transcriptFile } from '../stores/index.js';
import { releaseUnchecked, startTurn, type TurnReads } from './first-batch.js';
import type { ConversationRef } from '../../contract.js';
import type { HeadOrigin } from '../drain/index.js';
import type { Gathered } from './burst-wait.js';
import { isPlatformOutage } from '../reply/index.js';

export type TurnOutcome =
  /** `answered`: the queue's entries the turn answered (turn/burst-wait.ts), when not its head alone. */
  | { outcome: 'done'; answered?: string[] }
  /** Cut off (stopping, or the lock moved): the message stays queued and is answered again in full. */
  | { outcome: 'aborted' };

/** What runTurn needs besides the pipeline: the features' reads, and the recovery of a previous holder's half answers. */
export interface TurnStarter {
  reads: TurnReads;
  /**
   * Closes the answers a previous holder of the conversation left half-shown (the note), before
   * answering again; it waits for a platform not ready yet until `signal` (the turn's) aborts.
   */
  recover(conversation: ConversationRef, signal: AbortSignal): Promise<void>;
}

export async function runTurn(
  turn: Turn,
  pipeline: (ctx: TurnContext) => Promise<void>,
  events: TurnEvents,
  starter: TurnStarter,
  origin: HeadOrigin,
  gather?: (turn: Turn) => Promise<Gathered | undefined>,
): Promise<TurnOutcome> {
  // What earlier turns of the message kept for this one (its count, its wait for the service) is deleted by the turn
  // that counted or waited, with its message's removal from the queue (poison-limit.ts forgetWhenLeaving).
  const { attempt, leftovers } = await startTurn(turn, starter.reads, origin);
  if (leftovers.length > 0) {
    // The lock was free when this process took the conversation: whoever showed those answers is gone.
    await starter
      .recover(turn.conversation, turn.signal)
      .catch((error: unknown) =>
        turn.logger.warn({ err: error }, 'could not resolve the answers the previous holder left'),
      );
  }
  let cutOff = false;
  let gathered: Gathered | undefined;
  try {
    // Cut off while the note waited for the platform: the next holder gives the note, then the answer.
    if (turn.signal.aborted) {
      cutOff = true;
      return { outcome: 'aborted' };
    }
    gathered = await gather?.(turn);
    const done = { outcome: 'done', ...(gathered ? { answered: gathered.answered } : {}) } as const;
    // Every message of it deleted before its answer started: nobody is answered.
    if (gathered?.empty) return done;
    if (hasUsedUpAttempts(turn, attempt)) {
      recordUserMessage(turn);
      await safeReply(turn, () => givePoisonReply(turn));
      return done;
    }
    await pipeline(turn);
    if (turn.answer) {
      // Still part of the turn: a listener's failure is reported like a step's.
      for (const listener of events.of('afterAnswer')) await listener(turn.answer, turn);
    }
    return done;
  } catch (error) {
    if (turn.signal.aborted) {
      cutOff = true;
      return { outcome: 'aborted' };
    }
    await reportFailure(turn, error, events);
    return { outcome: 'done', ...(gathered ? { answered: gathered.answered } : {}) };
  } finally {
    await turn.typing?.stop();
    await releaseUnchecked(turn, cutOff);
  }
}

/**
 * Tells the `committed` listeners, after the queue advance made the turn's writes durable (the
 * drain calls it, through the turn runner's result). Never throws: the turn is over.
 */
export async function tellCommitted(turn: Turn, events: TurnEvents): Promise<void> {
  for (const listener of events.of('committed')) {
    try {
      await listener(turn);
    } catch (error) {
      turn.logger.error({ err: error }, 'a committed listener failed (the turn stands)');
    }
  }
}

async function reportFailure(turn: Turn, error: unknown, events: TurnEvents): Promise<void> {
  const { logger } = turn;
  if (error instanceof PlatformError) {
    if (error.kind === 'window-closed') {
      // Retrying the same text never helps (only a template may go): the turn ends here, counted.
      logger.warn(
        { err: error, platformCode: error.platformCode },
        "the platform's reply window has closed; the reply is not sent, nor tried again",
      );
      turn.services.observer.windowClosed?.(turn.conversation);
    } else if (isPlatformOutage(error)) {
      logger.error(
        { err: error, horizonMs: turn.services.policy.platformOutageHorizonMs },
        error.kind === 'unauthorized'
          ? "the platform refused the bot's token past the outage horizon; the reply is dropped"
          : 'the platform stayed unreachable past the outage horizon; the reply is dropped',
      );
    } else {
      logger.error({ err: error }, 'the platform refused our reply; the user may not have seen an answer');
    }
    turn.record('system', `Could not deliver the reply: ${error.message}`);
    return;
  }
  if (error instanceof UpstreamError && (error.status === 429 || error.code === 429)) {
    // The service applied one of the chatbot's own limits; its message is written for the user.
    logger.info({ err: error }, 'the service refused the message for a limit');
    await safeReply(turn, async () => turn.reply(error.message || (await turn.texts()).rateLimitedDefault));
    return;
  }
  if (!(error instanceof UpstreamError)) {
    logger.error({ err: error }, 'answering a message failed');
    await safeReply(turn, async () => turn.reply((await turn.texts()).internalError));
    return;
  }
  logger.warn(
    { err: error, operation: error.operation, kind: error.kind, hint: error.hint },
    'the Chatbot Service failed',
  );
  const cutShort = hasAnswerStarted(turn);
  // A transient failure (down, timeout, 5xx) will pass; anything else is the service refusing this message.
  const texts = await turn.texts();
  const text = cutShort ? texts.answerCutOff : error.transient ? texts.upstreamDown : texts.upstreamRefused;
  await safeReply(turn, () => turn.reply(text));
  await tellUpstreamFailure(turn, error, events);
}

/**
 * One more message the service failed, for the metric and the upstreamFailure listeners (the handoff
 * counts them in a row, and forgets its count on an answer: the core keeps no count). A message that
 * waited for the service is told once, when it is given up (the metric counted each try).
 */
async function tellUpstreamFailure(turn: Turn, error: UpstreamError, events: TurnEvents): Promise<void> {
  if (!hasWaitedForService(turn)) turn.services.observer.upstreamFailed?.(error.operation);
  for (const listener of events.of('upstreamFailure')) {
    try {
      await listener({ error }, turn);
    } catch (listenerError) {
      turn.logger.error({ err: listenerError }, 'an upstreamFailure listener failed');
    }
  }
}

async function safeReply(turn: Turn, reply: () => Promise<void>): Promise<void> {
  try {
    await reply();
  } catch (error) {
    turn.logger.error({ err: error }, 'could not deliver the reply either');
  }
}

/** The first step: the user's message goes into the transcript, whatever happens next. */
export function recordMessageStep(): Step {
  return async (ctx, next) => {
    recordUserMessage(ctx);
    await next();
  };
}

/** Each message as the user wrote it, a burst's one by one. */
function recordUserMessage(ctx: TurnContext): void {
  for (const inbound of ctx.messages) {
    const text = inbound.action ? inbound.text || `(pressed a button: ${inbound.action.value})` : inbound.text;
    const attachments = inbound.attachments.map(describeAttachment);
    // The files' refs too, so that the inbox can show them through the gateway (never a platform URL).
    const files = inbound.attachments.map(transcriptFile);
    ctx.record('user', text, { user: inbound.user, ...(attachments.length > 0 ? { attachments, files } : {}) });
  }
}
