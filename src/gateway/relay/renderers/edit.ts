import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformError, type Button, type SentMessage } from '../../../contract.js';
import { deliverButtons, deliverFinal, isNoLongerEditable, isPlatformError, messageSlot, type ScreenSlot } from '../final-delivery.js';
import { UpdatePacer, type UpdateOutcome } from '../pacer.js';
import { SENTENCE_WAIT_FACTOR } from '../policy.js';
import { renderIntermediate } from '../rendering.js';
import { continuationPoint, cutAtSentenceEnd } from '../text-cuts.js';
import { intervalFor, logUpdateError, skippedUpdate, type RenderContext, type StreamRenderer } from './context.js';

/**
 * Sends the first message once there is a little text, then edits it in place
 * as the answer grows (paced, and cut at sentence ends when it can), continuing
 * in new messages when the answer outgrows one.
 *
 * A message that can no longer be edited (past the platform's edit window, or
 * refused as 'not-editable') is sealed: it keeps what it shows, and the answer
 * goes on in a new message from the last clean cut of that text
 * (`continuationPoint`), for the intermediate updates and the final alike.
 */
export class EditRenderer implements StreamRenderer {
  readonly kind = 'edit' as const;
  readonly failed = false;
  /** Messages that will not change again, in reading order. */
  private readonly sealed: ScreenSlot[] = [];
  /** Messages still edited: they show the answer's Markdown from `openFrom` on. */
  private open: ScreenSlot[] = [];
  /** Offset in the answer's Markdown where the open messages start. */
  private openFrom = 0;
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
    if (holdMs > 0) await sleep(holdMs, undefined, this.context.signal ? { signal: this.context.signal } : {}).catch(() => undefined);
    // Messages whose window is over are sealed now, so the final continues after them
    // instead of trying edits that are bound to be refused.
    if (this.open.some((slot) => !slot.replace || pastWindow(slot))) this.sealOpen('its edit window passed');
    const sealedMessages = this.sealed.map((slot) => slot.message);
    const sealedMarkdown = this.latest.slice(0, this.openFrom);
    if (!finalMarkdown.startsWith(sealedMarkdown)) {
      // The authoritative answer differs from what the sealed messages show: it comes whole.
      this.context.logger.info('the final answer differs from the text of messages that can no longer be edited; sending it whole after them');
      return [...sealedMessages, ...(await deliverFinal(this.context, this.open, finalMarkdown, buttons))];
    }
    const rest = finalMarkdown.slice(this.openFrom);
    if (this.openFrom > 0 && rest.trim() === '') {
      // The sealed messages already hold the whole answer.
      await deliverButtons(this.context, buttons);
      return sealedMessages;
    }
    return [...sealedMessages, ...(await deliverFinal(this.context, this.open, rest, buttons))];
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
    for (let attempt = 1; ; attempt++) {
      const chunks = renderIntermediate(target.slice(this.openFrom), this.context.capabilities);
      try {
        for (const [index, chunk] of chunks.entries()) await this.show(index, chunk);
        return;
      } catch (error) {
        // After sealing, every open message is a new one: a second refusal is something else.
        if (attempt > 1 || !isNoLongerEditable(error)) throw error;
        this.sealOpen((error as Error).message);
      }
    }
  }

  private async show(index: number, text: string): Promise<void> {
    const { outbound, conversation } = this.context;
    const slot = this.open[index];
    if (!slot) {
      if (this.nothingShown()) await this.context.beforeFirstVisible();
      const sentAt = Date.now();
      const message = await outbound.send(conversation, { text, progress: true });
      this.open.push(messageSlot(this.context, message, text, undefined, sentAt));
      this.context.inflight.messageCreated(message, text);
      return;
    }
    if (slot.text === text) return;
    // Open messages are editable; this only guards the type (a sealed slot is never open).
    if (!slot.replace) throw new PlatformError(`message ${slot.message.id} cannot be edited`, 'not-editable');
    try {
      await slot.replace(text, undefined, true);
    } catch (error) {
      // "Not modified" means the message already shows this text.
      if (!isPlatformError(error, 'not-modified')) throw error;
    }
    slot.text = text;
  }

  /**
   * The open messages will not change again: they keep what they show, and the answer
   * continues in new messages from the last clean cut of the Markdown they show.
   */
  private sealOpen(why: string): void {
    if (this.open.length === 0) return;
    const shown = this.latest.slice(this.openFrom, this.shownLength);
    const from = this.openFrom + continuationPoint(shown);
    this.context.logger.info({ why, messages: this.open.map((slot) => slot.message.id) }, 'a message can no longer be edited; the answer continues in a new message');
    for (const slot of this.open) delete slot.replace;
    this.sealed.push(...this.open);
    this.open = [];
    this.openFrom = from;
  }
}

/** An edit of this slot would be refused before reaching the platform (its window passed). */
function pastWindow(slot: ScreenSlot): boolean {
  return slot.editableUntil !== undefined && Date.now() >= slot.editableUntil;
}
