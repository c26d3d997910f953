import type { Button, PlatformUser, SentMessage } from '../../../contract.js';
import { isPlatformError, isPlatformOutage, type DeliveryContext } from '../final-delivery.js';
import type { InflightAnswer } from '../inflight.js';
import type { UpdateOutcome } from '../pacer.js';
import type { RendererKind } from '../types.js';

/** What every renderer of one answer shares. */
export interface RenderContext extends DeliveryContext {
  isGroup: boolean;
  /** The user the answer replies to (a native stream names its recipient). */
  recipient: PlatformUser;
  inflight: InflightAnswer;
  /** Call before the first visible output: stops the typing indicator (and waits for its call in flight). */
  beforeFirstVisible(): Promise<void>;
}

/** One way of showing an answer while it is written. */
export interface StreamRenderer {
  readonly kind: RendererKind;
  /** True once the renderer gave up mid-answer; the relay continues with the edit renderer. */
  readonly failed: boolean;
  /** The Markdown received so far grew. Never waits for the platform. */
  onText(markdown: string): void;
  /** Stops intermediate updates and waits for the one in flight. */
  settle(): Promise<void>;
  /** Makes the final answer visible (call after `settle`). */
  finish(finalMarkdown: string, buttons?: Button[]): Promise<SentMessage[]>;
  /** Called when the relay replaces a failed renderer: close what it left open, best effort. */
  retire?(): Promise<void>;
}

export function intervalFor(context: RenderContext): number {
  return context.isGroup ? context.pacing.editIntervalMs.group : context.pacing.editIntervalMs.private;
}

/**
 * While the platform is unreachable, intermediate updates are skipped and the next
 * one waits this long: the final answer is what must get through (it is retried up
 * to the outage horizon); a progress update only needs to be tried again now and then.
 */
export const UNREACHABLE_UPDATE_PAUSE_MS = 2_000;

/**
 * An intermediate update that only has to be skipped, not given up: a 429 (wait
 * retry_after) or an unreachable platform (wait UNREACHABLE_UPDATE_PAUSE_MS).
 * Null for any other failure.
 */
export function skippedUpdate(context: RenderContext, error: unknown): UpdateOutcome | null {
  if (isPlatformError(error, 'rate-limited')) {
    context.stats.rateLimited++;
    return { kind: 'rate-limited', retryAfterMs: error.retryAfterMs ?? 0 };
  }
  if (isPlatformOutage(error)) return { kind: 'rate-limited', retryAfterMs: UNREACHABLE_UPDATE_PAUSE_MS };
  return null;
}

/**
 * A draft or native-stream update failed. A 429 or an unreachable platform only skips
 * this update (`skippedUpdate`); anything else means the platform will not take this way
 * of streaming, and the answer continues by edits (`giveUp`, then 'waiting').
 */
export function streamUpdateFailed(
  context: RenderContext,
  error: unknown,
  what: string,
): UpdateOutcome & { giveUp: boolean } {
  const skipped = skippedUpdate(context, error);
  if (skipped) return { ...skipped, giveUp: false };
  context.logger.info({ err: error }, `${what} refused; continuing this answer by edits`);
  return { kind: 'waiting', giveUp: true };
}

export function logUpdateError(context: RenderContext, renderer: RendererKind) {
  return (error: unknown): void => {
    context.logger.warn(
      { err: error, renderer },
      'intermediate update failed; the final answer will still be delivered',
    );
  };
}
