/**
 * The day's digests (issue 29): public surface for the rest of the handoff.
 * (Started on the doors' branch with what the doors use; the lead's service and the mails' content join it.)
 */
export type {
  DayConversation,
  DayWindow,
  DigestAttachment,
  DigestKind,
  DigestMail,
  Digests,
  DigestSendOutcome,
  Lead,
  LeadReason,
  ListingFact,
} from './types.js';
export { badDayMessage, badKindMessage, DIGEST_KINDS, parseDigestDay, parseDigestKind, shiftDay } from './day-param.js';
