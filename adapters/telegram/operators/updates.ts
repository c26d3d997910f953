/**
 * The operators' group's updates → what the door hands its sink. Only the configured chat,
 * only messages in a topic (the General topic is no handoff's), only people (other bots, the
 * bot itself and service messages are dropped: no loops). `/handback` and `/claim` in a topic,
 * and presses of the card's buttons, are actions; anything else a person writes is a message.
 */
import type { CallbackQuery, Chat, Message, MessageEntity, Update, User, UserFromGetMe } from 'grammy/types';
import type {
  OperatorActionEvent,
  OperatorIdentity,
  OperatorMessage,
  ThreadActionKind,
} from '../../../src/contract.js';
import { LOCAL_API_MAX_DOWNLOAD_BYTES, PUBLIC_API_MAX_DOWNLOAD_BYTES } from '../capabilities.js';
import { announcedFiles } from '../inbound.js';
import { telegramAttachment, type FileSource } from '../media.js';
import { actionOfData } from './card.js';
import { entitiesToMarkdown } from './entities.js';

/** The typed commands of a topic and the actions they are. */
const COMMANDS: Record<string, ThreadActionKind> = { handback: 'hand-back', claim: 'claim' };

export type DoorEvent =
  | { kind: 'message'; message: OperatorMessage }
  | { kind: 'action'; action: OperatorActionEvent; callbackQueryId?: string }
  /** A press of some other button in the chat: answered (the spinner stops), nothing more. */
  | { kind: 'other-press'; callbackQueryId: string };

export interface DoorUpdateContext {
  /** The operators' chat as configured: its id, or a public group's @username. */
  chat: number | string;
  me: UserFromGetMe;
  files: FileSource;
}

/** Whether a chat is the configured one (an id, or a public group's @username). */
export function isDoorChat(chat: Pick<Chat, 'id'> & { username?: string }, configured: number | string): boolean {
  if (typeof configured === 'number') return chat.id === configured;
  return chat.username !== undefined && `@${chat.username}`.toLowerCase() === configured.toLowerCase();
}

export function operatorIdentity(user: User): OperatorIdentity {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username || String(user.id);
  return { id: String(user.id), name };
}

/** The topic a message was written in; undefined outside topics (the General topic, a reply thread of a group). */
function topicOf(message: Message): string | undefined {
  return message.is_topic_message === true && message.message_thread_id !== undefined
    ? String(message.message_thread_id)
    : undefined;
}

/** `/handback` or `/handback@thisbot` at the start of the text; another bot's command is nobody's here. */
function commandOf(message: Message, me: UserFromGetMe): ThreadActionKind | 'another-bot' | undefined {
  const text = message.text ?? '';
  const entity = (message.entities ?? []).find((e: MessageEntity) => e.type === 'bot_command' && e.offset === 0);
  if (!entity) return undefined;
  const [name = '', target] = text.slice(1, entity.length).split('@');
  if (target !== undefined && target.toLowerCase() !== me.username.toLowerCase()) return 'another-bot';
  return COMMANDS[name.toLowerCase()];
}

function messageEvent(message: Message, context: DoorUpdateContext): DoorEvent | undefined {
  const thread = topicOf(message);
  const from = message.from;
  if (thread === undefined || !from || from.is_bot || from.id === context.me.id) return undefined;
  const chatId = message.chat.id;
  const command = commandOf(message, context.me);
  if (command === 'another-bot') return undefined;
  if (command) {
    return {
      kind: 'action',
      action: { thread, kind: command, operator: operatorIdentity(from), actionId: `${chatId}:${message.message_id}` },
    };
  }
  const limit = context.files.localApi ? LOCAL_API_MAX_DOWNLOAD_BYTES : PUBLIC_API_MAX_DOWNLOAD_BYTES;
  const files = announcedFiles(message, limit).map((file) => telegramAttachment(context.files, file));
  const text =
    message.text !== undefined
      ? entitiesToMarkdown(message.text, message.entities)
      : entitiesToMarkdown(message.caption ?? '', message.caption_entities);
  // Service messages (a topic created, closed, a member joined) carry neither.
  if (text === '' && files.length === 0) return undefined;
  return {
    kind: 'message',
    message: {
      thread,
      messageId: `${chatId}:${message.message_id}`,
      operator: operatorIdentity(from),
      text,
      files,
      sentAt: message.date * 1000,
    },
  };
}

function pressEvent(query: CallbackQuery): DoorEvent {
  const message = query.message;
  const kind = actionOfData(query.data);
  const thread =
    message && 'is_topic_message' in message && message.is_topic_message === true && message.message_thread_id
      ? String(message.message_thread_id)
      : undefined;
  if (!kind || thread === undefined || query.from.is_bot) return { kind: 'other-press', callbackQueryId: query.id };
  return {
    kind: 'action',
    action: { thread, kind, operator: operatorIdentity(query.from), actionId: `callback:${query.id}` },
    callbackQueryId: query.id,
  };
}

/** What an update of the operators' chat means to the door; undefined when it means nothing. */
export function toDoorEvent(update: Update, context: DoorUpdateContext): DoorEvent | undefined {
  if (update.message) {
    return isDoorChat(update.message.chat, context.chat) ? messageEvent(update.message, context) : undefined;
  }
  const query = update.callback_query;
  if (query?.message && isDoorChat(query.message.chat, context.chat)) return pressEvent(query);
  return undefined;
}
