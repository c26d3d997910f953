import type { AskFinal, AskStreamEvent } from '../../upstream/api.js';
import type { SentMessage } from '../types.js';
import type { DeliveryContext } from './final-delivery.js';
import { resolvePacing } from './policy.js';
import { finalMarkdownOf } from './rendering.js';
import { BufferedRenderer } from './renderers/buffered.js';
import type { RenderContext, StreamRenderer } from './renderers/context.js';
import { DraftRenderer } from './renderers/draft.js';
import { EditRenderer } from './renderers/edit.js';
import { NativeRenderer } from './renderers/native.js';
import { startTyping } from './typing.js';
import type { RelayRequest, RelayResult } from './types.js';

/**
 * Shows a streamed answer in a conversation as it is written, with the renderer
 * the platform's capabilities allow, and ends on the authoritative final answer.
 *
 * The in-flight record is removed once the final is delivered. When the answer
 * stream or the final delivery fails, the error is rethrown (the pipeline decides
 * what to tell the user) and the record is marked abandoned, so the next
 * `recoverInterruptedAnswers` run annotates the half-shown answer.
 */
export async function relayAnswer(request: RelayRequest): Promise<RelayResult> {
  const { outbound, capabilities, conversation, logger } = request;
  const stats = { rateLimited: 0 };
  const typing = request.typing ?? startTyping(outbound, capabilities, conversation);
  let typingStopped: Promise<void> | null = null;
  const stopTyping = (): Promise<void> => (typingStopped ??= typing.stop());
  const delivery: DeliveryContext = {
    outbound, conversation, capabilities, logger, stats,
    pacing: resolvePacing(capabilities, request.pacing),
    signal: request.signal,
  };
  const context: RenderContext = {
    ...delivery,
    isGroup: request.isGroup,
    inflight: request.inflight.begin(conversation, logger),
    beforeFirstVisible: stopTyping,
  };

  let renderer = chooseRenderer(context);
  let joined = '';
  let final: AskFinal | null = null;
  let messages: SentMessage[];
  try {
    for await (const event of untilAborted(request.answer, request.signal)) {
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
    final ??= incompleteFinal(joined);
    messages = await renderer.finish(finalMarkdownOf(final, joined), request.buttons);
  } catch (error) {
    await renderer.settle();
    await stopTyping();
    await context.inflight.abandon();
    throw error;
  }
  await stopTyping();
  if (request.commitInflightRemoval) request.commitInflightRemoval(await context.inflight.finishCommands());
  else await context.inflight.finish();
  return { final, messages, renderer: renderer.kind, rateLimitedUpdates: stats.rateLimited };
}

function chooseRenderer(context: RenderContext): StreamRenderer {
  const { capabilities, outbound } = context;
  if (capabilities.drafts && outbound.draft) return new DraftRenderer(context);
  if (capabilities.nativeStreaming && outbound.startStream) return new NativeRenderer(context);
  return editOrBuffered(context);
}

function editOrBuffered(context: RenderContext): StreamRenderer {
  return context.capabilities.canEdit && context.outbound.edit ? new EditRenderer(context) : new BufferedRenderer(context);
}

async function fallBackToEdit(failed: StreamRenderer, context: RenderContext): Promise<StreamRenderer> {
  await failed.settle();
  await failed.retire?.();
  context.logger.info({ from: failed.kind }, 'relay renderer fell back');
  return editOrBuffered(context);
}

/** The stream ended without a final object: the fragments are all we have. */
function incompleteFinal(joined: string): AskFinal {
  return { type: 'final', questionId: null, answerId: null, answer: joined, totalToken: null, noAnswer: null, incomplete: true };
}

/** Yields the events until the stream ends or the signal aborts (then the stream is closed). */
async function* untilAborted(events: AsyncIterable<AskStreamEvent>, signal: AbortSignal | undefined): AsyncGenerator<AskStreamEvent> {
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
