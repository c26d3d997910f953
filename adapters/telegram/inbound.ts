/**
 * Telegram message / callback query → the core's `Inbound`: who wrote, in which
 * conversation, whether the bot was addressed (always in private chats; in
 * groups only when mentioned, replied to or commanded), text or caption,
 * lazily fetched attachments, and what it replies to (quoted.ts).
 */
import type { CallbackQuery, Message, MessageEntity, UserFromGetMe } from 'grammy/types';
import type { Inbound, InboundAttachment, PlatformUser } from '../../src/contract.js';
import { LOCAL_API_MAX_DOWNLOAD_BYTES, PUBLIC_API_MAX_DOWNLOAD_BYTES } from './capabilities.js';
import { conversationId } from './conversation.js';
import { telegramAttachment, type AnnouncedFile, type FileSource } from './media.js';
import { quotedOf } from './quoted.js';

export interface InboundContext {
  bot: string;
  botInfo: UserFromGetMe;
  files: FileSource;
}

const isGroupChat = (message: Message): boolean => message.chat.type !== 'private';

function userOf(message: Pick<Message, 'from' | 'sender_chat' | 'chat'>): PlatformUser {
  const from = message.from;
  if (from) {
    const name = [from.first_name, from.last_name].filter(Boolean).join(' ');
    return { id: String(from.id), ...(name ? { name } : {}), ...(from.username ? { handle: from.username } : {}) };
  }
  // Anonymous group admins and channels write as a chat.
  const chat = message.sender_chat ?? message.chat;
  return { id: String(chat.id), ...('title' in chat && chat.title ? { name: chat.title } : {}) };
}

function entityText(text: string, entity: MessageEntity): string {
  return text.slice(entity.offset, entity.offset + entity.length);
}

/** `/cmd@thisbot` → `/cmd`; a command addressed to another bot (`/cmd@otherbot`) is not ours. */
function commandAddressing(
  text: string,
  entities: MessageEntity[],
  username: string,
): { isOurCommand: boolean; text: string } {
  const command = entities.find((e) => e.type === 'bot_command' && e.offset === 0);
  if (!command) return { isOurCommand: false, text };
  const [, target] = entityText(text, command).split('@');
  if (target === undefined) return { isOurCommand: true, text };
  if (target.toLowerCase() !== username.toLowerCase()) return { isOurCommand: false, text };
  const withoutTarget =
    text.slice(0, command.offset + command.length - target.length - 1) + text.slice(command.offset + command.length);
  return { isOurCommand: true, text: withoutTarget };
}

function mentionsBot(text: string, entities: MessageEntity[], bot: UserFromGetMe): boolean {
  const handle = `@${bot.username}`.toLowerCase();
  if (entities.some((e) => e.type === 'mention' && entityText(text, e).toLowerCase() === handle)) return true;
  if (entities.some((e) => e.type === 'text_mention' && e.user?.id === bot.id)) return true;
  // Clients do not always send entities (e.g. edited or forwarded text), so look at the text too.
  return new RegExp(`(^|[^\\w@])${handle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(text);
}

/** Photo: the largest size the bot may download (sizes come smallest first). */
function photoFile(message: Message, limit: number): AnnouncedFile | undefined {
  const sizes = message.photo;
  if (!sizes || sizes.length === 0) return undefined;
  const fitting = sizes.filter((s) => s.file_size === undefined || s.file_size <= limit);
  const chosen = fitting.at(-1) ?? sizes[0];
  return chosen && { kind: 'image', fileId: chosen.file_id, size: chosen.file_size };
}

/** The files of a message as Telegram announced them (an operator door's messages too). */
export function announcedFiles(message: Message, limit: number): AnnouncedFile[] {
  const files: (AnnouncedFile | undefined)[] = [
    photoFile(message, limit),
    message.voice && {
      kind: 'voice',
      fileId: message.voice.file_id,
      size: message.voice.file_size,
      mimeType: message.voice.mime_type ?? 'audio/ogg',
      durationSeconds: message.voice.duration,
    },
    message.audio && {
      kind: 'audio',
      fileId: message.audio.file_id,
      size: message.audio.file_size,
      mimeType: message.audio.mime_type,
      fileName: message.audio.file_name,
      durationSeconds: message.audio.duration,
    },
    message.video && {
      kind: 'video',
      fileId: message.video.file_id,
      size: message.video.file_size,
      mimeType: message.video.mime_type,
      fileName: message.video.file_name,
      durationSeconds: message.video.duration,
    },
    message.video_note && {
      kind: 'video',
      fileId: message.video_note.file_id,
      size: message.video_note.file_size,
      mimeType: 'video/mp4',
      durationSeconds: message.video_note.duration,
    },
    message.document && {
      kind: 'document',
      fileId: message.document.file_id,
      size: message.document.file_size,
      mimeType: message.document.mime_type,
      fileName: message.document.file_name,
    },
    message.sticker && { kind: 'sticker', fileId: message.sticker.file_id, size: message.sticker.file_size },
  ];
  return files.filter((f): f is AnnouncedFile => f !== undefined);
}

export function messageToInbound(message: Message, context: InboundContext): Inbound {
  const rawText = message.text ?? message.caption ?? '';
  const entities = message.entities ?? message.caption_entities ?? [];
  const username = context.botInfo.username;
  const command = commandAddressing(rawText, entities, username);
  const isGroup = isGroupChat(message);
  const addressed =
    !isGroup ||
    command.isOurCommand ||
    mentionsBot(rawText, entities, context.botInfo) ||
    message.reply_to_message?.from?.id === context.botInfo.id;
  const limit = context.files.localApi ? LOCAL_API_MAX_DOWNLOAD_BYTES : PUBLIC_API_MAX_DOWNLOAD_BYTES;
  const attachments: InboundAttachment[] = announcedFiles(message, limit).map((file) =>
    telegramAttachment(context.files, file),
  );
  const threadId = message.is_topic_message ? message.message_thread_id : undefined;
  const quoted = quotedOf(message, context.botInfo);
  return {
    conversation: { bot: context.bot, platform: 'telegram', id: conversationId(message.chat.id, threadId) },
    user: userOf(message),
    text: command.text,
    attachments,
    isGroup,
    addressed,
    platformMessageId: String(message.message_id),
    sentAt: message.date * 1000,
    ...(quoted ? { quoted } : {}),
  };
}

/** The label of the pressed inline button, read back from the message it hangs under. */
function pressedLabel(query: CallbackQuery): string | undefined {
  const message = query.message;
  const markup = message && 'reply_markup' in message ? message.reply_markup : undefined;
  const button = markup?.inline_keyboard.flat().find((b) => 'callback_data' in b && b.callback_data === query.data);
  return button?.text;
}

/** A button press: addressed by definition; the platform id is the query's (unique per press). */
export function callbackToInbound(query: CallbackQuery, context: InboundContext): Inbound | undefined {
  const message = query.message;
  if (!message || query.data === undefined) return undefined;
  const isGroup = message.chat.type !== 'private';
  const threadId = 'is_topic_message' in message && message.is_topic_message ? message.message_thread_id : undefined;
  const name = [query.from.first_name, query.from.last_name].filter(Boolean).join(' ');
  return {
    conversation: { bot: context.bot, platform: 'telegram', id: conversationId(message.chat.id, threadId) },
    user: {
      id: String(query.from.id),
      ...(name ? { name } : {}),
      ...(query.from.username ? { handle: query.from.username } : {}),
    },
    text: pressedLabel(query) ?? query.data,
    attachments: [],
    isGroup,
    addressed: true,
    platformMessageId: `callback:${query.id}`,
    sentAt: Date.now(),
    action: { id: query.id, value: query.data },
  };
}
