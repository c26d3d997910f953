/**
 * The answer step: media prepared and uploaded (with a typing indicator while
 * that takes), ClientAsk streamed, and the answer relayed to the platform. While
 * the service cannot be reached before the answer starts, the step waits for it
 * (upstream-wait.ts) and tells the user once; the message stays queued meanwhile.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AskStreamEvent, ClientAskRequest } from '../../upstream/api.js';
import { UpstreamError } from '../../upstream/errors.js';
import type { TurnContext } from './turn-context.js';
import {
  isMediaRefusal,
  isUnreadFile,
  prepareAttachments,
  type MediaRefusal,
  type PreparedMedia,
} from '../media/index.js';
import type { Step } from './pipeline.js';
import { relayAnswer, startTyping, type TypingHandle } from '../relay/index.js';
import { forgetWhenLeaving, resetTurnAttempts } from './poison-limit.js';
import { decideUpstreamWait, isServiceUnavailable } from './upstream-wait.js';
import { serviceMediaRefusal } from '../media/index.js';
import type { UserTexts } from '../user-texts.js';
import { questionText } from './question.js';
import { markIfStopped } from './stop-request.js';

const TEXT_ONLY: PreparedMedia = { chatAskType: 'Text', fileIds: [], notes: [], unread: [] };

/** Why each unreadable file was left out (the same sentence once), and that the message is answered without them. */
function unreadNote(unread: MediaRefusal[], files: number, texts: UserTexts): string {
  const reasons = [...new Set(unread.map((refusal) => refusal.message))];
  return [...reasons, files === 1 ? texts.media.answeredWithout.one : texts.media.answeredWithout.many].join(' ');
}

export function askStep(): Step {
  return async (ctx) => {
    // On the message being answered: a platform may show the indicator there (WhatsApp Cloud marks it read).
    const typingOptions = { replyingTo: ctx.inbound.platformMessageId };
    // Started while a burst settled (turn/burst-wait.ts): carried on rather than shown again.
    let typing = ctx.typing ?? startTyping(ctx.outbound, ctx.capabilities, ctx.conversation, typingOptions);
    let answer: AsyncIterable<AskStreamEvent>;
    let toldUnread = false;
    const texts = await ctx.texts();
    for (;;) {
      try {
        if (ctx.stopSignal.aborted) return await stopThen(typing, () => replyStopped(ctx, texts));
        const prepared = await prepareMedia(ctx, texts);
        const hasText = ctx.inbound.text.trim() !== '';
        if (isMediaRefusal(prepared) && !(hasText && isUnreadFile(prepared)))
          return await stopThen(typing, () => ctx.reply(prepared.message));
        const media = isMediaRefusal(prepared) ? { ...TEXT_ONLY, unread: [prepared] } : prepared;
        if (!hasText && media.fileIds.length === 0)
          return await stopThen(typing, () => ctx.reply(texts.nothingToAnswer));
        if (media.unread.length > 0 && !toldUnread) {
          // Said before the answer (and once, however often the service is waited for): why a file is left out.
          await ctx.reply(unreadNote(media.unread, ctx.inbound.attachments.length - media.fileIds.length, texts));
          toldUnread = true;
        }
        answer = await openAnswer(ctx, {
          content: questionText(ctx.messages, ctx.services.policy.quoteMaxChars),
          ...(media.fileIds.length > 0 ? { chatAskType: media.chatAskType, fileIds: media.fileIds } : {}),
        });
        break;
      } catch (error) {
        await typing.stop();
        if (stoppedByUser(ctx)) return await replyStopped(ctx, texts);
        if (!(await waitForService(ctx, error, texts))) {
          if (stoppedByUser(ctx)) return await replyStopped(ctx, texts);
          // The service refused the files (uploads off there, its own limit): say so, with its reason.
          const refusal = serviceMediaRefusal(ctx.inbound.attachments, error, texts.media);
          if (refusal) return await ctx.reply(refusal);
          throw error;
        }
        typing = startTyping(ctx.outbound, ctx.capabilities, ctx.conversation, typingOptions);
      }
    }

    answerStarted.add(ctx);
    const result = await relayAnswer({
      outbound: ctx.outbound,
      capabilities: ctx.capabilities,
      conversation: ctx.conversation,
      isGroup: ctx.inbound.isGroup,
      // The user asking: a native stream names its recipient (Slack, outside DMs).
      recipient: ctx.inbound.user,
      answer,
      inflight: ctx.services.inflight,
      logger: ctx.logger,
      signal: ctx.signal,
      stopSignal: ctx.stopSignal,
      stoppedNote: texts.stoppedNote,
      // The indicator shown while media uploaded and ClientAsk opened carries on until the first text.
      typing,
      // Removed in the same transaction that takes the message off the queue.
      commitInflightRemoval: (commands) => ctx.later(...commands),
      platformOutageHorizonMs: ctx.services.policy.platformOutageHorizonMs,
      texts,
      ...(ctx.answerButtons.length > 0 ? { buttons: ctx.answerButtons } : {}),
    });
    // Cut off (stopping, or the lock moved): the message stays queued and is answered again in full.
    ctx.signal.throwIfAborted();
    ctx.answered = true;
    ctx.services.observer.answered?.(ctx.conversation, {
      renderer: result.renderer,
      rateLimitedUpdates: result.rateLimitedUpdates,
      seconds: (Date.now() - ctx.startedAt) / 1000,
    });
    ctx.record('bot', result.stopped ? `${result.final.answer}\n\n${texts.stoppedNote}`.trim() : result.final.answer);
    if (result.stopped) {
      markIfStopped(ctx);
      ctx.logger.info('the user stopped the answer; it ends where it was');
    }
    // The afterAnswer listeners are told once the pipeline is done (turn/run-turn.ts).
    ctx.answer = result.final;
  };
}

/**
 * The service could not be reached before the answer started: unless the outage horizon
 * has passed, the user is told once that the answer will come, and after a backoff the
 * message is asked again (true). False: give up, the caller reports the failure. Throws
 * the signal's reason when the turn is cut off meanwhile (it stays queued).
 */
async function waitForService(ctx: TurnContext, error: unknown, texts: UserTexts): Promise<boolean> {
  if (ctx.signal.aborted || !isServiceUnavailable(error)) return false;
  const wait = await decideUpstreamWait(ctx);
  if (!wait) return false;
  waitedForService.add(ctx);
  ctx.services.observer.upstreamFailed?.(error.operation);
  // The wait's record (just written) and the count set back to 0 below go when the message leaves the queue.
  forgetWhenLeaving(ctx);
  // Waiting is not failing: the poison limit counts only turns that were cut off.
  await resetTurnAttempts(ctx);
  if (wait.first) {
    ctx.logger.warn(
      { err: error, operation: error.operation, kind: error.kind, hint: error.hint },
      'the Chatbot Service is unreachable; the message stays queued and is asked again with backoff',
    );
    await ctx
      .reply(texts.upstreamWaiting)
      .catch((replyError: unknown) =>
        ctx.logger.error({ err: replyError }, 'could not tell the user the answer will come'),
      );
  } else {
    ctx.logger.info(
      { err: error, retryInMs: wait.retryAfterMs },
      'the Chatbot Service is still unreachable; the message stays queued',
    );
  }
  // A /stop ends the wait (the caller tells the user); only the turn's own signal cuts it off.
  await sleep(wait.retryAfterMs, undefined, { signal: AbortSignal.any([ctx.signal, ctx.stopSignal]) }).catch(
    (sleepError: unknown) => {
      if (ctx.signal.aborted) throw sleepError;
    },
  );
  return !ctx.stopSignal.aborted;
}

const waitedForService = new WeakSet<TurnContext>();

/** The turn waited for the service at least once (each try was counted in the metrics then). */
export function hasWaitedForService(ctx: TurnContext): boolean {
  return waitedForService.has(ctx);
}

/**
 * Turns whose answer began streaming. A failure before that (the service down) can be
 * waited out and the message asked again; a failure after it cut a visible answer short,
 * and the user is told so at once.
 */
const answerStarted = new WeakSet<TurnContext>();

export function hasAnswerStarted(ctx: TurnContext): boolean {
  return answerStarted.has(ctx);
}

/** Stopped by the user, not cut off: the turn goes on to its end. */
function stoppedByUser(ctx: TurnContext): boolean {
  return ctx.stopSignal.aborted && !ctx.signal.aborted;
}

/** Stopped before any of the answer was shown: the note alone says so. */
async function replyStopped(ctx: TurnContext, texts: UserTexts): Promise<void> {
  markIfStopped(ctx);
  ctx.logger.info('the user stopped the answer before it started');
  await ctx.reply(texts.stoppedNote);
}

/** A reply instead of an answer: the typing indicator goes first, so it does not outlive the reply. */
async function stopThen(typing: TypingHandle, reply: () => Promise<void>): Promise<void> {
  await typing.stop();
  await reply();
}

async function prepareMedia(ctx: TurnContext, texts: UserTexts) {
  if (ctx.inbound.attachments.length === 0) return TEXT_ONLY;
  const settings = await ctx.settings();
  const { upstream, ffmpegPath } = ctx.services;
  return prepareAttachments(ctx.inbound.attachments, {
    settings: { EnableUploadImage: settings.EnableUploadImage, EnablePushToTalk: settings.EnablePushToTalk },
    capabilities: ctx.capabilities,
    upload: (file) => upstream.uploadFile(file, { signal: ctx.signal }),
    signal: ctx.signal,
    texts: texts.media,
    ...(ffmpegPath ? { ffmpegPath } : {}),
  });
}

/**
 * Starts ClientAsk and waits for its first event, so that a session the service
 * has forgotten (sessions expire there) is replaced with a new one and asked
 * again, before anything was shown to the user.
 */
async function openAnswer(
  ctx: TurnContext,
  request: Omit<ClientAskRequest, 'sessionId'>,
): Promise<AsyncIterable<AskStreamEvent>> {
  const { upstream, sessions } = ctx.services;
  for (let attempt = 1; ; attempt++) {
    const sessionId =
      ctx.sessionId ??
      (await sessions.ensure(ctx.conversation, ctx.bot.serialNumber, undefined, { signal: ctx.signal }));
    // A /stop closes the service's stream too: the answer is not written on for nobody.
    const signal = AbortSignal.any([ctx.signal, ctx.stopSignal]);
    const iterator = upstream.askStream({ ...request, sessionId }, { signal })[Symbol.asyncIterator]();
    try {
      return prepend(await untilAborted(iterator.next(), signal), iterator);
    } catch (error) {
      void iterator.return?.()?.catch(() => undefined);
      if (attempt > 1 || !isUnknownSession(error)) throw error;
      ctx.logger.info({ sessionId }, 'the service no longer knows this session; starting a new one');
      await sessions.reset(ctx.conversation);
      delete ctx.sessionId;
    }
  }
}

/** The first event, or the abort: a service that ignores the signal must not hold a stopping gateway. */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function isUnknownSession(error: unknown): boolean {
  return (
    error instanceof UpstreamError && error.operation === 'ClientAsk' && (error.status === 404 || error.code === 404)
  );
}

async function* prepend<T>(first: IteratorResult<T>, rest: AsyncIterator<T>): AsyncGenerator<T> {
  if (first.done) return;
  try {
    yield first.value;
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    void rest.return?.()?.catch(() => undefined);
  }
}
