/** The streaming relay (docs/architecture.md §4): shows a streamed answer on a platform as it is written. */
export { relayAnswer } from './relay.js';
export type { PacingPolicy, RelayRequest, RelayResult, RelayTexts, RendererKind } from './types.js';
export { startTyping, TYPING_DEFER_MS, type TypingHandle, type TypingOptions } from './typing.js';
export { InflightRecorder, InflightAnswer, type InflightRecorderOptions } from './inflight.js';
export {
  recoverConversation,
  recoverInterruptedAnswers,
  INTERRUPTED_NOTE_SEPARATOR,
  type RecoveryOptions,
} from './recovery.js';
export {
  inflightConversationKey,
  inflightIndexKey,
  inflightKey,
  INFLIGHT_STALE_AFTER_MS,
  type ProcessIdentity,
} from './inflight-record.js';
export { resolvePacing } from './relay-policy.js';
