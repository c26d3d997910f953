/**
 * While the Chatbot Service is down, a message is not dropped with an apology:
 * its turn (ask-step.ts) asks again with backoff, holding the conversation's lock, so
 * the message stays at the head of its queue, and the user is told once that the
 * answer will come. Past the outage horizon (GatewayPolicy.upstreamOutageHorizonMs)
 * the usual apology is sent and the message leaves the queue.
 *
 * The wait is kept in Redis (`upstream-wait:<conv>`: which message, since when,
 * how many tries), so a restart neither tells the user a second time nor starts
 * the horizon over. It is deleted with the queue's advance that takes the message off, by the
 * turn that waited or the turn that took the message over after it (turn/poison-limit.ts
 * forgetWhenLeaving); a turn that never waited, of a message no turn started before, has none
 * to delete. A record left by a message that is gone names that message: another one's wait
 * starts over, and the record expires soon after the horizon.
 */
import { backoffDelay, type Backoff } from '../../contract.js';
import { UpstreamError } from '../../upstream/errors.js';
import type { TurnContext as Turn } from './turn-context.js';
import { gatewayKeys } from '../state-keys.js';

/** First pause before the service is asked again; doubled after each failure. */
export const UPSTREAM_RETRY_FIRST_MS = 1_000;

/** Longest pause between two tries: once the service is back, an answer comes at most this late. */
export const UPSTREAM_RETRY_MAX_MS = 30_000;

/** Up to +50% at random, so the waiting conversations do not all ask at once. */
const UPSTREAM_RETRY: Backoff = { firstMs: UPSTREAM_RETRY_FIRST_MS, maxMs: UPSTREAM_RETRY_MAX_MS, jitter: 0.5 };

interface UpstreamWait {
  /** platformMessageId of the waiting message. */
  message: string;
  since: number;
  tries: number;
}

/**
 * A failure worth waiting out: the service was unreachable, timed out or failed on
 * its side (5xx), before any of the answer was shown. A 429 is the chatbot's own
 * limit speaking, and anything else a refusal of this message: both are answered now.
 */
export function isServiceUnavailable(error: unknown): error is UpstreamError {
  if (!(error instanceof UpstreamError) || !error.transient) return false;
  return error.status !== 429 && error.code !== 429;
}

export type WaitDecision =
  /** Try again after this long; `first` when this is the message's first failure (tell the user). */
  | { retryAfterMs: number; first: boolean }
  /** The horizon has passed (or is 0): give up on the message. */
  | null;

/*
 * Why in the turn and not by re-queueing: the steps before the ask (limits, the rate
 * counter, the transcript) run once per message, and the lock's heartbeat goes on.
 */

/** Records one more failed try of the turn's message and says whether to wait for the service. */
export async function decideUpstreamWait(turn: Turn, now = Date.now()): Promise<WaitDecision> {
  const horizonMs = turn.services.policy.upstreamOutageHorizonMs;
  if (horizonMs <= 0) return null;
  const { state } = turn.services;
  const key = gatewayKeys.upstreamWait(turn.conversation);
  const message = turn.inbound.platformMessageId;
  const previous = parseWait(await state.get(key));
  const current = previous?.message === message ? previous : null;
  const since = current?.since ?? now;
  const remainingMs = since + horizonMs - now;
  if (remainingMs <= 0) return null;
  const tries = (current?.tries ?? 0) + 1;
  await state.set(key, JSON.stringify({ message, since, tries } satisfies UpstreamWait), {
    ttlMs: remainingMs + UPSTREAM_RETRY_MAX_MS,
  });
  return { retryAfterMs: Math.min(backoffDelay(tries, UPSTREAM_RETRY), remainingMs), first: current === null };
}

/** The key to delete once the message leaves the queue. */
export function upstreamWaitKey(turn: Turn): string {
  return gatewayKeys.upstreamWait(turn.conversation);
}

function parseWait(raw: string | null): UpstreamWait | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as UpstreamWait;
    return typeof parsed.message === 'string' && typeof parsed.since === 'number' && typeof parsed.tries === 'number'
      ? parsed
      : null;
  } catch {
    return null;
  }
}
