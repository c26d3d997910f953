import { randomInt } from 'node:crypto';
import type { Button, SentMessage } from '../../../contract.js';
import { deliverFinal } from '../final-delivery.js';
import { UpdatePacer, type UpdateOutcome } from '../pacer.js';
import { renderIntermediate } from '../rendering.js';
import { logUpdateError, streamUpdateFailed, type RenderContext, type StreamRenderer } from './context.js';

/** Telegram wants a non-zero draft id; updates to the same id animate one preview. */
const MAX_DRAFT_ID = 2 ** 31 - 1;

/**
 * Streams into an ephemeral draft (Telegram sendMessageDraft) and then sends the
 * final answer as real messages: the draft cannot be kept or edited. When the
 * platform refuses drafts, `failed` is set and the relay continues by edits.
 */
export class DraftRenderer implements StreamRenderer {
  readonly kind = 'draft' as const;
  failed = false;
  private readonly pacer: UpdatePacer;
  private readonly draftId = randomInt(1, MAX_DRAFT_ID);
  private latest = '';
  private drafted = '';
  private shownAny = false;

  constructor(private readonly context: RenderContext) {
    this.pacer = new UpdatePacer(
      context.pacing.draftIntervalMs,
      () => this.update(),
      logUpdateError(context, this.kind),
    );
  }

  onText(markdown: string): void {
    this.latest = markdown;
    if (!this.failed) this.pacer.offer();
  }

  settle(): Promise<void> {
    return this.pacer.drain();
  }

  async finish(finalMarkdown: string, buttons?: Button[]): Promise<SentMessage[]> {
    if (!this.shownAny) await this.context.beforeFirstVisible();
    return deliverFinal(this.context, [], finalMarkdown, buttons);
  }

  private async update(): Promise<UpdateOutcome> {
    const target = this.latest;
    if (this.failed || target === this.drafted || target.trim() === '') return { kind: 'waiting' };
    // A draft holds one message: show the part being written now, the whole answer comes at the end.
    const text = renderIntermediate(target, this.context.capabilities).at(-1);
    if (text === undefined) return { kind: 'waiting' };
    const draft = this.context.outbound.draft;
    try {
      if (!draft) throw new Error('this outbound has no draft()');
      if (!this.shownAny) await this.context.beforeFirstVisible();
      this.shownAny = true;
      await draft.call(this.context.outbound, this.context.conversation, this.draftId, text);
    } catch (error) {
      // Refused (unsupported, bad format or anything else): the rest of this answer goes by edits.
      const { giveUp, ...outcome } = streamUpdateFailed(this.context, error, 'drafts');
      this.failed ||= giveUp;
      return outcome;
    }
    this.drafted = target;
    return { kind: 'shown' };
  }
}
