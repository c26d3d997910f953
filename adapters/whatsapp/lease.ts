/**
 * One browser per WhatsApp number across replicas: the kit's HeldLease elects the process that
 * runs the bot's client. The others stand by and take over within the lease's time when the
 * holder dies, and at once when it releases the lease on stop; a holder that can no longer be
 * sure it holds the lease is told at once, so it closes its browser before another opens one.
 */
import {
  HeldLease,
  type LeaseEvents,
  type LeaseTimings,
  type Logger,
  type PlatformStorage,
} from '../../src/contract.js';

/** The lease's name in the bot's PlatformStorage. */
export const BROWSER_LEASE = 'browser';

/** The bot's browser lease; `timings` default to the kit's DEFAULT_LEASE_TIMINGS. */
export function browserLease(
  storage: PlatformStorage,
  logger: Logger,
  events: LeaseEvents,
  timings?: LeaseTimings,
): HeldLease {
  return new HeldLease({
    storage,
    name: BROWSER_LEASE,
    logger,
    events,
    timings,
    words: {
      lease: 'the WhatsApp browser lease',
      whenHeld: 'this process runs the browser of this number',
      whenLost: 'closing this browser',
      check: 'REDIS_URL',
    },
  });
}
