/**
 * A turn stopped by its user (/stop, commands/stop.ts): its `stopSignal` aborts with a StopRequest
 * naming the /stop message. The answer ends where it is, marked as stopped (turn/ask-step.ts), and the
 * turn writes, with its advance, that this /stop stopped something, so that the /stop's own turn
 * does not also say there was nothing to stop. Only an answer the stop ended is marked: a turn that
 * wrote none (a greeting, a command's reply, an answer already whole) stopped nothing.
 */
import { gatewayKeys } from '../state-keys.js';
import type { TurnContext } from './turn-context.js';

/** How long a stopped answer's mark waits for its /stop to be read (the /stop is queued right behind it). */
export const STOPPED_MARK_TTL_MS = 10 * 60_000;

export class StopRequest extends Error {
  constructor(readonly platformMessageId: string) {
    super('the user stopped the answer');
    this.name = 'StopRequest';
  }
}

/** Whether the user stopped this turn; if so, the mark its /stop reads is written with the turn's end. */
export function markIfStopped(ctx: TurnContext): boolean {
  const reason: unknown = ctx.stopSignal.reason;
  if (!ctx.stopSignal.aborted || !(reason instanceof StopRequest)) return false;
  const key = gatewayKeys.stopped(ctx.conversation, reason.platformMessageId);
  ctx.later({ op: 'set', key, value: '1', ttlMs: STOPPED_MARK_TTL_MS });
  return true;
}
