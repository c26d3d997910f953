/**
 * The Telegram operator door: a supergroup with topics, one topic per user. A handoff opens
 * (or reopens) the user's topic and posts its card there; what the user writes is posted into
 * it; the topic is closed when the handoff ends. What people write or press in a topic goes to
 * the sink (updates.ts). How updates arrive is the receiver's business (the bot's own adapter,
 * or a poller of the door's own bot under a lease: receivers.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Api } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import {
  describeSent,
  renderChunks,
  retryWithBackoff,
  type Backoff,
  type Logger,
  type OperatorDoor,
  type OperatorSink,
  type ThreadCard,
  type ThreadPost,
  type ThreadRef,
} from '../../../src/contract.js';
import { MAX_CAPTION_LENGTH, MAX_UPLOAD_BYTES, fileMethod, sendFileBytes } from '../files.js';
import type { FileSource } from '../media.js';
import type { TokenBucket } from '../pacing.js';
import { MAX_MESSAGE_LENGTH, renderCard } from './card.js';
import { isMessageNotModified, isTopicNotModified, toDoorError } from './errors.js';
import { telegramMarkup } from '../markdown.js';
import { toDoorEvent } from './updates.js';

/** How the door tries a sink that failed again (long polling): soon at first, then every 15 s. */
const SINK_RETRY: Backoff = { firstMs: 500, maxMs: 15_000, jitter: 0.2 };

/** Telegram's limit on a topic's name. */
export const MAX_TOPIC_NAME_LENGTH = 128;

/** How the door hears its group: started with the door's handler, stopped with the door. */
export interface DoorReceiver {
  start(handle: (update: Update, me: UserFromGetMe) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
  /**
   * Whether Telegram sends an update again when its handling failed (a webhook answered 500). Long
   * polling confirms an update once handled, so the door itself tries the sink again instead.
   */
  readonly redelivers: boolean;
  /** A receiver that polls under a lease: whether this process polls now. */
  polls?(): boolean;
}

export interface TelegramDoorOptions {
  /** The operators' group: its id (-100…), or a public group's @username. */
  chat: number | string;
  api: Api;
  files: FileSource;
  receiver: DoorReceiver;
  /** The bot-wide pace of messages: the adapter's own when the door shares its bot. */
  pacer: TokenBucket;
  logger: Logger;
}

/** A topic's name: the card's title on one line, within Telegram's 128 characters. */
export function topicName(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim() || 'Handoff';
  const chars = [...line];
  return chars.length <= MAX_TOPIC_NAME_LENGTH ? line : `${chars.slice(0, MAX_TOPIC_NAME_LENGTH - 1).join('')}…`;
}

/** The link that opens a topic: t.me/c/<id without -100>/<topic> for a private group, t.me/<username>/<topic> for a public one. */
export function topicUrl(chat: number | string, thread: number): string | undefined {
  if (typeof chat === 'string') return `https://t.me/${chat.replace(/^@/, '')}/${thread}`;
  const digits = String(chat);
  return digits.startsWith('-100') ? `https://t.me/c/${digits.slice(4)}/${thread}` : undefined;
}

export class TelegramOperatorDoor implements OperatorDoor {
  readonly platform = 'telegram';
  /** Telegram has no alerts mode: a topic relays both ways. */
  readonly relays = true;
  /** Multipart upload limit; a photo over 10 MB goes as a document. */
  readonly maxFileBytes = MAX_UPLOAD_BYTES;
  private sink: OperatorSink | undefined;
  /** Aborted by stop(): ends the tries of an update the sink has not taken yet. */
  private stopping = new AbortController();
  private resolvedChat: number | string;

  constructor(private readonly options: TelegramDoorOptions) {
    this.resolvedChat = options.chat;
  }

  async start(sink: OperatorSink): Promise<void> {
    this.sink = sink;
    this.stopping = new AbortController();
    await this.options.receiver.start((update, me) => this.handle(update, me));
  }

  async stop(): Promise<void> {
    // First, so that a poller's stop does not wait for an update being tried again.
    this.stopping.abort(new Error('the Telegram operator door stopped'));
    await this.options.receiver.stop();
    this.sink = undefined;
  }

  /** Whether this process receives the group's updates by polling now (a door with a bot of its own, holding the lease). */
  polls(): boolean {
    return this.options.receiver.polls?.() ?? false;
  }

  /** One update of the group; rejects when the sink did not take it (so that Telegram may send it again). */
  async handle(update: Update, me: UserFromGetMe): Promise<void> {
    const event = toDoorEvent(update, { chat: this.options.chat, me, files: this.options.files });
    if (!event) return;
    if (event.kind !== 'message' && event.callbackQueryId) {
      // The client's spinner stops at once; what the press did shows on the card.
      await this.options.api
        .answerCallbackQuery(event.callbackQueryId)
        .catch((error: unknown) =>
          this.options.logger.warn({ err: error }, 'telegram door: answerCallbackQuery failed'),
        );
    }
    if (event.kind === 'other-press') return;
    const handOver = (): Promise<void> => {
      const sink = this.sink;
      if (!sink) throw new Error('the Telegram operator door received an update before start() or after stop()');
      return event.kind === 'message' ? sink.message(event.message) : sink.action(event.action);
    };
    if (this.options.receiver.redelivers) return handOver();
    // Polled: the update stays unconfirmed while it is tried again (and the topic's later ones wait
    // behind it, in order); after a stop, Telegram gives it to the next poller.
    const signal = this.stopping.signal;
    await retryWithBackoff(handOver, {
      backoff: SINK_RETRY,
      signal,
      retryIf: () => !signal.aborted,
      onFailure: (error, attempt) =>
        this.options.logger.warn(
          { err: error, attempt, updateId: update.update_id },
          "telegram door: the handoff did not take an operator's message or press; trying again",
        ),
    });
  }

  async open(card: ThreadCard, previous?: ThreadRef): Promise<ThreadRef> {
    const chat = await this.chatId();
    const name = topicName(card.title);
    let thread: number;
    if (previous) {
      thread = Number(previous.id);
      await this.settle('reopenForumTopic', () => this.options.api.reopenForumTopic(chat, thread), isTopicNotModified);
      await this.settle(
        'editForumTopic',
        () => this.options.api.editForumTopic(chat, thread, { name }),
        isTopicNotModified,
      );
    } else {
      const topic = await this.call('createForumTopic', () => this.options.api.createForumTopic(chat, name));
      thread = topic.message_thread_id;
    }
    const rendered = renderCard(card);
    await this.paced();
    const sent = await this.call(
      'sendMessage',
      () =>
        this.options.api.sendMessage(chat, rendered.html, {
          parse_mode: 'HTML',
          message_thread_id: thread,
          link_preview_options: { is_disabled: true },
          ...(rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
        }),
      describeSent({ to: chat, text: rendered.html, buttons: card.actions.length }),
    );
    const url = topicUrl(this.options.chat, thread);
    return { id: String(thread), cardMessageId: String(sent.message_id), ...(url ? { url } : {}) };
  }

  async updateCard(thread: ThreadRef, card: ThreadCard): Promise<void> {
    const chat = await this.chatId();
    const rendered = renderCard(card);
    await this.paced();
    await this.settle(
      'editMessageText',
      () =>
        this.options.api.editMessageText(chat, Number(thread.cardMessageId), rendered.html, {
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          // Without reply_markup Telegram removes the buttons: right once handed back.
          ...(rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
        }),
      isMessageNotModified,
      describeSent({ to: chat, message: thread.cardMessageId, text: rendered.html }),
    );
  }

  async post(thread: ThreadRef, post: ThreadPost): Promise<void> {
    const chat = await this.chatId();
    const threadId = Number(thread.id);
    const files = post.files ?? [];
    // A text that fits a caption goes with a single file; otherwise the text first, then the files.
    const asCaption =
      files.length === 1 && post.markdown ? renderChunks(post.markdown, telegramMarkup, MAX_CAPTION_LENGTH) : [];
    const caption = asCaption.length === 1 ? asCaption[0] : undefined;
    if (post.markdown && caption === undefined) {
      for (const chunk of renderChunks(post.markdown, telegramMarkup, MAX_MESSAGE_LENGTH)) {
        await this.paced();
        await this.call(
          'sendMessage',
          () =>
            this.options.api.sendMessage(chat, chunk, {
              parse_mode: 'HTML',
              message_thread_id: threadId,
              link_preview_options: { is_disabled: true },
            }),
          describeSent({ to: chat, text: chunk }),
        );
      }
    }
    for (const file of files) {
      const method = fileMethod(file);
      await this.paced();
      await this.call(
        method,
        () => sendFileBytes(this.options.api, chat, file, { threadId, ...(caption ? { caption } : {}) }),
        describeSent({ to: chat, files: 1 }),
      );
    }
  }

  async close(thread: ThreadRef): Promise<void> {
    const chat = await this.chatId();
    await this.settle(
      'closeForumTopic',
      () => this.options.api.closeForumTopic(chat, Number(thread.id)),
      isTopicNotModified,
    );
  }

  /**
   * The group's id for calls: as configured, or a public group's @username resolved once with
   * getChat (the fake and some Bot API servers take only ids in every method).
   */
  private async chatId(): Promise<number | string> {
    if (typeof this.resolvedChat === 'number') return this.resolvedChat;
    const chat = await this.call('getChat', () => this.options.api.getChat(this.options.chat));
    this.resolvedChat = chat.id;
    return chat.id;
  }

  /** Waits for a message's slot in the bot-wide pace (a door's posts are never urgent enough to skip). */
  private async paced(): Promise<void> {
    const slot = this.options.pacer.reserve({ mayRefuse: false });
    if (typeof slot === 'number' && slot > 0) await sleep(slot);
  }

  /** One Bot API call, its refusal in the contract's terms. */
  private async call<T>(method: string, run: () => Promise<T>, sent?: string): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toDoorError(error, method, sent);
    }
  }

  /** A call whose refusal `alreadySo` says it was already as asked (a topic closed, a card unchanged): done. */
  private async settle(
    method: string,
    run: () => Promise<unknown>,
    alreadySo: (error: unknown) => boolean,
    sent?: string,
  ): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (!alreadySo(error)) throw toDoorError(error, method, sent);
    }
  }
}
