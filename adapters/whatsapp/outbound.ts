/**
 * The core's `Outbound` on whatsapp-web.js: text (already rendered in WhatsApp's
 * `*bold*` `_italic_` `~strike~` marks) with `sendMessage`, an operator's file as the library's
 * `MessageMedia` (outbound-file.ts: a photo or a video, else a document), the answer growing by
 * `message.edit`, "typing…" with `sendStateTyping`. The chat is marked seen when the bot
 * answers in it, and its "typing…" is cleared then. Every failure is a `PlatformError`;
 * with no ready client in this process the platform counts as unreachable, so the core
 * keeps the answer and tries again (a standby replica, a client being re-created).
 */
import {
  describeSent,
  PlatformError,
  type ConversationRef,
  type Logger,
  type Outbound,
  type OutboundFile,
  type OutboundMessage,
  type SentMessage,
} from '../../src/contract.js';
import { WHATSAPP_EDIT_WINDOW_MS, WHATSAPP_MAX_MESSAGE_LENGTH } from './capabilities.js';
import { chatIdOf } from './conversation.js';
import { notReadyError, toPlatformError } from './errors.js';
import type { WaClient, WaMessage, WhatsAppLibrary } from './library.js';
import { loadWhatsAppLibrary } from './load-library.js';
import { planWebFile } from './outbound-file.js';

/**
 * WhatsApp has no reply keyboard: suggested replies (the chatbot's SuggestedMessage, with the
 * welcome) are listed under the text for the user to copy, when they fit in the message.
 */
export function withSuggestions(text: string, suggestions: readonly string[] | undefined): string {
  if (!suggestions?.length) return text;
  const listed = `${text}\n\n${suggestions.map((suggestion) => `• ${suggestion}`).join('\n')}`;
  return listed.length <= WHATSAPP_MAX_MESSAGE_LENGTH ? listed : text;
}

/** The sent messages kept for editing: an edit needs the library's own message object. */
export const SENT_MESSAGES_KEPT = 2000;

interface Sent {
  message: WaMessage;
  /** The client that sent it: a re-created client holds no such object, and looks the message up by id. */
  client: WaClient;
  at: number;
}

export interface WhatsAppOutboundOptions {
  bot: string;
  logger: Logger;
  /** The ready client of this process, or undefined (standby, linking, reconnecting). */
  client(): WaClient | undefined;
  /** Why there is no ready client, for the error. */
  notReadyReason?(): string | undefined;
  /** The library whose `MessageMedia` a file is sent as (its sendMessage knows a file by that class); default whatsapp-web.js. */
  library?(): Promise<WhatsAppLibrary>;
  now?(): number;
}

export class WhatsAppOutbound implements Outbound {
  private readonly sent = new Map<string, Sent>();
  /** Chats where this process showed "typing…" that no message has ended yet. */
  private readonly typingIn = new Set<string>();

  constructor(private readonly options: WhatsAppOutboundOptions) {}

  async send(conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> {
    const chatId = chatIdOf(conversation.id);
    const client = this.ready('sendMessage');
    await this.answering(client, chatId);
    let sent: WaMessage | null | undefined;
    try {
      // Marked seen above, once per message; the library would otherwise do it again on every send.
      sent = await client.sendMessage(chatId, withSuggestions(message.text, message.suggestions), {
        sendSeen: false,
        linkPreview: false,
      });
    } catch (error) {
      throw toPlatformError(error, 'sendMessage', describeSent({ to: chatId, text: message.text }));
    }
    // sendMessage answers null for chats it will not send to (channels, status).
    if (!sent)
      throw new PlatformError(`WhatsApp sendMessage sent nothing to ${chatId}`, 'other', undefined, {
        method: 'sendMessage',
        sent: describeSent({ to: chatId, text: message.text }),
      });
    this.remember(sent, client);
    return { id: sent.id._serialized };
  }

  /**
   * An operator's photo or document: `new MessageMedia(mimetype, base64, filename, size)` and
   * `sendMessage(chat, media, { caption, sendMediaAsDocument })`. Over 100 MB it is refused
   * ('too-long') before anything is read into base64.
   */
  async sendFile(conversation: ConversationRef, file: OutboundFile): Promise<SentMessage> {
    const chatId = chatIdOf(conversation.id);
    const plan = planWebFile(file, 'sendMessage');
    const caption = file.caption?.trim() ? file.caption : undefined;
    const described = describeSent({ to: chatId, text: caption, files: 1 });
    const client = this.ready('sendMessage');
    const { MessageMedia } = await (this.options.library ?? loadWhatsAppLibrary)();
    const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    const media = new MessageMedia(plan.mimeType, bytes.toString('base64'), file.fileName, file.bytes.byteLength);
    await this.answering(client, chatId);
    let sent: WaMessage | null | undefined;
    try {
      sent = await client.sendMessage(chatId, media, {
        ...(caption ? { caption } : {}),
        ...(plan.asDocument ? { sendMediaAsDocument: true } : {}),
        sendSeen: false,
      });
    } catch (error) {
      throw toPlatformError(error, 'sendMessage', described);
    }
    if (!sent)
      throw new PlatformError(`WhatsApp sendMessage sent no file to ${chatId}`, 'other', undefined, {
        method: 'sendMessage',
        sent: described,
      });
    return { id: sent.id._serialized };
  }

  async edit(conversation: ConversationRef, message: SentMessage, text: string): Promise<void> {
    chatIdOf(conversation.id);
    const client = this.ready('edit');
    const target = await this.editTarget(client, message.id);
    let edited: WaMessage | null;
    try {
      edited = await target.edit(text);
    } catch (error) {
      throw toPlatformError(error, 'edit', describeSent({ message: message.id, text }));
    }
    if (edited === null) {
      // WhatsApp refused: the 15-minute window passed, or the chat does not allow it (§C.3, @lid chats).
      throw new PlatformError(
        `WhatsApp refused to edit message ${message.id}; the answer goes on in a new message`,
        'not-editable',
        undefined,
        { method: 'edit', sent: describeSent({ message: message.id, text }) },
      );
    }
  }

  async typing(conversation: ConversationRef): Promise<void> {
    const chatId = chatIdOf(conversation.id);
    const client = this.ready('sendStateTyping');
    try {
      const chat = await client.getChatById(chatId);
      await chat.sendStateTyping();
      this.typingIn.add(chatId);
    } catch (error) {
      throw toPlatformError(error, 'sendStateTyping', describeSent({ to: chatId }));
    }
  }

  /**
   * The library's object of a message to edit: kept when this browser sent it, otherwise looked up
   * by id. The number's own message from another replica or an earlier browser session (the
   * half answer of a process that died, edited by the one that took over) is the same linked
   * device's: WhatsApp lets it be edited, within the edit window, like any other of ours.
   */
  private async editTarget(client: WaClient, messageId: string): Promise<WaMessage> {
    const kept = this.sent.get(messageId);
    if (kept && kept.client === client) return kept.message;
    let found: WaMessage | null;
    try {
      found = await client.getMessageById(messageId);
    } catch (error) {
      throw toPlatformError(error, 'getMessageById', describeSent({ message: messageId }));
    }
    if (!found) {
      throw new PlatformError(
        `WhatsApp edit: WhatsApp Web does not know message ${messageId} in this session; the answer goes on in a new message`,
        'not-editable',
        undefined,
        { method: 'getMessageById', sent: describeSent({ message: messageId }) },
      );
    }
    return found;
  }

  private ready(method: string): WaClient {
    const client = this.options.client();
    if (!client) throw notReadyError(this.options.bot, method, this.options.notReadyReason?.());
    return client;
  }

  /**
   * Before a message goes out: the chat is marked seen (the user sees the bot read it) and
   * "typing…" is cleared. Both are cosmetic: a failure is logged, never a failed answer.
   */
  private async answering(client: WaClient, chatId: string): Promise<void> {
    const typing = this.typingIn.delete(chatId);
    try {
      const chat = await client.getChatById(chatId);
      if (typing) await chat.clearState();
      await chat.sendSeen();
    } catch (error) {
      const mapped = toPlatformError(error, 'sendSeen', describeSent({ to: chatId }));
      // A lost page fails the send as well: say so now rather than after another call.
      if (mapped.kind === 'unreachable') throw mapped;
      this.options.logger.debug({ err: error, chat: chatId }, 'whatsapp: could not mark the chat seen or clear typing');
    }
  }

  private remember(message: WaMessage, client: WaClient): void {
    const now = this.options.now?.() ?? Date.now();
    this.sent.set(message.id._serialized, { message, client, at: now });
    // Past the edit window a message cannot be edited anyway; the cap bounds memory under load.
    for (const [id, entry] of this.sent) {
      if (this.sent.size <= SENT_MESSAGES_KEPT && now - entry.at <= WHATSAPP_EDIT_WINDOW_MS) break;
      this.sent.delete(id);
    }
  }
}
