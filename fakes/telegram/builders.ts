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
  /**
   * With reply_to_message: the part of the replied message's text (or caption) the user picked to
   * quote (Message.quote); it must occur in that text, as Telegram requires.
   */
  quote?: string;
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
    // Telegram leaves out the replied message's own reply_to_message.
    const { reply_to_message: _nested, ...repliedAlone } = replied;
    message.reply_to_message = repliedAlone;
    if (input.quote !== undefined) message.quote = quoteOf(repliedAlone as Message, input.quote);
  } else if (input.quote !== undefined) {
    throw new Error('quote needs reply_to_message: a quote is part of the message replied to');
  }
  const built = message as unknown as Message;
  world.storeMessage(built);
  return built;
}

/** Message.quote as Telegram builds it: the picked part, where it starts (UTF-16 units), picked by hand. */
function quoteOf(replied: Message, part: string): { text: string; position: number; is_manual: true } {
  const source = replied.text ?? replied.caption ?? '';
  const position = source.indexOf(part);
  if (part === '' || position < 0)
    throw new Error(`quote "${part}" is not part of message ${replied.message_id} ("${source}"): Telegram refuses it`);
  return { text: part, position, is_manual: true };
}

/**
 * The user edits a message they sent: its text (or its caption, for a file) replaced, the entities
 * Telegram derives again, `edit_date` set; the message stays stored as edited.
 */
export function editUserMessage(world: World, chatId: number, messageId: number, text: string): Message {
  const stored = world.message(chatId, messageId);
  if (!stored) throw new Error(`fake Telegram: chat ${chatId} has no message ${messageId} to edit`);
  if (stored.from?.is_bot) throw new Error(`fake Telegram: message ${messageId} is the bot's; a user edits their own`);
  const entities = serverEntities(text);
  const field = stored.text === undefined && stored.caption !== undefined ? 'caption' : 'text';
  const entityField = field === 'text' ? 'entities' : 'caption_entities';
  const { [entityField]: _old, ...rest } = stored;
  const edited = {
    ...rest,
    [field]: text,
    ...(entities.length > 0 ? { [entityField]: entities } : {}),
    edit_date: Math.floor(world.now() / 1000),
  } as Message;
  world.storeMessage(edited);
  return edited;
}
