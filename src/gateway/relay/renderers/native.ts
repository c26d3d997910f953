import type { Button, NativeStream, SentMessage } from '../../../contract.js';
import { deliverButtons, deliverFinal, isPlatformOutage, withFinalRetries } from '../final-delivery.js';
import { UpdatePacer, type UpdateOutcome } from '../pacer.js';
import { renderFinal, renderIntermediate } from '../rendering.js';
import { piecesOf, stableStreamPrefix } from '../text-cuts.js';
import { intervalFor, logUpdateError, streamUpdateFailed, type RenderContext, type StreamRenderer } from './context.js';

/**
 * Streams into the platform's own streaming message (Slack chat.startStream /
 * appendStream / stopStream), which takes standard Markdown and only grows. Only
 * Markdown that will not change as more arrives is appended (finished lines and
 * sentences outside code blocks), in pieces the platform takes per call
 * (`nativeStreamMaxChars`), and only while the answer fits one message. At the end
 * the stream takes the rest of the final answer when the whole answer fits one
 * message; otherwise it is closed as it is and the rest follows in new messages.
 * On the first failure mid-answer `failed` is set and the relay continues by edits.
 * A cut-off answer leaves its stream open, for the note of the process answering again.
 */
export class NativeRenderer implements StreamRenderer {
  readonly kind = 'native' as const;
  failed = false;
  private readonly pacer: UpdatePacer;
  private stream: NativeStream | null = null;
  private latest = '';
  /** Markdown the stream took so far (it shows exactly this). */
  private appended = '';

  constructor(private readonly context: RenderContext) {
    this.pacer = new UpdatePacer(intervalFor(context), () => this.update(), logUpdateError(context, this.kind));
  }

  onText(markdown: string): void {
    this.latest = markdown;
    if (!this.failed) this.pacer.offer();
  }

  settle(): Promise<void> {
    return this.pacer.drain();
  }

  async finish(finalMarkdown: string, buttons?: Button[]): Promise<SentMessage[]> {
    const stream = this.stream;
    if (!stream) {
      await this.context.beforeFirstVisible();
      return deliverFinal(this.context, [], finalMarkdown, buttons);
    }
    // A stream only grows: it can carry the final answer only where that continues what it shows.
    const continues = finalMarkdown.startsWith(this.appended);
    if (!continues)
      this.context.logger.info(
        'the final answer differs from what was streamed; closing the stream and sending the answer whole',
      );
    const fitsOneMessage = renderFinal(finalMarkdown, this.context.capabilities).length === 1;
    const rest = continues && fitsOneMessage ? finalMarkdown.slice(this.appended.length) : '';
    if (this.context.signal?.aborted) return this.leaveOpen(stream, rest);
    try {
      await this.end(stream, rest);
    } catch (error) {
      // An unreachable platform (or one refusing the token) was retried up to the outage horizon: a new message would not get through either.
      if (isPlatformOutage(error)) throw error;
      this.context.logger.warn(
        { err: error },
        'the native stream could not be ended; the rest of the answer follows in new messages',
      );
    }
    const remaining = continues ? finalMarkdown.slice(this.appended.length) : finalMarkdown;
    if (remaining.trim() !== '') return deliverFinal(this.context, [], remaining, buttons);
    // A stream cannot carry buttons: they come in a message of their own.
    await deliverButtons(this.context, buttons);
    return [];
  }

  /**
   * The turn was cut off (stopping, or the lock moved): its message is answered again, and
   * whoever answers it first ends this stream with the note (`recoverConversation`, from the
   * in-flight record). Ended here, the stream could not take the note any more: it takes what
   * arrived and stays open.
   */
  private async leaveOpen(stream: NativeStream, rest: string): Promise<SentMessage[]> {
    try {
      for (const piece of piecesOf(rest, this.maxChars())) {
        await stream.append(piece);
        this.appended += piece;
      }
    } catch (error) {
      this.context.logger.info(
        { err: error },
        'the rest of a cut-off answer could not be streamed; the stream is left for the process answering again',
      );
    }
    return [];
  }

  async retire(): Promise<void> {
    // A stream left open keeps its "writing…" state; closing it on what it shows is the best we can do.
    await this.stream?.stop('').catch(() => undefined);
  }

  /** Appends `rest` in pieces and stops the stream with the last one, each call with the final retries. */
  private async end(stream: NativeStream, rest: string): Promise<void> {
    const pieces = piecesOf(rest, this.maxChars());
    const last = pieces.pop() ?? '';
    for (const piece of pieces) {
      await withFinalRetries(this.context, () => stream.append(piece));
      this.appended += piece;
    }
    // Closing is the final update of this message: as patient as a last-resort new message, or it stays "writing…".
    await withFinalRetries(this.context, () => stream.stop(last), { lastResort: true });
    this.appended += last;
  }

  private maxChars(): number {
    return this.context.capabilities.nativeStreamMaxChars ?? this.context.capabilities.maxMessageLength;
  }

  private async update(): Promise<UpdateOutcome> {
    if (this.failed) return { kind: 'waiting' };
    const stable = stableStreamPrefix(this.latest);
    // The stream opens with text that will stay, or not at all: opened empty, it would use up
    // the pacing interval and the first words would wait for the next update.
    if (!this.stream && stable.trim().length < this.context.pacing.minInitialChars) return { kind: 'waiting' };
    // Past one message the stream holds still; the final answer continues in new messages.
    const rendered = renderIntermediate(stable, this.context.capabilities);
    if (rendered.length > 1) return { kind: 'waiting' };
    if (this.stream && (stable.length <= this.appended.length || !stable.startsWith(this.appended)))
      return { kind: 'waiting' };
    const pieces = piecesOf(stable.slice(this.appended.length), this.maxChars());
    try {
      if (!this.stream) {
        const { outbound, conversation, recipient } = this.context;
        if (!outbound.startStream) throw new Error('this outbound has no startStream()');
        await this.context.beforeFirstVisible();
        const first = pieces.shift() ?? '';
        this.stream = await outbound.startStream(conversation, recipient, first);
        this.appended = first;
        // Open from now on, and "writing…" until ended: recovery needs its id if this process dies.
        this.context.inflight.streamStarted(this.stream.id);
      }
      for (const piece of pieces) {
        await this.stream.append(piece);
        this.appended += piece;
      }
    } catch (error) {
      const { giveUp, ...outcome } = streamUpdateFailed(this.context, error, 'native streaming');
      this.failed ||= giveUp;
      return outcome;
    }
    this.context.inflight.textShown(rendered[0] ?? '');
    return { kind: 'shown' };
  }
}
