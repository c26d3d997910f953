/**
 * Telegram conversation ids: the chat id, plus `:<thread>` for a forum topic,
 * so each topic of a forum group is its own conversation (and session).
 */
export interface TelegramTarget {
  chatId: number;
  /** message_thread_id of a forum topic. */
  threadId?: number;
}

export function conversationId(chatId: number, threadId?: number): string {
  return threadId === undefined ? String(chatId) : `${chatId}:${threadId}`;
}

export function parseConversationId(id: string): TelegramTarget {
  const match = /^(-?\d+)(?::(\d+))?$/.exec(id);
  if (!match) throw new Error(`"${id}" is not a Telegram conversation id (expected "<chat id>" or "<chat id>:<topic id>")`);
  const chatId = Number(match[1]);
  return match[2] === undefined ? { chatId } : { chatId, threadId: Number(match[2]) };
}
