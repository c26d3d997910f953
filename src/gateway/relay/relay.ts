import type { AskFinal, AskStreamEvent } from '../../upstream/api.js';
import type { SentMessage } from '../../contract.js';
import type { DeliveryContext } from './final-delivery.js';
import { PLATFORM_OUTAGE_HORIZON_MS } from '../gateway-policy.js';
import { resolvePacing } from './relay-policy.js';
import { finalMarkdownOf, renderFinal } from './rendering.js';
import { BufferedRenderer } from './renderers/buffered.js';
import type { RenderContext, StreamRenderer } from './renderers/context.js';
import { DraftRenderer } from './renderers/draft.js';
import { EditRenderer } from './renderers/edit.js';
import { NativeRenderer } from './renderers/native.js';
import { startTyping } from './typing.js';
import type { RelayRequest, RelayResult } from './types.js';
import { canDraft, canEdit, canStreamNatively } from '../reply/index.js';

/**
 * Shows a streamed answer in a conversation as it is written, with the renderer
 * the platform's capabilities allow, and ends on the authoritative final answer.
 *
 * The in-flight record is removed once the final is delivered. When the answer
 * stream or the final delivery fails, the error is rethrown and the record is
 * removed too: the caller tells the user what happened (its failure reply comes
 * after the half-shown answer, and is the last word), so no "interrupted" note
 * may follow later. Only a cut-off turn (the signal aborted: stopping, or the
 * lock moved) leaves the record, since its message is answered again, and the
 * process answering again adds the note first (`recoverConversation`).
 */
export async function relayAnswer(request: RelayRequest): Promise<RelayResult> {
  const { outbound, capabilities, conversation, logger } = request;
  const stats = { rateLimited: 0 };
  const typing = request.typing ?? startTyping(outbound, capabilities, conversation);
  let typingStopped: Promise<void> | null = null;
  const stopTyping = (): Promise<void> => (typingStopped ??= typing.stop());
  const delivery: DeliveryContext = {
    outbound,
    conversation,
    capabilities,
    logger,
    stats,
    pacing: resolvePacing(capabilities, request.pacing),
    signal: request.signal,
    outageHorizonMs: request.platformOutageHorizonMs ?? PLATFORM_OUTAGE_HORIZON_MS,
    ...(request.texts ? { texts: request.texts } : {}),
  };
  const context: RenderContext = {
    ...delivery,
    isGroup: request.isGroup,
    recipient: request.recipient,
    inflight: request.inflight.begin(conversation, logger),
    beforeFirstVisible: stopTyping,
  };

  let renderer = chooseRenderer(context);
  let joined = '';
  let final: AskFinal | null = null;
  let messages: SentMessage[];
  let finalMarkdown: string;
  const stopSignal = request.stopSignal;
  const readUntil =
    stopSignal && request.signal ? AbortSignal.any([request.signal, stopSignal]) : (stopSignal ?? request.signal);
  let stopped: boolean;
  try {
    for await (const event of untilAborted(request.answer, readUntil)) {
      if (event.type === 'final') {
        final = event;
        break;
      }
      joined += event.content;
      if (renderer.failed) renderer = await fallBackToEdit(renderer, context);
      renderer.onText(joined);
    }
    await renderer.settle();
    if (renderer.failed) renderer = await fallBackToEdit(renderer, context);
    stopped = final === null && stopSignal?.aborted === true && request.signal?.aborted !== true;
    final ??= incompleteFinal(joined);
    finalMarkdown = finalMarkdownOf(final, joined, request.texts?.emptyAnswer);
    if (stopped && request.stoppedNote) finalMarkdown = `${finalMarkdown}\n\n${request.stoppedNote}`.trim();
    messages = await renderer.finish(finalMarkdown, request.buttons);
  } catch (error) {
    await renderer.settle();
    await stopTyping();
    if (request.signal?.aborted) await context.inflight.leave();
    else await removeRecord(request, context);
    throw error;
  }
  await stopTyping();
  if (request.signal?.aborted) {
    // Cut off: what arrived was shown, but the message is answered again; the record stays for the note
    // (written now when only this partial final is on screen: drafts and typing leave no record before).
    context.inflight.partialFinalShown(messages, renderFinal(finalMarkdown, capabilities).at(-1) ?? '');
    await context.inflight.leave();
  } else {
    await removeRecord(request, context);
  }
  return { final, messages, renderer: renderer.kind, rateLimitedUpdates: stats.rateLimited, stopped };
}

/** With the caller's end-of-turn transaction when it has one (a crash before it leaves the record for recovery). */
async function removeRecord(request: RelayRequest, context: RenderContext): Promise<void> {
  if (request.commitInflightRemoval) request.commitInflightRemoval(await context.inflight.finishCommands());
  else await context.inflight.finish();
}

/** The richest way the conversation's outbound offers (its methods say what it can do). */
function chooseRenderer(context: RenderContext): StreamRenderer {
  const { outbound } = context;
  if (canDraft(outbound)) return new DraftRenderer(context);
  if (canStreamNatively(outbound)) return new NativeRenderer(context);
  return editOrBuffered(context);
}

function editOrBuffered(context: RenderContext): StreamRenderer {
  return canEdit(context.outbound) ? new EditRenderer(context) : new BufferedRenderer(context);
}

async function fallBackToEdit(failed: StreamRenderer, context: RenderContext): Promise<StreamRenderer> {
  await failed.settle();
  await failed.retire?.();
  context.logger.info({ from: failed.kind }, 'relay renderer fell back');
  return editOrBuffered(context);
}

/** The stream ended without a final object: the fragments are all we have. */
function incompleteFinal(joined: string): AskFinal {
  return {
    type: 'final',
    questionId: null,
    answerId: null,
    answer: joined,
    totalToken: null,
    noAnswer: null,
    incomplete: true,
  };
}

/** Yields the events until the stream ends or the signal aborts (then the stream is closed). */
async function* untilAborted(
  events: AsyncIterable<AskStreamEvent>,
  signal: AbortSignal | undefined,
): AsyncGenerator<AskStreamEvent> {
  if (!signal) {
    yield* events;
    return;
  }
  const iterator = events[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next === 'aborted' || next.done) return;
      yield next.value;
    }
  } finally {
    // The signal is the drain's, shared by every answer of the conversation: leave no listener on it.
    if (onAbort) signal.removeEventListener('abort', onAbort);
    // Not awaited: a stream stuck in next() may never settle its return().
    void iterator.return?.()?.catch(() => undefined);
  }
}
