/**
 * WhatsApp conversation ids: the chat id as WhatsApp Web names it, so one chat is one
 * conversation (and one service session), in a group as in a private chat.
 *   `<number>@c.us`  a person          `<id>@lid`        a person, by linked id
 *   `<id>@g.us`      a group           `status@broadcast`, `<id>@broadcast`, `<id>@newsletter`: never answered
 */
import type { WaChatId } from './library.js';

/**
 * The chats the bot answers in: private chats and groups. The admin API and the inbox check an id against it (module.ts).
 * A number has at most 15 digits (E.164); a linked id and a group id are longer numbers (a group's once `<number>-<time>`).
 */
export const CONVERSATION_ID_PATTERN =
  /^(?:[0-9A-Za-z._-]{1,15}@c\.us|[0-9A-Za-z._-]{1,24}@lid|[0-9A-Za-z._-]{1,40}@g\.us)$/;
export const CONVERSATION_ID_EXPECTED =
  'a WhatsApp chat id: <number>@c.us or <id>@lid for a person, <id>@g.us for a group (e.g. 4915112345678@c.us)';

export type ChatKind = 'private' | 'group' | 'not-answered';

export function chatKind(chatId: WaChatId): ChatKind {
  if (chatId.endsWith('@g.us')) return 'group';
  if (chatId.endsWith('@c.us') || chatId.endsWith('@lid')) return 'private';
  // Status updates, broadcast lists, channels (newsletters), and anything WhatsApp adds later.
  return 'not-answered';
}

export function isGroupChat(chatId: WaChatId): boolean {
  return chatKind(chatId) === 'group';
}

/** The conversation id of a chat is the chat id itself. */
export function conversationId(chatId: WaChatId): string {
  return chatId;
}

/** The chat a conversation id names; refuses what cannot be a chat the bot answers in. */
export function chatIdOf(conversationIdValue: string): WaChatId {
  if (!CONVERSATION_ID_PATTERN.test(conversationIdValue)) {
    throw new Error(
      `"${conversationIdValue}" is not a WhatsApp conversation id (expected ${CONVERSATION_ID_EXPECTED})`,
    );
  }
  return conversationIdValue;
}

/** The number (or linked id) before the `@`: what a mention in the text shows. */
export function userPart(id: string): string {
  const at = id.indexOf('@');
  return at < 0 ? id : id.slice(0, at);
}
