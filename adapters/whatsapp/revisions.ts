/**
 * A user's change to a message they sent before → the core's `InboundRevision`, or why it is
 * none. whatsapp-web.js 1.34 (src/Client.js):
 *
 *   message_edit (message, newBody, prevBody)    the message under its original id, its new text:
 *                                                `edited`, normalized as `message` is (inbound.ts)
 *   message_revoke_everyone (message, revoked?)  "delete for everyone": `deleted`, naming the
 *                                                message it was (`protocolMessageKey`)
 *
 * Only users' messages: the bot's own edits (an answer growing) and deletions are not revisions.
 */
import type { InboundRevision } from '../../src/contract.js';
import { chatKind, conversationId } from './conversation.js';
import { messageToInbound, userOf, type Ignored, type InboundContext } from './inbound.js';
import type { WaMessage } from './library.js';

export async function editToRevision(
  message: WaMessage,
  newBody: string,
  prevBody: string,
  context: InboundContext,
): Promise<InboundRevision | Ignored> {
  if (message.fromMe) return { ignored: 'own message' };
  if (newBody === prevBody) return { ignored: 'text unchanged' };
  // The event also fires when a media message's body changes for other reasons than its caption;
  // the library's own `body` of a media message is its caption, so that is read, never newBody.
  const body = message.type === 'chat' ? newBody : undefined;
  const edited = await messageToInbound(message, context, body === undefined ? {} : { body });
  if ('ignored' in edited) return edited;
  return { kind: 'edited', message: edited };
}

/**
 * `revoked` is the message as it was, when the library caught it; its id is the original one
 * (the library patches it from `protocolMessageKey`), and so is `message.protocolMessageKey`.
 * `message.id` itself is the revoked message's new id, the last resort.
 */
export function revokeToRevision(
  message: WaMessage,
  revoked: WaMessage | null | undefined,
  bot: string,
): InboundRevision | Ignored {
  const original = revoked ?? message;
  if (message.fromMe || original.fromMe) return { ignored: 'own message' };
  if (message.isStatus || message.broadcast) return { ignored: 'status update or broadcast' };
  const kind = chatKind(message.from);
  if (kind === 'not-answered') return { ignored: `not a private chat or group (${message.from})` };
  const platformMessageId =
    message.protocolMessageKey?._serialized || revoked?.id?._serialized || message.id._serialized;
  return {
    kind: 'deleted',
    conversation: { bot, platform: 'whatsapp', id: conversationId(message.from) },
    user: userOf(original, kind === 'group'),
    platformMessageId,
  };
}
