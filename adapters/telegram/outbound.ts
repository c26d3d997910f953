/**
 * The core's `Outbound` on the Bot API: text always as HTML (the core renders
 * telegram-html), suggestions as a reply keyboard, buttons as an inline
 * keyboard (also on an edit), drafts with sendMessageDraft (with a stop button), typing with
 * sendChatAction. Every refusal becomes a `PlatformError`. Messages and edits
 * are paced bot-wide (pacing.ts); drafts and chat actions are not messages.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Api } from 'grammy';
import type { InlineKeyboardMarkup, ReplyKeyboardMarkup } from 'grammy/types';
import type { Logger } from '../../src/contract.js';
import {
  describeSent,
  PlatformError,
  type Button,
  type ConversationRef,
  type Outbound,
  type OutboundFile,
  type OutboundMessage,
  type SentMessage,
} from '../../src/contract.js';
import { fileMethod, sendFileBytes } from './files.js';
import { parseConversationId } from './conversation.js';
import { toDraftError, toPlatformError } from './errors.js';
import type { TokenBucket } from './pacing.js';

/** Telegram's limit for input_field_placeholder. */
export const MAX_PLACEHOLDER_LENGTH = 64;

function inlineKeyboard(buttons: Button[] | undefined): InlineKeyboardMarkup | undefined {
  if (!buttons?.length) return undefined;
  return { inline_keyboard: buttons.map((b) => [{ text: b.label, callback_data: b.value }]) };
}

function replyKeyboard(message: OutboundMessage): ReplyKeyboardMarkup | undefined {
  if (!message.suggestions?.length) return undefined;
  const placeholder = message.inputPlaceholder?.trim().slice(0, MAX_PLACEHOLDER_LENGTH);
  return {
    keyboard: message.suggestions.map((text) => [{ text }]),
    resize_keyboard: true,
    // A suggestion is a one-off reply; the keyboard folds away once used.
    one_time_keyboard: true,
    ...(placeholder ? { input_field_placeholder: placeholder } : {}),
  };
}

export class TelegramOutbound implements Outbound {
  constructor(
    private readonly api: Api,
    private readonly logger: Logger,
    /** Bot-wide pacing: the adapter instance's own bucket (pacing.ts), shared by all its chats. */
    private readonly pacer: TokenBucket,
  ) {}

  async send(conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> {
    const { chatId, threadId } = parseConversationId(conversation.id);
    const inline = inlineKeyboard(message.buttons);
    const reply = replyKeyboard(message);
    if (inline && reply) {
      // A message carries one reply_markup; the buttons are the answer's own choices, so they win.
      this.logger.debug(
        { conversation: conversation.id },
        'telegram: both buttons and suggestions given; suggestions dropped',
      );
    }
    await this.paced('sendMessage', message.progress === true);
    try {
      const sent = await this.api.sendMessage(chatId, message.text, {
        parse_mode: 'HTML',
        ...(threadId !== undefined ? { message_thread_id: threadId } : {}),
        ...((inline ?? reply) ? { reply_markup: inline ?? reply } : {}),
        link_preview_options: { is_disabled: true },
      });
      return { id: String(sent.message_id) };
    } catch (error) {
      throw toPlatformError(
        error,
        'sendMessage',
        describeSent({ to: chatId, text: message.text, buttons: message.buttons?.length }),
      );
    }
  }

  /** A photo (an image within 10 MB) or a document, the caption in HTML; paced like a message. */
  async sendFile(conversation: ConversationRef, file: OutboundFile): Promise<SentMessage> {
    const { chatId, threadId } = parseConversationId(conversation.id);
    const method = fileMethod(file);
    await this.paced(method, false);
    try {
      const sent = await sendFileBytes(this.api, chatId, file, {
        ...(file.caption ? { caption: file.caption } : {}),
        ...(threadId !== undefined ? { threadId } : {}),
      });
      return { id: String(sent.message_id) };
    } catch (error) {
      throw toPlatformError(error, method, describeSent({ to: chatId, text: file.caption, files: 1 }));
    }
  }

  async edit(
    conversation: ConversationRef,
    message: SentMessage,
    text: string,
    options: { buttons?: Button[]; progress?: boolean } = {},
  ): Promise<void> {
    const { chatId } = parseConversationId(conversation.id);
    // Without reply_markup Telegram removes the inline keyboard, which is right for an
    // intermediate edit (it has none) and for a final edit that carries no buttons.
    const inline = inlineKeyboard(options.buttons);
    await this.paced('editMessageText', options.progress === true);
    try {
      await this.api.editMessageText(chatId, Number(message.id), text, {
        parse_mode: 'HTML',
        ...(inline ? { reply_markup: inline } : {}),
        link_preview_options: { is_disabled: true },
      });
    } catch (error) {
      throw toPlatformError(
        error,
        'editMessageText',
        describeSent({ to: chatId, message: message.id, text, buttons: options.buttons?.length }),
      );
    }
  }

  async draft(conversation: ConversationRef, draftId: number, text: string): Promise<void> {
    const { chatId, threadId } = parseConversationId(conversation.id);
    try {
      await this.api.sendMessageDraft(chatId, draftId, text, {
        parse_mode: 'HTML',
        ...(threadId !== undefined ? { message_thread_id: threadId } : {}),
        // A stop button under the draft: pressed, it arrives as "/stop" (revisions.ts); the partial draft stays
        // shown until the core sends what was written, marked as stopped.
        can_stop: true,
        keep_on_stop: true,
      });
    } catch (error) {
      throw toDraftError(error, describeSent({ to: chatId, message: draftId, text }));
    }
  }

  async typing(conversation: ConversationRef): Promise<void> {
    const { chatId, threadId } = parseConversationId(conversation.id);
    try {
      await this.api.sendChatAction(chatId, 'typing', threadId !== undefined ? { message_thread_id: threadId } : {});
    } catch (error) {
      throw toPlatformError(error, 'sendChatAction', describeSent({ to: chatId }));
    }
  }

  /**
   * Waits for this call's slot in the bot-wide pace. An intermediate update
   * (`progress`) whose slot is too far away is refused as rate-limited instead,
   * and the relay shows newer text later; anything else waits its turn, so a
   * burst larger than the pace delays final answers but never loses one.
   */
  private async paced(method: string, progress: boolean): Promise<void> {
    const slot = this.pacer.reserve({ mayRefuse: progress });
    if (typeof slot !== 'number') {
      throw new PlatformError(
        `Telegram ${method} not sent: the bot's pace of ${this.pacer.perSecond} messages/s is booked ${slot.refusedForMs} ms ahead`,
        'rate-limited',
        slot.refusedForMs,
        { method },
      );
    }
    if (slot > 0) await sleep(slot);
  }
}
