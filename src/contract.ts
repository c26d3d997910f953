/**
 * The adapter contract: the one file a platform adapter imports from the project
 * (docs/architecture.md, "The adapter contract"). Two parts, the second built on the first, and a kit:
 * - src/contract/adapter.ts: one bot on one platform (inbound, outbound, capabilities), with its errors in
 *   platform-error.ts (a refused call) and attachment-errors.ts (a file it cannot give, and the capped reader);
 *   src/contract/markup.ts: the markup renderer its capabilities declare, and its building blocks;
 * - src/contract/platform-module.ts: what each adapters/<platform>/module.ts exports (config
 *   section, environment, factory, doctor, routes, operator door), which the runtime iterates over;
 * - src/contract/operator-door.ts: a door where operators answer handoffs (a Slack channel's threads,
 *   a Telegram forum's topics), which a platform module may offer;
 * the kit, src/contract/kit/: machinery every adapter needs, written once (backoff, staying connected,
 *   ordering per conversation, the sink between start() and stop(), one lease holder across replicas)
 *   and, in kit/whatsapp/, what both WhatsApp adapters need (commands as words, the first-contact
 *   greeting, WhatsApp's markers); the core uses its backoff too.
 */
export * from './contract/adapter.js';
export * from './contract/platform-error.js';
export * from './contract/attachment-errors.js';
export * from './contract/markup.js';
export type * from './contract/platform-module.js';
export * from './contract/operator-door.js';
export * from './contract/kit/index.js';
export {
  NOT_QUEUED_RETRY_AFTER_SECONDS,
  NotQueuedError,
  WebhookGate,
  type WebhookAdmission,
} from './contract/webhook-gate.js';
