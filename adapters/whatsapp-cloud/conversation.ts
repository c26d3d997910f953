/**
 * WhatsApp Cloud conversation ids: the user's WhatsApp id (`wa_id`, the `from` of their
 * messages: the number in international form, digits only). One user is one conversation,
 * and one service session; the Cloud API has no groups.
 */

export const CONVERSATION_ID_PATTERN = /^[0-9]{6,20}$/;
export const CONVERSATION_ID_EXPECTED =
  "a WhatsApp user's number as the Cloud API names it (wa_id): digits in international form, no + (e.g. 4915112345678)";

/** The `to` of a message to the conversation's user; refuses what cannot be one. */
export function recipientOf(conversationId: string): string {
  if (!CONVERSATION_ID_PATTERN.test(conversationId)) {
    throw new Error(
      `"${conversationId}" is not a WhatsApp Cloud conversation id (expected ${CONVERSATION_ID_EXPECTED})`,
    );
  }
  return conversationId;
}
