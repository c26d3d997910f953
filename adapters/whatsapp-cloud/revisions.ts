/**
 * A user's change to a message they sent before, as Meta posts it for a number also on the
 * WhatsApp Business app ("Coexistence"; elsewhere both come as `unsupported` and say nothing):
 *
 *   {type: "edit",   edit:   {original_message_id, message: {type, text | image…, context?}}}
 *   {type: "revoke", revoke: {original_message_id}}
 *
 * (Meta's "Edit messages webhook reference" and "Revoke messages webhook reference",
 * developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/edit
 * and …/revoke; the same shapes as pywa reads them, david-lev/pywa pywa/types/message.py
 * EditedMessage and DeletedMessage.) Each has a wamid of its own; the message it changes is
 * `original_message_id`, the id the core queued it under.
 */
import type { InboundRevision } from '../../src/contract.js';
import type { CloudMessage } from './events.js';
import { senderConversation, type Ignored } from './inbound.js';

/**
 * The edited message as Meta would have posted it had it been written so: the original's wamid
 * (what the core knows it by), the edit's sender, and the edit's time (Meta gives no other).
 * Undefined for an edit without its `edit` object.
 */
export function editedMessage(message: CloudMessage): CloudMessage | undefined {
  if (!message.edit) return undefined;
  const { original_message_id: id, message: content } = message.edit;
  return { ...content, from: message.from, from_user_id: message.from_user_id, id, timestamp: message.timestamp };
}

export function deletion(
  message: CloudMessage,
  names: ReadonlyMap<string, string>,
  bot: string,
  conversationId?: string,
): InboundRevision | Ignored {
  if (!message.revoke) return { ignored: 'a revoke without its revoke object' };
  const who = senderConversation(message, names, bot, conversationId);
  if ('ignored' in who) return who;
  return { kind: 'deleted', ...who, platformMessageId: message.revoke.original_message_id };
}
