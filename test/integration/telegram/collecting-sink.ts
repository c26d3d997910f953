import { EventEmitter } from 'node:events';
import type { Inbound, InboundRevision, InboundSink } from '../../../src/contract.js';

/** The core's side of the seam, reduced to "remember what arrived": messages (accept) and changes to them (revise). */
export class CollectingSink implements InboundSink {
  readonly received: Inbound[] = [];
  readonly revisions: InboundRevision[] = [];
  private readonly events = new EventEmitter();
  /** How many of the next accept() calls fail, as when the gateway cannot reach Redis. */
  failuresToCome = 0;

  async accept(message: Inbound): Promise<void> {
    if (this.failuresToCome > 0) {
      this.failuresToCome--;
      throw new Error('test sink: simulated queue outage');
    }
    this.received.push(message);
    this.events.emit('arrived');
  }

  async revise(revision: InboundRevision): Promise<void> {
    this.revisions.push(revision);
    this.events.emit('arrived');
  }

  /** Resolves with the first Inbound matching `predicate` (already received or still to come). */
  next(predicate: (message: Inbound) => boolean = () => true, timeoutMs = 5000): Promise<Inbound> {
    return this.first(this.received, predicate, timeoutMs, 'Inbound', (m) => m.text);
  }

  /** Resolves with the first revision matching `predicate` (already received or still to come). */
  nextRevision(
    predicate: (revision: InboundRevision) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<InboundRevision> {
    return this.first(this.revisions, predicate, timeoutMs, 'revision', (r) =>
      r.kind === 'edited'
        ? `edited ${r.message.platformMessageId}: ${r.message.text}`
        : `deleted ${r.platformMessageId}`,
    );
  }

  private first<T>(
    arrived: readonly T[],
    predicate: (item: T) => boolean,
    timeoutMs: number,
    what: string,
    describe: (item: T) => string,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = arrived.find(predicate);
        if (found === undefined) return;
        finish();
        resolve(found);
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(`no matching ${what} within ${timeoutMs} ms; received: ${JSON.stringify(arrived.map(describe))}`),
        );
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.events.off('arrived', check);
      };
      this.events.on('arrived', check);
      check();
    });
  }
}
