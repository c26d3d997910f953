/**
 * The handoff's e-mails: what they say (compose.ts) and how they reach an operator (the outbox,
 * with the SMTP failures it tells apart). Whether and when to write one is the pause's to decide.
 */
export {
  composeFollowUpMail,
  composeHandoffMail,
  userLabel,
  type ComposedMail,
  type FollowUpMailInput,
  type HandoffMailInput,
} from './compose.js';
export {
  Outbox,
  type MailAttachment,
  type MailChange,
  type MailTransport,
  type OutboxMail,
  type OutgoingMail,
} from './outbox.js';
export { isPermanentSmtpFailure, smtpResponseCode } from './smtp-errors.js';
