/**
 * The intake stage: where adapters hand over messages (checked, deduplicated, queued durably),
 * the adapters' start and stop, and which adapter serves a conversation. What other stages use.
 */
export { AdapterLifecycle, type AdapterStartInfo } from './adapter-lifecycle.js';
export { AdapterRoutes, notServedError } from './adapter-routes.js';
export { Intake, type IntakeOptions } from './intake.js';
export { isStoreOutage, PatientSink, type PacedSink } from './patient-sink.js';
