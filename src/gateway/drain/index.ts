/**
 * The drain stage: each conversation's queue in Redis and its lock, answered head by head by
 * the process holding the lock, within this process's answer slots. What other stages use.
 */
export { ConversationQueue } from './conversation-queue.js';
export { LockLostError, type ConversationHold, type RidingClaim } from './conversation-hold.js';
export {
  Drains,
  type DrainsOptions,
  type HandleMessage,
  type HandleResult,
  type HeadOrigin,
  type SlotLoan,
} from './drains.js';
export { OWNER_FIELDS_ONLY, QUEUE_LAYOUT_KEY, QueueLayout } from './queue-layout.js';
export { LocalAttachments, parseQueuedMessage, toQueuedMessage, type QueuedMessage } from './queued-message.js';
