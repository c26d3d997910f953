import { EventEmitter } from 'node:events';
import type { Inbound, InboundSink } from '../../../src/contract.js';

/** The core's side of the seam, reduced to "remember what arrived". */
export class CollectingSink implements InboundSink {
  readonly received: Inbound[] = [];
  private readonly events = new EventEmitter();
  /** How many of the next accept() calls fail, as when the gateway cannot reach Redis. */
  failuresToCome = 0;

  async accept(message: Inbound): Promise<void> {
    if (this.failuresToCome > 0) {
      this.failuresToCome--;
      throw new Error('test sink: simulated queue outage');
    }
    this.received.push(message);
    this.events.emit('accepted');
  }

  /** Resolves with the first Inbound matching `predicate` (already received or still to come). */
  next(predicate: (message: Inbound) => boolean = () => true, timeoutMs = 5000): Promise<Inbound> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.received.find(predicate);
        if (!found) return;
        finish();
        resolve(found);
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(
            `no matching Inbound within ${timeoutMs} ms; received: ${JSON.stringify(this.received.map((m) => m.text))}`,
          ),
        );
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.events.off('accepted', check);
      };
      this.events.on('accepted', check);
      check();
    });
  }
}
