/**
 * The sink an adapter was started with, held from start() to stop(). What the platform
 * delivers outside that time (a late event after stop(), a webhook before start()) is
 * refused with an error in the platform's words, so that the adapter's caller fails it
 * the platform's way (a webhook answers 500 and the platform sends it again).
 */
import type { Inbound, InboundRevision, InboundSink } from '../adapter.js';

/** A message arrived while the adapter had no sink: before start() or after stop(). */
export class AdapterNotStartedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdapterNotStartedError';
  }
}

export interface NotStartedWords {
  /** Who received it, e.g. `telegram bot "main"`. */
  who: string;
  /** What it received, e.g. `an update`. */
  what: string;
  /** What happens to it, e.g. `Slack will send it again`. */
  then?: string;
}

export class SinkHolder implements InboundSink {
  private sink: InboundSink | undefined;

  constructor(private readonly words: NotStartedWords) {}

  /** start(): messages go to `sink` from now on. */
  hold(sink: InboundSink): void {
    this.sink = sink;
  }

  /** stop(), or a start() that failed: messages are refused from now on. */
  release(): void {
    this.sink = undefined;
  }

  /** Whether the adapter is started (between hold() and release()). */
  get holding(): boolean {
    return this.sink !== undefined;
  }

  async accept(message: Inbound): Promise<void> {
    await this.started().accept(message);
  }

  /** An edit or a deletion, to a sink that takes them (every sink the core hands an adapter does). */
  async revise(revision: InboundRevision): Promise<void> {
    await this.started().revise?.(revision);
  }

  /** One webhook request's hand-over within the core's bound (InboundSink.bounded), or as is when the sink has none. */
  async bounded<T>(work: () => Promise<T>): Promise<T> {
    const sink = this.started();
    return sink.bounded ? sink.bounded(work) : work();
  }

  private started(): InboundSink {
    if (this.sink) return this.sink;
    const { who, what, then } = this.words;
    throw new AdapterNotStartedError(
      `${who} received ${what} before start() or after stop()${then ? `; ${then}` : ''}`,
    );
  }
}
