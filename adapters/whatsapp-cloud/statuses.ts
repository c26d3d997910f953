/**
 * What Meta reports of the bot's own messages (`statuses[]`: sent, delivered, read, failed). A
 * status never starts a turn. A `failed` one, a message Meta took and could not deliver (the
 * user's 24 hours over, a number that cannot receive, an unsupported message), is logged with
 * Meta's error and counted (chatbridge_platform_delivery_failed_total, by code). Meta delivers
 * statuses at least once too: a failure already counted here is not counted again.
 */
import type { Logger, PlatformMetrics } from '../../src/contract.js';
import type { CloudStatus } from './events.js';

/** Failed messages remembered, so that a redelivered status is counted once (in this process). */
const FAILURES_REMEMBERED = 2_000;

export class StatusLog {
  private readonly counted = new Set<string>();

  constructor(
    private readonly logger: Logger,
    private readonly metrics?: PlatformMetrics,
  ) {}

  record(status: CloudStatus): void {
    if (status.status !== 'failed') {
      this.logger.debug({ message: status.id, status: status.status }, 'whatsapp-cloud: status of a message');
      return;
    }
    if (this.counted.has(status.id)) return;
    this.counted.add(status.id);
    if (this.counted.size > FAILURES_REMEMBERED) this.counted.delete(this.counted.values().next().value!);
    const error = status.errors?.[0];
    const code = error?.code === undefined ? 'unknown' : String(error.code);
    this.logger.warn(
      {
        message: status.id,
        recipient: status.recipient_id,
        code,
        ...(error?.title ? { title: error.title } : {}),
        ...(error?.message && error.message !== error.title ? { reason: error.message } : {}),
        ...(error?.error_data?.details ? { details: error.error_data.details } : {}),
      },
      'whatsapp-cloud: Meta reports that a message of the bot was not delivered',
    );
    this.metrics?.deliveryFailed(code);
  }
}
