/**
 * The signed links a handoff e-mail carries. The parts that answer them sign them: link/ the
 * hand-back link (ResumeLinks), inbox/ the link that signs an operator in (InboxLinks). Both stand
 * above the pause, so the controller and the follow-ups are handed them as these interfaces
 * (install.ts passes the classes), never import them.
 */
import type { ConversationRef } from '../../contract.js';

/** One handoff of one conversation, which whoever holds its link may hand back until `expiresAt`. */
export interface ResumeClaim {
  conversation: ConversationRef;
  handoffId: string;
  expiresAt: number;
}

/** Signs the e-mail's hand-back link. */
export interface ResumeLinkSigner {
  url(claim: ResumeClaim): string;
}

/**
 * Signs the e-mail's link into the inbox, valid `hours` from `now`, with when it expires. `to`: the address the mail
 * goes to; when it is an operator account's, the link signs that operator in.
 */
export interface InboxLinkSigner {
  forMail(
    conversation: ConversationRef,
    hours: number,
    now?: number,
    to?: string,
  ): { inboxUrl: string; inboxLinkExpiresAt: number };
}
