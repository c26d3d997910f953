/**
 * The one rule for a platform that sends a message again when its request was not answered 2xx
 * (a webhook: WhatsApp Cloud, Telegram in webhook mode, Slack over HTTP): the request is answered
 * within `gateway.webhookAcceptMs`, whatever the state store does. The hand-over of one request
 * (the adapter's storage reads and its accepts, InboundSink.bounded) that is not durable by then,
 * or that fails because the store is down, rejects with NotQueuedError, and the route answers 503:
 * a frozen or stopped Redis otherwise holds every request open for as long as it lasts (each a
 * timeout to the platform, and the open connections pile up). The cut-off work goes on: when it
 * completes later, the dedupe key written with its queue push makes the platform's redelivery a
 * duplicate, so the user is answered once. An accept cut off while still waiting for its turn
 * (accept-line.ts) leaves the line without doing anything.
 *
 * The outage is logged once, when the first request is refused, and its end once, with how many
 * requests were refused meanwhile: a line per request would be a line per message per retry.
 */
import type { Logger } from '../../logger.js';
import { NotQueuedError, type Inbound, type InboundRevision, type InboundSink } from '../../contract.js';
import { isStoreOutage } from './patient-sink.js';

/** The gateway's own sink, which can drop an accept that is still waiting for its turn (intake.ts). */
export interface CancellableSink {
  accept(inbound: Inbound, signal?: AbortSignal): Promise<void>;
  revise?(revision: InboundRevision): Promise<void>;
}

export interface WebhookAcceptOptions {
  /** GatewayPolicy.webhookAcceptMs. */
  limitMs: number;
  logger: Logger;
}

export class WebhookAccept implements InboundSink {
  /** Requests refused since the outage began; undefined while none is. */
  private refused: number | undefined;

  constructor(
    private readonly sink: CancellableSink,
    private readonly options: WebhookAcceptOptions,
  ) {}

  accept(inbound: Inbound): Promise<void> {
    return this.within((signal) => this.sink.accept(inbound, signal));
  }

  bounded<T>(work: () => Promise<T>): Promise<T> {
    return this.within(() => work());
  }

  revise(revision: InboundRevision): Promise<void> {
    return this.within(async () => this.sink.revise?.(revision));
  }

  private async within<T>(work: (cutOff: AbortSignal) => Promise<T>): Promise<T> {
    const { limitMs } = this.options;
    const cutOff = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<typeof LATE>((resolve) => {
      timer = setTimeout(() => resolve(LATE), limitMs);
    });
    const attempt = work(cutOff.signal);
    try {
      const outcome = await Promise.race([attempt.then((value) => ({ value })), late]);
      if (outcome === LATE) {
        const reason = `not queued within ${limitMs} ms (gateway.webhookAcceptMs)`;
        cutOff.abort(new NotQueuedError(`${reason}; given up before it began`));
        void attempt.then(
          () => this.options.logger.debug(`a delivery ${reason} was queued after all; its redelivery is a duplicate`),
          () => undefined,
        );
        throw this.notQueued(`${reason}: is Redis at REDIS_URL up?`);
      }
      this.queued();
      return outcome.value;
    } catch (error) {
      // An accept within this hand-over, refused and counted already.
      if (error instanceof NotQueuedError) throw error;
      if (isStoreOutage(error)) throw this.notQueued(`Redis did not take it: ${(error as Error).message}`, error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private notQueued(reason: string, cause?: unknown): NotQueuedError {
    if (this.refused === undefined) {
      this.refused = 0;
      this.options.logger.warn(
        { err: cause, limitMs: this.options.limitMs },
        `a webhook's messages could not be queued (${reason}); webhooks are answered 503 until Redis takes them again, ` +
          'and their platforms send them again (logged once per outage)',
      );
    }
    this.refused++;
    return new NotQueuedError(
      `the message could not be queued (${reason}); the platform sends it again`,
      cause === undefined ? undefined : { cause },
    );
  }

  private queued(): void {
    if (this.refused === undefined) return;
    this.options.logger.info(
      { refused: this.refused },
      "webhooks' messages are queued again; the requests answered 503 meanwhile come again from their platforms",
    );
    this.refused = undefined;
  }
}

const LATE = Symbol('late');
