/**
 * The human handoff: public surface (what src/runtime, src/cli and the tests' stacks use). Its
 * parts, lowest first: mail/ (the e-mails and their outbox), pause/ (a conversation handed to a
 * person and back, and the operator's desk), link/ (the hand-back link), admin/ (the admin API and
 * its client), inbox/ (the operator inbox); install.ts wires them into a gateway.
 */
export { installHandoff, type HandoffConfig, type InstallHandoffOptions, type InstalledHandoff } from './install.js';
export { formatConversationId, parseConversationId } from './conversation-id.js';
export { handoffKeys, inboxKeys, mailTag, newMailId } from './keys.js';
export * from './policy.js';
export {
  composeFollowUpMail,
  composeHandoffMail,
  Outbox,
  isPermanentSmtpFailure,
  smtpResponseCode,
  type ComposedMail,
  type FollowUpMailInput,
  type HandoffMailInput,
  type MailChange,
  type MailTransport,
  type OutboxMail,
  type OutgoingMail,
} from './mail/index.js';
export {
  describeReason,
  findHandoffPhrase,
  FollowUps,
  HandBackHistory,
  HandoffController,
  normalizeForMatching,
  OperatorDesk,
  operatorName,
  PauseStore,
  type ClaimOutcome,
  type FollowUpState,
  type HandBack,
  type HandoffReason,
  type PauseRecord,
  type ReplyOutcome,
  type ResumeClaim,
  type ResumeOutcome,
  type WaitingConversation,
  type WaitingList,
} from './pause/index.js';
export { ResumeLinks, resolveLinkSecret, type VerifiedToken } from './link/index.js';
export {
  AUDIT_DEFAULT_LIMIT,
  HandoffAdminClient,
  type DigestPreview,
  type DigestSendAnswer,
  type OperatorChange,
  type OperatorSessions,
  type OperatorView,
} from './admin/index.js';
export {
  AUDIT_MAX_ENTRIES,
  OPERATOR_ROLES,
  type AccountSessionInfo,
  type AuditEntry,
  type OperatorRole,
} from './operators/index.js';
export {
  badDayMessage,
  badKindMessage,
  DayIndex,
  DigestService,
  DIGEST_KINDS,
  parseDigestDay,
  parseDigestKind,
  type DigestKind,
  type Digests,
  type DigestSendOutcome,
  type Lead,
} from './digests/index.js';
export { untrustedProxyHint, type OperatorPage } from './inbox/index.js';
