/**
 * The reply stage: what the gateway itself says in a chat, and the one retry rule for every
 * platform call whose result a user must see (replies, final answers, notes). What other stages use.
 */
export { canDraft, canEdit, canStopStream, canStreamNatively, outboundIn } from './outbound-methods.js';
export {
  DEFAULT_RETRY_AFTER_MS,
  isPlatformError,
  isPlatformOutage,
  isRetriedPlatformError,
  LAST_RESORT_ATTEMPTS,
  LAST_RESORT_BUDGET_MS,
  retryPlatformCall,
  UNREACHABLE_FIRST_BACKOFF_MS,
  UNREACHABLE_MAX_BACKOFF_MS,
  type PlatformRetryOptions,
  type PlatformRetryPolicy,
} from './platform-retry.js';
export { OUT_OF_TURN_REPLY_RETRY, REPLY_RETRY_POLICY, sendReply, type ReplyExtras } from './send-reply.js';
export { sendFile, type FileToSend } from './send-file.js';
