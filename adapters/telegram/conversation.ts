/**
 * Telegram conversation ids: the chat id, plus `:<thread>` for a forum topic,
 * so each topic of a forum group is its own conversation (and session).
 */
export interface TelegramTarget {
  chatId: number;
  /** message_thread_id of a forum topic. */
  threadId?: number;
}

/**
 * `<chat id>` or `<chat id>:<topic id>`; the admin API and the inbox check an id against it (see module.ts). A chat id
 * is a signed 64-bit integer (at most 19 digits and the sign), a topic id a message id (a 32-bit integer).
 */
export const CONVERSATION_ID_PATTERN = /^(-?\d{1,19})(?::(\d{1,10}))?$/;
export const CONVERSATION_ID_EXPECTED =
  '<chat id>, or <chat id>:<topic id> for a forum topic (e.g. 12345 or -1001234:7)';

export function conversationId(chatId: number, threadId?: number): string {
  return threadId === undefined ? String(chatId) : `${chatId}:${threadId}`;
}

export function parseConversationId(id: string): TelegramTarget {
  const match = CONVERSATION_ID_PATTERN.exec(id);
  if (!match)
    throw new Error(`"${id}" is not a Telegram conversation id (expected "<chat id>" or "<chat id>:<topic id>")`);
  const chatId = Number(match[1]);
  return match[2] === undefined ? { chatId } : { chatId, threadId: Number(match[2]) };
}
