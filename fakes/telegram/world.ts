/**
 * Everything the fake Telegram remembers: files, messages per chat, what the
 * bot called, drafts, chat actions. Tests read it through FakeTelegram.
 */
import { EventEmitter } from 'node:events';
import type { InlineKeyboardMarkup, Message, ReplyKeyboardMarkup, ReplyKeyboardRemove, ForceReply } from 'grammy/types';
import type { MessageEntity } from './html.js';
import { forumChat, type ForumState } from './forum-state.js';

export interface StoredFile {
  file_id: string;
  file_unique_id: string;
  /** The size Telegram announces (may be set to lie, to test download caps). */
  file_size: number;
  bytes: Uint8Array;
  fileName?: string;
  mimeType?: string;
  file_path: string;
}

export interface FileRef {
  file_id: string;
  file_unique_id: string;
  file_size: number;
}

export interface LoggedCall {
  method: string;
  params: Record<string, unknown>;
  ok: boolean;
  errorCode?: number;
  description?: string;
  /** The text the user sees after entity parsing (sendMessage, editMessageText, drafts, captions). */
  visibleText?: string;
  messageId?: number;
  /** ms since epoch, from the fake's clock. */
  at: number;
}

export type ReplyMarkup = InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | ForceReply;

export interface VisibleMessage {
  message_id: number;
  /** Text (or caption) after entity parsing, as the user sees it now. */
  text: string;
  /** The source as the bot last sent it (HTML when parse_mode was HTML). */
  source: string;
  entities: MessageEntity[];
  reply_markup?: ReplyMarkup;
  /** sendMessage, sendPhoto, … */
  sentWith: string;
  edits: number;
  file_id?: string;
}

export interface DraftCall {
  draft_id: number;
  text: string;
  at: number;
  /** The draft showed a stop button (`can_stop`). */
  can_stop?: boolean;
  /** Pressing it keeps the draft shown (`keep_on_stop`). */
  keep_on_stop?: boolean;
}

interface ChatState {
  nextMessageId: number;
  /** Every message in the chat, user's and bot's, by id (the bot's have `from.is_bot`). */
  messages: Map<number, Message>;
  botMessages: Map<number, VisibleMessage>;
  log: LoggedCall[];
  drafts: DraftCall[];
  actions: string[];
}

export class World extends EventEmitter {
  private readonly chats = new Map<number, ChatState>();
  private readonly files = new Map<string, StoredFile>();
  private readonly filesByPath = new Map<string, StoredFile>();
  private nextFile = 1;
  /** Calls that name no chat (getMe, getUpdates, setWebhook, …). */
  readonly globalLog: LoggedCall[] = [];
  readonly commands: Record<string, unknown>[] = [];
  /** Callback queries the fake created (pressButton), by id, and how the bot answered them. */
  readonly callbackQueries = new Map<string, CallbackAnswer>();
  /** Supergroups set up with FakeTelegram.createForum, by chat id. */
  readonly forums = new Map<number, ForumState>();
  tooManyRequests = 0;

  constructor(readonly now: () => number) {
    super();
    this.setMaxListeners(100);
  }

  chat(chatId: number): ChatState {
    let chat = this.chats.get(chatId);
    if (!chat) {
      chat = { nextMessageId: 1, messages: new Map(), botMessages: new Map(), log: [], drafts: [], actions: [] };
      this.chats.set(chatId, chat);
    }
    return chat;
  }

  nextMessageId(chatId: number): number {
    return this.chat(chatId).nextMessageId++;
  }

  /** Something changed: wakes `waitFor`. */
  changed(): void {
    this.emit('change');
  }

  log(chatId: number | undefined, call: LoggedCall): void {
    if (call.errorCode === 429) this.tooManyRequests++;
    (chatId === undefined ? this.globalLog : this.chat(chatId).log).push(call);
    this.changed();
  }

  addFile(
    bytes: Uint8Array,
    meta: { fileName?: string; mimeType?: string; declaredSize?: number; folder?: string },
  ): StoredFile {
    const n = this.nextFile++;
    const extension = meta.fileName?.includes('.') ? meta.fileName.slice(meta.fileName.lastIndexOf('.')) : '';
    const file: StoredFile = {
      file_id: `FILE${n}-${Math.random().toString(36).slice(2, 10)}`,
      file_unique_id: `U${n}`,
      file_size: meta.declaredSize ?? bytes.byteLength,
      bytes,
      fileName: meta.fileName,
      mimeType: meta.mimeType,
      file_path: `${meta.folder ?? 'documents'}/file_${n}${extension}`,
    };
    this.files.set(file.file_id, file);
    this.filesByPath.set(file.file_path, file);
    return file;
  }

  forgetFile(fileId: string): void {
    const file = this.files.get(fileId);
    if (!file) throw new Error(`fake Telegram: forgetFile: no file ${fileId}`);
    this.files.delete(fileId);
    this.filesByPath.delete(file.file_path);
  }

  file(fileId: string): StoredFile | undefined {
    return this.files.get(fileId);
  }

  fileByPath(path: string): StoredFile | undefined {
    return this.filesByPath.get(path);
  }

  chatLog(chatId: number): LoggedCall[] {
    return [...(this.chats.get(chatId)?.log ?? [])];
  }

  visibleMessages(chatId: number): VisibleMessage[] {
    return [...(this.chats.get(chatId)?.botMessages.values() ?? [])].sort((a, b) => a.message_id - b.message_id);
  }

  drafts(chatId: number): DraftCall[] {
    return [...(this.chats.get(chatId)?.drafts ?? [])];
  }

  chatActions(chatId: number): string[] {
    return [...(this.chats.get(chatId)?.actions ?? [])];
  }

  storeMessage(message: Message): void {
    this.chat(message.chat.id).messages.set(message.message_id, message);
  }

  /** The chat as Telegram described it in the latest message there, if any. */
  chatInfo(chatId: number): Message['chat'] | undefined {
    const forum = this.forums.get(chatId);
    if (forum) return forumChat(forum);
    const messages = this.chats.get(chatId)?.messages;
    if (!messages || messages.size === 0) return undefined;
    return [...messages.values()].at(-1)?.chat;
  }

  /** Every message of a chat as it is now, oldest first. */
  messagesOf(chatId: number): Message[] {
    return [...(this.chats.get(chatId)?.messages.values() ?? [])].sort((a, b) => a.message_id - b.message_id);
  }

  message(chatId: number, messageId: number): Message | undefined {
    return this.chats.get(chatId)?.messages.get(messageId);
  }
}

export interface CallbackAnswer {
  answered: boolean;
  text?: string;
  show_alert?: boolean;
}
