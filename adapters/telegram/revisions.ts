/**
 * Telegram updates that change what was asked rather than ask anew: an `edited_message` (the
 * message as it reads now, revised under its original message_id) and a press of a draft's stop
 * button (`stopped_message_generation`, which asks the core to stop the answer being written, as
 * "/stop" typed does).
 */
import type { Message, MessageGenerationStopped } from 'grammy/types';
import type { Inbound, InboundRevision } from '../../src/contract.js';
import { conversationId } from './conversation.js';
import { messageToInbound, type InboundContext } from './inbound.js';

/**
 * An edited message as the core's revision; undefined for edits that change nothing it asked: a
 * live location moving (edited every few seconds, with neither text nor a file), or one part of an
 * album (the album is one Inbound of several messages, and one part's edit would replace it whole).
 */
export function editToRevision(message: Message, context: InboundContext): InboundRevision | undefined {
  if (message.media_group_id) return undefined;
  const inbound = messageToInbound(message, context);
  if (inbound.text === '' && inbound.attachments.length === 0) return undefined;
  return { kind: 'edited', message: inbound };
}

/**
 * The user pressed the stop button of a draft (sendMessageDraft with `can_stop`): "/stop" in that
 * private chat. Its dedupe key is the update's id, the same when Telegram delivers it again.
 */
export function stopToInbound(stopped: MessageGenerationStopped, updateId: number, context: InboundContext): Inbound {
  const { chat } = stopped;
  const name = [chat.first_name, chat.last_name].filter(Boolean).join(' ');
  return {
    conversation: {
      bot: context.bot,
      platform: 'telegram',
      id: conversationId(chat.id, stopped.message_thread_id),
    },
    // A private chat's id is its user's.
    user: { id: String(chat.id), ...(name ? { name } : {}), ...(chat.username ? { handle: chat.username } : {}) },
    text: '/stop',
    attachments: [],
    isGroup: false,
    addressed: true,
    platformMessageId: `stopped:${updateId}`,
    sentAt: Date.now(),
  };
}
