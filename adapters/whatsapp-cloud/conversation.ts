/**
 * WhatsApp Cloud conversation ids: the user as Meta first named them to this bot. A user whose
 * number Meta shows is their WhatsApp id (`wa_id`, the `from` of their messages: the number in
 * international form, digits only); a user Meta names only by their business-scoped user id
 * (BSUID: a username and no number; `from_user_id`, `contacts[].user_id`) is that id
 * (`US.13491208655302741918`). One user is one conversation, and one service session; the Cloud
 * API has no groups. A BSUID that changes later keeps its conversation (identities.ts).
 */

const PHONE = /^[0-9]{6,20}$/;
/** Meta's format: a two-letter country code, a dot, up to 128 letters and digits (`ENT.` for a parent BSUID). */
const BUSINESS_SCOPED_ID = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;

export const CONVERSATION_ID_PATTERN = /^(?:[0-9]{6,20}|[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128})$/;
export const CONVERSATION_ID_EXPECTED =
  "a WhatsApp user's number as the Cloud API names it (wa_id): digits in international form, no + (e.g. 4915112345678), " +
  'or their business-scoped user id (e.g. US.13491208655302741918)';

export function isPhoneId(id: string): boolean {
  return PHONE.test(id);
}

export function isBusinessScopedId(id: string): boolean {
  return BUSINESS_SCOPED_ID.test(id);
}

/** Checks that `conversationId` can be one; the address to write to may differ (identities.ts). */
export function recipientOf(conversationId: string): string {
  if (!CONVERSATION_ID_PATTERN.test(conversationId)) {
    throw new Error(
      `"${conversationId}" is not a WhatsApp Cloud conversation id (expected ${CONVERSATION_ID_EXPECTED})`,
    );
  }
  return conversationId;
}

/** The Graph fields naming the user: `to` for a number, `recipient` for a business-scoped user id. */
export function addressFields(address: string): { to: string } | { recipient: string } {
  return isBusinessScopedId(address) ? { recipient: address } : { to: address };
}
