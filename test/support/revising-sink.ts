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

  override async accept(message: Inbound): Promise<void> {
    await super.accept(message);
    this.calls.push({ accepted: message });
  }

  override async revise(revision: InboundRevision): Promise<void> {
    await super.revise(revision);
    this.calls.push({ revised: revision });
  }
}
