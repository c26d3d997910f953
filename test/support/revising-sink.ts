/**
 * The core's side of the seam for an adapter that also reports changes to messages sent before
 * (InboundSink.revise): what was accepted, and what was revised, in the order it came.
 */
import { EventEmitter } from 'node:events';
import type { Inbound, InboundRevision } from '../../src/contract.js';
import { CollectingSink } from '../integration/telegram/collecting-sink.js';

/** One call to the sink, in the order the adapter made them. */
export type SinkCall = { accepted: Inbound } | { revised: InboundRevision };

export class RevisingSink extends CollectingSink {
  readonly revisions: InboundRevision[] = [];
  /** accept() and revise() calls in order: a revision must come after the message it changes. */
  readonly calls: SinkCall[] = [];
  private readonly revised = new EventEmitter();

  override async accept(message: Inbound): Promise<void> {
    await super.accept(message);
    this.calls.push({ accepted: message });
  }

  async revise(revision: InboundRevision): Promise<void> {
    this.revisions.push(revision);
    this.calls.push({ revised: revision });
    this.revised.emit('revised');
  }

  /** Resolves with the first revision matching `predicate` (already made or still to come). */
  nextRevision(
    predicate: (revision: InboundRevision) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<InboundRevision> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.revisions.find(predicate);
        if (!found) return;
        finish();
        resolve(found);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no matching revision within ${timeoutMs} ms; revised: ${JSON.stringify(this.revisions)}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.revised.off('revised', check);
      };
      this.revised.on('revised', check);
      check();
    });
  }
}
