/**
 * Builds the Message/CallbackQuery objects a real Telegram would put in an
 * Update when a user writes, sends media or presses a button: dates in seconds,
 * per-chat message ids, server-generated mention and bot_command entities.
 */
import type { Chat, Message, MessageEntity, PhotoSize, User } from 'grammy/types';
import type { FileRef, World } from './world.js';

export type ChatLike =
  number | { id: number; type?: Chat['type']; title?: string; is_forum?: boolean; username?: string };
export type UserLike =
  number | { id: number; first_name?: string; last_name?: string; username?: string; language_code?: string };
type Media<T> = FileRef & T;

export interface UserMessage {
  chat: ChatLike;
  /** Defaults to the private chat's user (chat id > 0) or user 1001. */
  from?: UserLike;
  text?: string;
  caption?: string;
  entities?: MessageEntity[];
  /** Sizes smallest first, as Telegram sends them; a single file becomes one 1280×960 size. */
  photo?: FileRef | Media<{ width?: number; height?: number }>[];
  voice?: Media<{ duration?: number }>;
  audio?: Media<{ duration?: number; title?: string; performer?: string }>;
  video?: Media<{ duration?: number; width?: number; height?: number }>;
  video_note?: Media<{ duration?: number; length?: number }>;
  document?: FileRef;
  media_group_id?: string;
  /** A message id in the same chat (user's or bot's), or the message itself. */
  reply_to_message?: number | Message;
  /** Forum topic id (message_thread_id), for groups with topics. */
  thread?: number;
}

export function toUser(user: UserLike): User {
  if (typeof user === 'number') return { id: user, is_bot: false, first_name: `User${user}` };
  return { is_bot: false, first_name: `User${user.id}`, ...user };
}

export function toChat(chat: ChatLike, from: User): Chat {
  const id = typeof chat === 'number' ? chat : chat.id;
  const given: Exclude<ChatLike, number> = typeof chat === 'number' ? { id } : chat;
  if (id > 0) {
    return {
      id,
      type: 'private',
      first_name: from.first_name,
      ...(from.last_name ? { last_name: from.last_name } : {}),
      ...(from.username ? { username: from.username } : {}),
    } as Chat;
  }
  return {
    id,
    type: given.type ?? 'supergroup',
    title: given.title ?? `Group ${-id}`,
    ...(given.username ? { username: given.username } : {}),
    ...(given.is_forum ? { is_forum: true } : {}),
  } as Chat;
}

/** What the Telegram server marks up by itself in user text: @mentions and /commands. */
export function serverEntities(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  for (const match of text.matchAll(/(^|[\s(])(@[A-Za-z0-9_]{5,32})\b/g)) {
    entities.push({
      type: 'mention',
      offset: (match.index ?? 0) + (match[1]?.length ?? 0),
      length: match[2]?.length ?? 0,
    });
  }
  for (const match of text.matchAll(/(^|\s)(\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{5,32})?)/g)) {
    entities.push({
      type: 'bot_command',
      offset: (match.index ?? 0) + (match[1]?.length ?? 0),
      length: match[2]?.length ?? 0,
    });
  }
  return entities.sort((a, b) => a.offset - b.offset);
}

function withFileMeta(world: World, ref: FileRef): { mime_type?: string; file_name?: string } {
  const stored = world.file(ref.file_id);
  return {
    ...(stored?.mimeType ? { mime_type: stored.mimeType } : {}),
    ...(stored?.fileName ? { file_name: stored.fileName } : {}),
  };
}

const fileFields = (ref: FileRef) => ({
  file_id: ref.file_id,
  file_unique_id: ref.file_unique_id,
  file_size: ref.file_size,
});

function photoSizes(photo: NonNullable<UserMessage['photo']>): PhotoSize[] {
  const sizes = Array.isArray(photo) ? photo : [{ ...photo, width: 1280, height: 960 }];
  return sizes.map((s, i) => ({ ...fileFields(s), width: s.width ?? 90 * (i + 1), height: s.height ?? 90 * (i + 1) }));
}

export function buildUserMessage(world: World, input: UserMessage): Message {
  const chatId = typeof input.chat === 'number' ? input.chat : input.chat.id;
  const from = toUser(input.from ?? (chatId > 0 ? chatId : 1001));
  const chat = toChat(input.chat, from);
  const message: Record<string, unknown> = {
    message_id: world.nextMessageId(chatId),
    date: Math.floor(world.now() / 1000),
    chat,
    from,
  };
  if (input.thread !== undefined) Object.assign(message, { message_thread_id: input.thread, is_topic_message: true });
  if (input.text !== undefined) {
    message.text = input.text;
    const entities = input.entities ?? serverEntities(input.text);
    if (entities.length > 0) message.entities = entities;
  }
  if (input.caption !== undefined) {
    message.caption = input.caption;
    const entities = input.entities ?? serverEntities(input.caption);
    if (entities.length > 0) message.caption_entities = entities;
  }
  if (input.photo) message.photo = photoSizes(input.photo);
  if (input.voice) {
    message.voice = {
      ...fileFields(input.voice),
      duration: input.voice.duration ?? 2,
      mime_type: world.file(input.voice.file_id)?.mimeType ?? 'audio/ogg',
    };
  }
  if (input.audio)
    message.audio = {
      ...fileFields(input.audio),
      duration: input.audio.duration ?? 3,
      ...withFileMeta(world, input.audio),
    };
  if (input.video) {
    message.video = {
      ...fileFields(input.video),
      duration: input.video.duration ?? 3,
      width: input.video.width ?? 640,
      height: input.video.height ?? 480,
      ...withFileMeta(world, input.video),
    };
  }
  if (input.video_note) {
    message.video_note = {
      ...fileFields(input.video_note),
      duration: input.video_note.duration ?? 3,
      length: input.video_note.length ?? 240,
    };
  }
  if (input.document) message.document = { ...fileFields(input.document), ...withFileMeta(world, input.document) };
  if (input.media_group_id) message.media_group_id = input.media_group_id;
  if (input.reply_to_message !== undefined) {
    const replied =
      typeof input.reply_to_message === 'number'
        ? world.message(chatId, input.reply_to_message)
        : input.reply_to_message;
    if (!replied)
      throw new Error(
        `reply_to_message ${String(input.reply_to_message)} is not a message of chat ${chatId}; send it first`,
      );
    message.reply_to_message = replied;
  }
  const built = message as unknown as Message;
  world.storeMessage(built);
  return built;
}
