import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformError, type Button, type SentMessage } from '../../../contract.js';
import type { PlacedChunk } from '../../../format/index.js';
import { deliverFinal, isNoLongerEditable, isPlatformError, messageSlot, type ScreenSlot } from '../final-delivery.js';
import { UpdatePacer, type UpdateOutcome } from '../pacer.js';
import { SENTENCE_WAIT_FACTOR } from '../relay-policy.js';
import { layOutIntermediate } from '../rendering.js';
import { cutAtSentenceEnd } from '../text-cuts.js';
import { intervalFor, logUpdateError, skippedUpdate, type RenderContext, type StreamRenderer } from './context.js';

/**
 * Sends the first message once there is a little text, then edits it in place
 * as the answer grows (paced, and cut at sentence ends when it can), continuing
 * in new messages when the answer outgrows one.
 *
 * A message that can no longer be edited (past the platform's edit window, or
 * refused as 'not-editable') is sealed: it keeps what it shows, and the answer
 * goes on in a new message exactly where that text ends, for the intermediate
 * updates and the final alike. The messages of an answer so read as the answer,
 * each part once, in order. Positions are counted in the answer's visible text as
 * laid out for the platform (`LaidOutAnswer`), not in its Markdown, so a new
 * message that starts inside bold text or a code block opens them again and is
 * valid on its own. When the final answer does not go on from what the sealed
 * messages show (the service's final text differs from what was streamed), the
 * whole final answer comes after them (`deliverFinal`).
 */
export class EditRenderer implements StreamRenderer {
  readonly kind = 'edit' as const;
  readonly failed = false;
  /** Messages that will not change again, in reading order. */
  private readonly sealed: ScreenSlot[] = [];
  /** The visible text the sealed messages show, from the answer's start: the open messages go on from its end. */
  private sealedVisible = '';
  /** Messages still edited, in reading order. */
  private open: ScreenSlot[] = [];
  private readonly pacer: UpdatePacer;
  private latest = '';
  /** Length of the Markdown prefix the screen shows. */
  private shownLength = 0;

  constructor(private readonly context: RenderContext) {
    this.pacer = new UpdatePacer(intervalFor(context), () => this.update(), logUpdateError(context, this.kind));
  }

  onText(markdown: string): void {
    this.latest = markdown;
    this.pacer.offer();
  }

  settle(): Promise<void> {
    return this.pacer.drain();
  }

  async finish(finalMarkdown: string, buttons?: Button[]): Promise<SentMessage[]> {
    if (this.nothingShown()) await this.context.beforeFirstVisible();
    // A final edit right after the last update would only earn a 429 (Telegram: one message
    // per second per chat) and a retry_after: waiting out the per-chat spacing is cheaper.
    const holdMs = this.pacer.holdFinalFor(this.context.pacing.editIntervalMs.private);
    if (holdMs > 0)
      await sleep(holdMs, undefined, this.context.signal ? { signal: this.context.signal } : {}).catch(() => undefined);
    // Messages whose window is over are sealed now, so the final continues after them
    // instead of trying edits that are bound to be refused.
    if (this.open.some((slot) => !slot.replace || pastWindow(slot))) this.sealOpen('its edit window passed');
    const delivered = await deliverFinal(this.context, this.open, finalMarkdown, buttons, {
      after: this.sealedVisible,
    });
    return [...this.sealed.map((slot) => slot.message), ...delivered];
  }

  private nothingShown(): boolean {
    return this.sealed.length === 0 && this.open.length === 0;
  }

  /** The prefix of the text worth showing now, or null to wait for more. */
  private nextTarget(): string | null {
    const { minInitialChars, minGrowthChars } = this.context.pacing;
    if (this.nothingShown()) return this.latest.trim().length >= minInitialChars ? this.latest : null;
    const minLength = this.shownLength + minGrowthChars;
    return cutAtSentenceEnd(this.latest, minLength, this.shownLength + minGrowthChars * SENTENCE_WAIT_FACTOR);
  }

  private async update(): Promise<UpdateOutcome> {
    const target = this.nextTarget();
    if (target === null) return { kind: 'waiting' };
    try {
      await this.showTarget(target);
    } catch (error) {
      const skipped = skippedUpdate(this.context, error);
      if (!skipped) throw error;
      return skipped;
    }
    this.shownLength = target.length;
    const last = this.open.at(-1) ?? this.sealed.at(-1);
    if (last) this.context.inflight.textShown(last.text);
    return { kind: 'shown' };
  }

  /** Shows `target` on the open messages; once more in new messages when one of them can no longer be edited. */
  private async showTarget(target: string): Promise<void> {
    const laid = layOutIntermediate(target, this.context.capabilities);
    for (let attempt = 1; ; attempt++) {
      const start = this.sealedVisible.length;
      // Normally the text laid out grows at its end only; where it changed inside what sealed
      // messages show (a table widening), `upTo` keeps what they show, so the final sees the difference.
      const upTo = (chunk: PlacedChunk) => this.sealedVisible + laid.visible.slice(start, chunk.to);
      try {
        for (const [index, chunk] of laid.chunksFrom(start).entries()) await this.show(index, chunk, upTo(chunk));
        return;
      } catch (error) {
        // After sealing, every open message is a new one: a second refusal is something else.
        if (attempt > 1 || !isNoLongerEditable(error)) throw error;
        this.sealOpen((error as Error).message);
      }
    }
  }

  private async show(index: number, chunk: PlacedChunk, upTo: string): Promise<void> {
    const { outbound, conversation } = this.context;
    const { text } = chunk;
    const slot = this.open[index];
    if (!slot) {
      if (this.nothingShown()) await this.context.beforeFirstVisible();
      const sentAt = Date.now();
      const message = await outbound.send(conversation, { text, progress: true });
      const sent = messageSlot(this.context, message, text, undefined, sentAt);
      sent.shows = { from: chunk.from, upTo };
      this.open.push(sent);
      this.context.inflight.messageCreated(message, text);
      return;
    }
    if (slot.text === text) {
      slot.shows = { from: chunk.from, upTo };
      return;
    }
    // Open messages are editable; this only guards the type (a sealed slot is never open).
    if (!slot.replace) throw new PlatformError(`message ${slot.message.id} cannot be edited`, 'not-editable');
    try {
      await slot.replace(text, undefined, true);
    } catch (error) {
      // "Not modified" means the message already shows this text.
      if (!isPlatformError(error, 'not-modified')) throw error;
    }
    slot.text = text;
    slot.shows = { from: chunk.from, upTo };
  }

  /**
   * The open messages will not change again: they keep what they show, and the answer
   * continues in new messages exactly where the last of them ends.
   */
  private sealOpen(why: string): void {
    const last = this.open.at(-1);
    if (!last) return;
    this.context.logger.info(
      { why, messages: this.open.map((slot) => slot.message.id) },
      'a message can no longer be edited; the answer continues in a new message',
    );
    for (const slot of this.open) delete slot.replace;
    this.sealed.push(...this.open);
    this.open = [];
    if (last.shows) this.sealedVisible = last.shows.upTo;
  }
}

/** An edit of this slot would be refused before reaching the platform (its window passed). */
function pastWindow(slot: ScreenSlot): boolean {
  return slot.editableUntil !== undefined && Date.now() >= slot.editableUntil;
}
