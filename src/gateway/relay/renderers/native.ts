import type { Button, NativeStream, SentMessage } from '../../types.js';
import { deliverFinal } from '../final-delivery.js';
import { UpdatePacer, type UpdateOutcome } from '../pacer.js';
import { renderIntermediate } from '../rendering.js';
import { stableStreamPrefix } from '../text-cuts.js';
import { intervalFor, logUpdateError, streamUpdateFailed, type RenderContext, type StreamRenderer } from './context.js';

/**
 * Streams into the platform's own streaming message (Slack chat.startStream /
 * appendStream / stopStream). A stream can only grow, so only text whose
 * rendering will not change is appended (finished lines and sentences outside
 * code blocks), and only while it fits one message; `stop` then sets the first
 * chunk of the final answer and the rest follows in new messages. On the first failure `failed` is set and the
 * relay continues by edits.
 */
export class NativeRenderer implements StreamRenderer {
  readonly kind = 'native' as const;
  failed = false;
  private readonly pacer: UpdatePacer;
  private stream: NativeStream | null = null;
  private latest = '';
  /** Rendered text appended so far (the stream shows exactly this). */
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
    // `text: null`: the stream must be stopped even when it already shows the final text.
    const streamSlot = { text: null, replace: (text: string) => stream.stop(text) };
    return deliverFinal(this.context, [streamSlot], finalMarkdown, buttons);
  }

  async retire(): Promise<void> {
    // A stream left open keeps its "writing…" state; closing it on what it shows is the best we can do.
    await this.stream?.stop(this.appended).catch(() => undefined);
  }

  private async update(): Promise<UpdateOutcome> {
    if (this.failed) return { kind: 'waiting' };
    if (!this.stream && this.latest.trim().length < this.context.pacing.minInitialChars) return { kind: 'waiting' };
    const chunks = renderIntermediate(stableStreamPrefix(this.latest), this.context.capabilities);
    // Past one message the stream holds still; the final answer continues in new messages.
    if (chunks.length > 1) return { kind: 'waiting' };
    const rendered = chunks[0] ?? '';
    if (this.stream && (rendered.length <= this.appended.length || !rendered.startsWith(this.appended))) return { kind: 'waiting' };
    try {
      if (!this.stream) {
        const startStream = this.context.outbound.startStream;
        if (!startStream) throw new Error('this outbound has no startStream()');
        await this.context.beforeFirstVisible();
        this.stream = await startStream.call(this.context.outbound, this.context.conversation, rendered);
      } else {
        await this.stream.append(rendered.slice(this.appended.length));
      }
    } catch (error) {
      const { giveUp, ...outcome } = streamUpdateFailed(this.context, error, 'native streaming');
      this.failed ||= giveUp;
      return outcome;
    }
    this.appended = rendered;
    this.context.inflight.textShown(rendered);
    return { kind: 'shown' };
  }
}
