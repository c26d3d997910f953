/**
 * The fake's message methods: sendMessage, editMessageText, sendMessageDraft,
 * sendPhoto & co, deleteMessage, sendChatAction. Each validates what Telegram
 * validates and answers with Telegram's error wording.
 */
import type { Chat, Message } from 'grammy/types';
import { HtmlParseError, parsePlainText, parseTelegramHtml, type ParsedText } from './html.js';
import { MarkdownV2ParseError, parseMarkdownV2 } from './markdown-v2.js';
import { BadRequest, type Params } from './params.js';
import {
  ApiError,
  MAX_CAPTION_LENGTH,
  MAX_MESSAGE_LENGTH,
  takeMessageSlot,
  type MethodContext,
  type MethodHandler,
} from './context.js';
import type { ReplyMarkup, VisibleMessage } from './world.js';
import { checkThread } from './forum.js';

/** sendPhoto takes photos of at most 10 MB. */
export const MAX_PHOTO_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Other files uploaded with multipart/form-data: at most 50 MB. */
export const MAX_MULTIPART_UPLOAD_BYTES = 50 * 1024 * 1024;

function parseText(source: string, parseMode: string | undefined): ParsedText {
  const mode = parseMode?.toLowerCase();
  if (mode === undefined || mode === '') return parsePlainText(source);
  if (mode !== 'html' && mode !== 'markdownv2') {
    // Only HTML (what the gateway sends) and plain MarkdownV2 (what the peers in bench/peers send) are emulated.
    throw new BadRequest(
      `unsupported parse_mode "${parseMode}" in the fake (only HTML and MarkdownV2 without entities are emulated)`,
    );
  }
  try {
    return mode === 'html' ? parseTelegramHtml(source) : parseMarkdownV2(source);
  } catch (error) {
    if (error instanceof HtmlParseError || error instanceof MarkdownV2ParseError)
      throw new BadRequest(`can't parse entities: ${error.message}`);
    throw error;
  }
}

function parseMessageText(params: Params): ParsedText {
  const parsed = parseText(params.optionalString('text') ?? '', params.optionalString('parse_mode'));
  if (parsed.text.length === 0) throw new BadRequest('message text is empty');
  if (parsed.text.length > MAX_MESSAGE_LENGTH) throw new BadRequest('message is too long');
  return parsed;
}

function validateMarkup(markup: ReplyMarkup | undefined): void {
  if (!markup) return;
  if ('inline_keyboard' in markup) {
    for (const button of markup.inline_keyboard.flat()) {
      if (!button.text) throw new BadRequest('text buttons are unallowed in the inline keyboard');
      if ('callback_data' in button) {
        const bytes = Buffer.byteLength(button.callback_data ?? '', 'utf8');
        if (bytes < 1 || bytes > 64) throw new BadRequest('BUTTON_DATA_INVALID');
      }
    }
  }
  if ('keyboard' in markup) {
    if (!Array.isArray(markup.keyboard) || markup.keyboard.some((row) => !Array.isArray(row))) {
      throw new BadRequest('field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays');
    }
    const placeholder = markup.input_field_placeholder;
    if (placeholder !== undefined && (placeholder.length < 1 || placeholder.length > 64)) {
      throw new BadRequest('input_field_placeholder must be 1-64 characters long');
    }
  }
}

function chatFor(ctx: MethodContext, chatId: number): Chat {
  const known = ctx.world.chatInfo(chatId);
  if (known) return known;
  return (
    chatId > 0
      ? { id: chatId, type: 'private', first_name: `User${chatId}` }
      : { id: chatId, type: 'supergroup', title: `Group ${-chatId}` }
  ) as Chat;
}

/** Stores a new bot message and returns it the way the Bot API does (inline keyboards echoed back). */
function storeBotMessage(
  ctx: MethodContext,
  params: Params,
  chatId: number,
  content: Record<string, unknown>,
  visible: Omit<VisibleMessage, 'message_id' | 'edits'>,
): Message {
  const messageId = ctx.world.nextMessageId(chatId);
  const message = {
    message_id: messageId,
    from: { id: ctx.botUser.id, is_bot: true, first_name: ctx.botUser.first_name, username: ctx.botUser.username },
    chat: chatFor(ctx, chatId),
    date: Math.floor(ctx.world.now() / 1000),
    ...(params.has('message_thread_id')
      ? { message_thread_id: params.number('message_thread_id'), is_topic_message: true }
      : {}),
    ...content,
    ...(visible.reply_markup && 'inline_keyboard' in visible.reply_markup
      ? { reply_markup: visible.reply_markup }
      : {}),
  } as unknown as Message;
  ctx.world.storeMessage(message);
  ctx.world.chat(chatId).botMessages.set(messageId, { message_id: messageId, edits: 0, ...visible });
  return message;
}

const sendMessage: MethodHandler = (ctx, params) => {
  const chatId = params.chatId();
  const parsed = parseMessageText(params);
  const markup = params.json<ReplyMarkup>('reply_markup');
  validateMarkup(markup);
  checkThread(ctx, chatId, params);
  takeMessageSlot(ctx, chatId);
  const message = storeBotMessage(
    ctx,
    params,
    chatId,
    { text: parsed.text, ...(parsed.entities.length ? { entities: parsed.entities } : {}) },
    {
      text: parsed.text,
      source: params.string('text'),
      entities: parsed.entities,
      reply_markup: markup,
      sentWith: 'sendMessage',
    },
  );
  return { result: message, visibleText: parsed.text, messageId: message.message_id };
};

const editMessageText: MethodHandler = (ctx, params) => {
  if (!params.has('chat_id') && params.has('inline_message_id'))
    throw new BadRequest('inline messages are not emulated by the fake');
  const chatId = params.chatId();
  const messageId = params.number('message_id');
  const current = ctx.world.chat(chatId).botMessages.get(messageId);
  if (!current) throw new BadRequest('message to edit not found');
  if (current.sentWith !== 'sendMessage') throw new BadRequest('there is no text in the message to edit');
  const parsed = parseMessageText(params);
  const markup = params.json<ReplyMarkup>('reply_markup');
  validateMarkup(markup);
  const sameText = current.text === parsed.text && JSON.stringify(current.entities) === JSON.stringify(parsed.entities);
  if (sameText && JSON.stringify(current.reply_markup ?? null) === JSON.stringify(markup ?? null)) {
    throw new BadRequest(
      'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
    );
  }
  takeMessageSlot(ctx, chatId);
  Object.assign(current, {
    text: parsed.text,
    source: params.string('text'),
    entities: parsed.entities,
    reply_markup: markup,
    edits: current.edits + 1,
  });
  const stored = ctx.world.message(chatId, messageId);
  // Like Telegram, the edited message carries the inline keyboard the edit gave, and none without one.
  const inline = markup && 'inline_keyboard' in markup ? markup : undefined;
  const edited = {
    ...stored,
    text: parsed.text,
    entities: parsed.entities.length ? parsed.entities : undefined,
    reply_markup: inline,
    edit_date: Math.floor(ctx.world.now() / 1000),
  } as Message;
  ctx.world.storeMessage(edited);
  return { result: edited, visibleText: parsed.text, messageId };
};

const sendMessageDraft: MethodHandler = (ctx, params) => {
  if (ctx.draftSupport === 'unknown-method') throw new ApiError(404, 'Not Found');
  const chatId = params.chatId();
  if (ctx.draftSupport === 'refused' || chatId < 0) throw new BadRequest('TEXTDRAFT_PEER_INVALID');
  const draftId = params.number('draft_id');
  if (draftId === 0) throw new BadRequest('draft_id must be non-zero');
  const parsed = parseText(params.optionalString('text') ?? '', params.optionalString('parse_mode'));
  if (parsed.text.length > MAX_MESSAGE_LENGTH) throw new BadRequest('message is too long');
  ctx.world.chat(chatId).drafts.push({
    draft_id: draftId,
    text: parsed.text,
    at: ctx.world.now(),
    ...(params.has('can_stop') ? { can_stop: params.boolean('can_stop') } : {}),
    ...(params.has('keep_on_stop') ? { keep_on_stop: params.boolean('keep_on_stop') } : {}),
  });
  return { result: true, visibleText: parsed.text };
};

const CHAT_ACTIONS = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);

const sendChatAction: MethodHandler = (ctx, params) => {
  const chatId = params.chatId();
  const action = params.string('action');
  if (!CHAT_ACTIONS.has(action)) throw new BadRequest('wrong parameter action in request');
  ctx.world.chat(chatId).actions.push(action);
  return { result: true };
};

const deleteMessage: MethodHandler = (ctx, params) => {
  const chatId = params.chatId();
  const messageId = params.number('message_id');
  const chat = ctx.world.chat(chatId);
  if (!chat.botMessages.delete(messageId) && !chat.messages.has(messageId))
    throw new BadRequest('message to delete not found');
  chat.messages.delete(messageId);
  return { result: true, messageId };
};

/** sendPhoto, sendDocument, sendVoice, sendAudio, sendVideo: accepted, stored, counted like messages. */
function sendMedia(field: 'photo' | 'document' | 'voice' | 'audio' | 'video'): MethodHandler {
  return (ctx, params) => {
    const chatId = params.chatId();
    const input = params.inputFile(field);
    const caption = parseText(params.optionalString('caption') ?? '', params.optionalString('parse_mode'));
    if (caption.text.length > MAX_CAPTION_LENGTH) throw new BadRequest('message caption is too long');
    const markup = params.json<ReplyMarkup>('reply_markup');
    validateMarkup(markup);
    const uploaded = input.upload?.bytes.byteLength ?? 0;
    if (uploaded > MAX_MULTIPART_UPLOAD_BYTES) throw new ApiError(413, 'Request Entity Too Large');
    if (field === 'photo' && uploaded > MAX_PHOTO_UPLOAD_BYTES) throw new BadRequest('PHOTO_SAVE_FILE_INVALID');
    checkThread(ctx, chatId, params);
    const stored = input.upload
      ? ctx.world.addFile(input.upload.bytes, {
          fileName: input.upload.fileName,
          mimeType: input.upload.mimeType,
          folder: `${field}s`,
        })
      : ctx.world.file(input.fileId ?? '');
    if (!stored && input.fileId && !/^https?:\/\//.test(input.fileId))
      throw new BadRequest('wrong file identifier/HTTP URL specified');
    takeMessageSlot(ctx, chatId);
    const fileInfo = stored
      ? { file_id: stored.file_id, file_unique_id: stored.file_unique_id, file_size: stored.file_size }
      : { file_id: `URL-${input.fileId ?? ''}`, file_unique_id: `URL-${input.fileId ?? ''}` };
    const media =
      field === 'photo'
        ? [{ ...fileInfo, width: 1280, height: 960 }]
        : { ...fileInfo, ...(stored?.mimeType ? { mime_type: stored.mimeType } : {}) };
    const message = storeBotMessage(
      ctx,
      params,
      chatId,
      {
        [field]: media,
        ...(caption.text ? { caption: caption.text } : {}),
        ...(caption.entities.length ? { caption_entities: caption.entities } : {}),
      },
      {
        text: caption.text,
        source: params.optionalString('caption') ?? '',
        entities: caption.entities,
        reply_markup: markup,
        sentWith: `send${field[0]?.toUpperCase()}${field.slice(1)}`,
        file_id: fileInfo.file_id,
      },
    );
    return { result: message, visibleText: caption.text, messageId: message.message_id };
  };
}

export const messagingMethods: Record<string, MethodHandler> = {
  sendMessage,
  editMessageText,
  sendMessageDraft,
  sendChatAction,
  deleteMessage,
  sendPhoto: sendMedia('photo'),
  sendDocument: sendMedia('document'),
  sendVoice: sendMedia('voice'),
  sendAudio: sendMedia('audio'),
  sendVideo: sendMedia('video'),
};
