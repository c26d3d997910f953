/**
 * The contract's kit: machinery every adapter needs, written once (docs/architecture.md §3):
 * the project's one backoff and a retry loop on it, staying connected to a platform, handing a
 * conversation's messages over in order, the sink held between start() and stop(), watching for
 * credentials the platform refuses after the start, and one holder across replicas of a lease. Its
 * whatsapp/ part is what only the two WhatsApp adapters need (commands as words, the greeting of
 * a first contact, WhatsApp's markers): an adapter imports no other adapter, so it is here.
 * `readCapped` (src/contract/adapter.ts) is the kit's attachment reader.
 */
export { backoffDelay, retryWithBackoff, type Backoff, type RetryWithBackoffOptions } from './backoff.js';
export { ConnectRefusedError, RECONNECT_BACKOFF, StayConnected, type StayConnectedOptions } from './stay-connected.js';
export { CredentialWatch, isUnauthorized, type CredentialWatchOptions } from './credential-watch.js';
export { SerialByKey } from './serial-by-key.js';
export { outboundFileType } from './file-type.js';
export { AdapterNotStartedError, SinkHolder, type NotStartedWords } from './sink-holder.js';
export {
  DEFAULT_LEASE_TIMINGS,
  HeldLease,
  type HeldLeaseOptions,
  type HeldLeaseWords,
  type LeaseEvents,
  type LeaseTimings,
} from './held-lease.js';
export * from './whatsapp/index.js';
