/**
 * What a Telegram message replies to, as the core's `Inbound.quoted`: the replied message's text
 * or caption (`reply_to_message`), or only the part the user picked when they quoted one
 * (`quote`), from the bot or from someone named. A reply to a message of another chat
 * (`external_reply`) carries no text, only its quoted part, if any.
 */
import type { Message, MessageOrigin, User, UserFromGetMe } from 'grammy/types';
import type { QuotedMessage } from '../../src/contract.js';

const fullName = (user: Pick<User, 'first_name' | 'last_name'>): string =>
  [user.first_name, user.last_name].filter(Boolean).join(' ');

/** Who wrote a replied message: a person, or a chat (anonymous admins, channels) writing as itself. */
function authorOf(message: Message): string | undefined {
  if (message.from) return fullName(message.from) || message.from.username;
  const chat = message.sender_chat ?? message.chat;
  return 'title' in chat ? chat.title : undefined;
}

function originName(origin: MessageOrigin): string | undefined {
  switch (origin.type) {
    case 'user':
      return fullName(origin.sender_user) || origin.sender_user.username;
    case 'hidden_user':
      return origin.sender_user_name;
    case 'chat':
      return 'title' in origin.sender_chat ? origin.sender_chat.title : undefined;
    case 'channel':
      return origin.chat.title;
  }
}

export function quotedOf(message: Message, bot: Pick<UserFromGetMe, 'id'>): QuotedMessage | undefined {
  const picked = message.quote?.text;
  const replied = message.reply_to_message;
  // In a forum topic every message "replies" to the topic's opening service message: that is no reply.
  if (replied && !replied.forum_topic_created) {
    const text = picked ?? replied.text ?? replied.caption ?? '';
    if (replied.from?.id === bot.id) return { text, from: 'bot' };
    const author = authorOf(replied);
    return { text, from: 'user', ...(author ? { author } : {}) };
  }
  if (picked !== undefined && message.external_reply) {
    const author = originName(message.external_reply.origin);
    return { text: picked, from: 'user', ...(author ? { author } : {}) };
  }
  return undefined;
}
