/**
 * What a feature built outside the core (the human handoff) can be told about a
 * turn: its answer, a failure of the Chatbot Service, and that its writes are durable.
 *
 * These are events, not pipeline steps (see pipeline.ts for those): they happen
 * after the pipeline has run, not at a position within it, and a listener cannot
 * stop anything. They are still part of the turn: listeners are awaited in the
 * order they were added, and what they reply or record goes with the turn.
 */
import type { AskFinal } from '../../upstream/api.js';
import type { TurnContext } from './turn-context.js';

/**
 * The service failed one message. The core keeps no count of them: a listener that wants failures in a
 * row (the handoff's threshold) counts them itself, and forgets its count on `afterAnswer`.
 */
export interface UpstreamFailure {
  error: unknown;
}

export interface TurnEventMap {
  /**
   * An answer was delivered and recorded. A listener that throws fails the turn as a step
   * would (the user gets the generic apology).
   */
  afterAnswer: [final: AskFinal, ctx: TurnContext];
  /**
   * The Chatbot Service failed this message, and the user was already told. A listener that
   * throws is logged; the others still run.
   */
  upstreamFailure: [failure: UpstreamFailure, ctx: TurnContext];
  /**
   * The turn is over and what it recorded (its transcript entries, `record` and `later`) is
   * durable: told after the queue advance that removed its message, so that whoever is told in
   * turn (another replica's inbox page) reads those entries. Not told for a turn cut off (it runs
   * again) nor when the lock was lost (the new holder answers the message again and tells it).
   * The turn cannot be failed or repeated any more: a listener that throws is logged.
   */
  committed: [ctx: TurnContext];
}
export type TurnEvent = keyof TurnEventMap;
export type TurnListener<E extends TurnEvent> = (...args: TurnEventMap[E]) => Promise<void> | void;
export type AfterAnswerListener = TurnListener<'afterAnswer'>;
export type UpstreamFailureListener = TurnListener<'upstreamFailure'>;
export type CommittedListener = TurnListener<'committed'>;

/** What the gateway exposes of its turn events: listening. */
export interface TurnEventSource {
  /** Adds a listener; returns its removal. */
  on<E extends TurnEvent>(event: E, listener: TurnListener<E>): () => void;
}

export class TurnEvents implements TurnEventSource {
  private readonly listeners: { [E in TurnEvent]: TurnListener<E>[] } = {
    afterAnswer: [],
    upstreamFailure: [],
    committed: [],
  };

  on<E extends TurnEvent>(event: E, listener: TurnListener<E>): () => void {
    const list = this.listeners[event] as TurnListener<E>[];
    list.push(listener);
    return () => {
      const at = list.indexOf(listener);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /** The listeners of `event` now (a listener removing itself while called does not skip the next one). */
  of<E extends TurnEvent>(event: E): TurnListener<E>[] {
    return [...(this.listeners[event] as TurnListener<E>[])];
  }
}
