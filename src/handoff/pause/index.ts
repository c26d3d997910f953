/**
 * The pause: a conversation handed to a person and back. The ways in (triggers.ts), the pause itself
 * (pause-store.ts), what a handoff does and undoes (controller.ts, with the follow-up e-mails of
 * follow-up.ts), what an operator can do (desk.ts, for every door, each action signed with
 * who did it: operator-signature.ts), the history of hand-backs, and
 * what the inbox is told of each change (inbox-changes.ts: the feed's interface, which inbox/live implements).
 */
export {
  HandoffController,
  type ClaimOutcome,
  type HandoffControllerOptions,
  type ResumeOutcome,
  type SeenHolder,
} from './controller.js';
export {
  OPERATOR_MESSAGE_MAX_CHARS,
  OPERATOR_NAME_MAX_CHARS,
  OperatorDesk,
  operatorName,
  type DeskBot,
  type OpenedConversation,
  type ReplyOutcome,
  type WaitingConversation,
  type WaitingList,
} from './desk.js';
export { FollowUps, type FollowUpState } from './follow-up.js';
export { HandBackHistory, type HandBack } from './hand-back-history.js';
export {
  INBOX_CHANGE_KINDS,
  type InboxChange,
  type InboxChangeKind,
  type InboxFeed,
  type InboxViewer,
} from './inbox-changes.js';
export type { InboxLinkSigner, ResumeClaim, ResumeLinkSigner } from './mail-links.js';
export { claimant, sameOperator, signatureFields, type OperatorSignature } from './operator-signature.js';
export { PauseStore, type PauseRecord } from './pause-store.js';
export { findHandoffPhrase, normalizeForMatching } from './phrases.js';
export { describeReason, type HandoffReason } from './reason.js';
export { registerTriggers, type TriggerConfig } from './triggers.js';
