/** The human handoff: public surface. */
export { installHandoff, type HandoffConfig, type InstallHandoffOptions, type InstalledHandoff } from './install.js';
export { HandoffController, type ClaimOutcome, type ResumeOutcome } from './controller.js';
export { formatConversationId, parseConversationId } from './conversation-id.js';
export { handoffKeys, inboxKeys, mailTag } from './keys.js';
export { OperatorDesk, operatorName, type ReplyOutcome, type WaitingConversation, type WaitingList } from './desk.js';
export { HandBackHistory, type HandBack } from './history.js';
export { ResumeLinks, resolveLinkSecret, type ResumeClaim, type VerifiedToken } from './link.js';
export {
  composeFollowUpMail,
  composeHandoffMail,
  escapeHtml,
  type ComposedMail,
  type FollowUpMailInput,
  type HandoffMailInput,
} from './mail.js';
export { Outbox, type MailChange, type MailTransport, type OutboxMail, type OutgoingMail } from './outbox.js';
export { FollowUps, type FollowUpState } from './follow-up.js';
export { isPermanentSmtpFailure, smtpResponseCode } from './smtp-errors.js';
export { PauseStore, type PauseRecord } from './pause.js';
export { findHandoffPhrase, normalizeForMatching } from './phrases.js';
export * from './policy.js';
export { describeReason, type HandoffReason } from './reason.js';
export { HandoffAdminClient } from './admin-client.js';
export type { OperatorPage } from './inbox/routes.js';
