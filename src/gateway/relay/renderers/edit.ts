import { setTimeout as sleep } from 'node:timers/promises';
import type { Button, SentMessage } from '../../types.js';
import { deliverFinal, isPlatformError, messageSlot, type ScreenSlot } from '../final-delivery.js';
import { UpdatePacer, type UpdateOutcome } from '../pacer.js';
import { SENTENCE_WAIT_FACTOR } from '../policy.js';
import { renderIntermediate } from '../rendering.js';
import { cutAtSentenceEnd } from '../text-cuts.js';
import { intervalFor, logUpdateError, type RenderContext, type StreamRenderer } from './context.js';

/**
 * Sends the first message once there is a little text, then edits it in place
 * as the answer grows (paced, and cut at sentence ends when it can), continuing
 * in new messages when the answer outgrows one.
 */
export class EditRenderer implements StreamRenderer {
  readonly kind = 'edit' as const;
  readonly failed = false;
  private readonly screen: ScreenSlot[] = [];
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
    if (this.screen.length === 0) await this.context.beforeFirstVisible();
    // A final edit right after the last update would only earn a 429 (Telegram: one message
    // per second per chat) and a retry_after: waiting out the per-chat spacing is cheaper.
    const holdMs = this.pacer.holdFinalFor(this.context.pacing.editIntervalMs.private);
    if (holdMs > 0) await sleep(holdMs, undefined, this.context.signal ? { signal: this.context.signal } : {}).catch(() => undefined);
    return deliverFinal(this.context, this.screen, finalMarkdown, buttons);
  }

  /** The prefix of the text worth showing now, or null to wait for more. */
  private nextTarget(): string | null {
    const { minInitialChars, minGrowthChars } = this.context.pacing;
    if (this.screen.length === 0) return this.latest.trim().length >= minInitialChars ? this.latest : null;
    const minLength = this.shownLength + minGrowthChars;
    return cutAtSentenceEnd(this.latest, minLength, this.shownLength + minGrowthChars * SENTENCE_WAIT_FACTOR);
  }

  private async update(): Promise<UpdateOutcome> {
    const target = this.nextTarget();
    if (target === null) return { kind: 'waiting' };
    const chunks = renderIntermediate(target, this.context.capabilities);
    try {
      for (const [index, chunk] of chunks.entries()) await this.show(index, chunk);
    } catch (error) {
      if (!isPlatformError(error, 'rate-limited')) throw error;
      this.context.stats.rateLimited++;
      return { kind: 'rate-limited', retryAfterMs: error.retryAfterMs ?? 0 };
    }
    this.shownLength = target.length;
    const last = this.screen.at(-1);
    if (last?.text) this.context.inflight.textShown(last.text);
    return { kind: 'shown' };
  }

  private async show(index: number, text: string): Promise<void> {
    const { outbound, conversation } = this.context;
    const slot = this.screen[index];
    if (!slot) {
      if (this.screen.length === 0) await this.context.beforeFirstVisible();
      const message = await outbound.send(conversation, { text, progress: true });
      this.screen.push(messageSlot(this.context, message, text));
      this.context.inflight.messageCreated(message, text);
      return;
    }
    if (slot.text === text || !slot.replace) return;
    try {
      await slot.replace(text, undefined, true);
    } catch (error) {
      // "Not modified" means the message already shows this text.
      if (!isPlatformError(error, 'not-modified')) throw error;
    }
    slot.text = text;
  }
}
