/**
 * Whether a webhook route may hand a platform's request on to its adapter yet. The HTTP
 * server listens before the adapters start (the embedded service answers through it), and
 * a platform delivers what it holds as soon as it can connect: the first requests of a
 * start can arrive before the adapter has its sink or knows who its bot is. Those wait
 * for the start, for a bounded time that the route chooses within its platform's answer
 * deadline; a request the adapter cannot take (its platform's API unreachable, the adapter
 * stopping) is refused at once with the reason, and the route answers with a status the
 * platform retries (503), never one that says the request itself was wrong.
 */

/**
 * A delivery that could not be queued within the time a redelivering platform's request may take
 * (GatewayPolicy.webhookAcceptMs), or not at all because the state store is down. The core has
 * logged the outage once; the route answers 503 without a line of its own, and the platform sends
 * the request again. Work that was cut off may still finish: the redelivery is then a duplicate,
 * which the core drops, so the user is answered once.
 */
export class NotQueuedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NotQueuedError';
  }
}

/** Seconds a route's 503 for a NotQueuedError suggests (Retry-After): a state store outage is usually seconds. */
export const NOT_QUEUED_RETRY_AFTER_SECONDS = 5;

export type WebhookAdmission = { admitted: true } | { admitted: false; reason: string };

type GateState = 'starting' | 'open' | 'closed';

export class WebhookGate {
  private state: GateState = 'starting';
  private waiting = new Set<() => void>();

  /** `reason`: why a request is not admitted yet, e.g. 'Slack bot "main" is starting'. */
  constructor(private reason: string) {}

  /** Starting (again): requests wait for open() or close(). */
  starting(reason: string): void {
    this.set('starting', reason);
  }

  /** Requests are handed on. */
  open(): void {
    this.set('open', '');
  }

  /** Requests are refused at once with `reason`, until starting() or open(). */
  close(reason: string): void {
    this.set('closed', reason);
  }

  /** Admits the request now, or once the start ends within `maxWaitMs`; otherwise says why not. */
  async admit(maxWaitMs: number): Promise<WebhookAdmission> {
    if (this.state === 'starting') await this.whileStarting(maxWaitMs);
    if (this.state === 'open') return { admitted: true };
    if (this.state === 'closed') return { admitted: false, reason: this.reason };
    return { admitted: false, reason: `${this.reason}, still after ${maxWaitMs} ms` };
  }

  private set(state: GateState, reason: string): void {
    this.state = state;
    this.reason = reason;
    for (const wake of [...this.waiting]) wake();
  }

  private whileStarting(maxWaitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiting.delete(check);
        resolve();
      };
      const check = (): void => {
        if (this.state !== 'starting') done();
      };
      const timer = setTimeout(done, maxWaitMs);
      this.waiting.add(check);
    });
  }
}
