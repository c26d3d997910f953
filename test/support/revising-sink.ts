/**
 * The core's side of the seam for an adapter that also reports changes to messages sent before
 * (InboundSink.revise), with the order of the calls: a revision must come after the message it changes.
 */
import type { Inbound, InboundRevision } from '../../src/contract.js';
import { CollectingSink } from '../integration/telegram/collecting-sink.js';

/** One call to the sink, in the order the adapter made them. */
export type SinkCall = { accepted: Inbound } | { revised: InboundRevision };

export class RevisingSink extends CollectingSink {
  /** accept() and revise() calls in order. */
  readonly calls: SinkCall[] = [];

  // Noted before the base class tells its waiters, so a test woken by a call sees it in `calls`.
  override async accept(message: Inbound): Promise<void> {
    this.calls.push({ accepted: message });
    await super.accept(message);
  }

  override async revise(revision: InboundRevision): Promise<void> {
    this.calls.push({ revised: revision });
    await super.revise(revision);
  }
}
