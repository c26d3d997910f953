/**
 * A fake Telegram Bot API server for tests and benchmarks. It speaks the real
 * wire protocol on 127.0.0.1, so the real grammY talks to it through
 * `client.apiRoot`, and it enforces Telegram's limits (flood 429s, 4096
 * characters, strict HTML). See docs/platforms.md §A for the limits.
 *
 *   const fake = await startFakeTelegram();
 *   const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot }, botInfo: fake.botInfo });
 *   fake.userSends({ chat: 42, text: 'hi' });
 *   await fake.waitFor(() => fake.visibleMessages(42).length > 0);
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { CallbackQuery, Message, Update, UserFromGetMe } from 'grammy/types';
import { buildUserMessage, editUserMessage, toUser, type UserLike, type UserMessage } from './builders.js';
import { forumChat, forumState, type ForumSetup, type TopicState } from './forum-state.js';
import { requireForum, THREAD_NOT_FOUND } from './forum.js';
import type { DraftSupport } from './context.js';
import { FailureScript, FloodControl, type InjectedFailure, type RateLimitOptions } from './limits.js';
import { createFakeTelegramApp } from './server.js';
import { UpdateQueue, type WebhookAttempt } from './updates.js';
import { World, type DraftCall, type FileRef, type LoggedCall, type VisibleMessage } from './world.js';
import { waitForChange } from '../wait-for.js';

export type {
  ForumSetup,
  TopicState,
  DraftSupport,
  FileRef,
  InjectedFailure,
  LoggedCall,
  RateLimitOptions,
  UserMessage,
  VisibleMessage,
  DraftCall,
  WebhookAttempt,
};

export interface FakeTelegramOptions {
  /** Default "123456789:TEST_fake_token". */
  token?: string;
  /** The bot's getMe; default id 123456789, username "chatbridge_test_bot". */
  bot?: Partial<Pick<UserFromGetMe, 'id' | 'first_name' | 'username'>>;
  /** Flood limits; `false` = unlimited (throughput benchmarks). Default 1 msg/s per chat, burst 1, 20/min in groups, 30/s per bot. */
  rateLimit?: RateLimitOptions | false;
  /** A local Bot API server (`--local`): getFile has no 20 MB limit. */
  localServer?: boolean;
  /** Default 'supported'. */
  drafts?: DraftSupport;
  /** Pause before a webhook delivery that got a non-2xx answer is retried (default 100 ms). */
  webhookRetryDelayMs?: number;
  /**
   * Webhook requests open at once (default 1: one update at a time, in order). Telegram opens up
   * to setWebhook's max_connections (default 40), one update of a chat at a time; replicas
   * behind a load balancer are exercised with several.
   */
  webhookConnections?: number;
  /** How long a webhook request may take before it counts as failed and is sent again (default 10 s). */
  webhookTimeoutMs?: number;
  /** The fake's clock (ms); message dates and flood limits use it. Default Date.now. */
  now?: () => number;
}

export interface FakeTelegram {
  /** Pass as grammY `client.apiRoot`. */
  readonly apiRoot: string;
  readonly token: string;
  /** Pass as grammY `botInfo` to skip getMe. */
  readonly botInfo: UserFromGetMe;
  /** Registers a file a user could send; use the returned ref in `userSends`. */
  addFile(bytes: Uint8Array, meta?: { fileName?: string; mimeType?: string; declaredSize?: number }): FileRef;
  /** Telegram no longer has the file: getFile answers 400 "invalid file_id", its path 404. */
  forgetFile(fileId: string): void;
  /** Queues any update (update_id assigned unless given). */
  sendUpdate(update: Omit<Update, 'update_id'> & { update_id?: number }): Update;
  /**
   * A user writes (text, media, album part, reply…); returns the queued update. A reply names the
   * message it replies to (`reply_to_message`: the user's, someone else's or the bot's, by id), and
   * may quote part of it (`quote`).
   */
  userSends(message: UserMessage): Update & { message: Message };
  /**
   * The user edits a message they sent (its text, or its caption for a file): the stored message
   * changes and an `edited_message` update with the message as it reads now (same message_id,
   * `edit_date` set) is queued.
   */
  userEdits(input: { chat: number; messageId: number; text: string }): Update & { edited_message: Message };
  /**
   * The user presses the stop button under the bot's draft in a private chat (the latest draft, or
   * `draftId`'s): a `stopped_message_generation` update. Throws when that draft had no stop button
   * (sendMessageDraft without `can_stop`), as the user would see none.
   */
  userStopsDraft(input: { chat: number; draftId?: number }): Update & {
    stopped_message_generation: NonNullable<Update['stopped_message_generation']>;
  };
  /**
   * A supergroup (default: with topics on, the bot an admin allowed to manage topics), answered by
   * getChat and getChatMember; setting up the same id again replaces its settings and keeps its topics.
   */
  createForum(setup: ForumSetup): void;
  /** A person deletes a topic in the app: later calls naming it fail "message thread not found". */
  deleteTopic(chat: number, thread: number): void;
  /** A topic's name and state (open or closed, deleted). */
  topic(chat: number, thread: number): TopicState | undefined;
  /** Every topic of a forum, deleted ones too, oldest first. */
  topics(chat: number): TopicState[];
  /** Every message in a topic (people's, the bot's, service messages), oldest first, as they are now. */
  topicMessages(chat: number, thread: number): Message[];
  /**
   * A person writes in a topic of a forum (text, caption, photo, document…): a message with
   * message_thread_id and is_topic_message; from defaults to user 1001.
   */
  memberWrites(input: Omit<UserMessage, 'chat' | 'thread'> & { chat: number; thread: number }): Update & {
    message: Message;
  };
  /** A user presses an inline button under a bot message. */
  pressButton(input: {
    chat: number;
    messageId: number;
    data: string;
    from?: UserLike;
  }): Update & { callback_query: CallbackQuery };
  /**
   * While `refused`, every Bot API call answers as Telegram does for a revoked token:
   * `{"ok":false,"error_code":401,"description":"Unauthorized"}` (updates wait, as Telegram keeps them).
   */
  refuseToken(refused: boolean): void;
  /** Delivers an update again with the same update_id (dedupe tests). */
  redeliver(update: Update): void;
  chatLog(chatId: number): LoggedCall[];
  visibleMessages(chatId: number): VisibleMessage[];
  drafts(chatId: number): DraftCall[];
  chatActions(chatId: number): string[];
  /** Calls that name no chat (getMe, getUpdates with updates, setWebhook…). */
  globalLog(): LoggedCall[];
  /** How the bot answered a callback query created by pressButton. */
  callbackAnswer(queryId: string): { answered: boolean; text?: string } | undefined;
  /** 429s answered so far (flood limits and injected ones). */
  tooManyRequestsCount(): number;
  /** file_paths downloaded through /file/bot…, in order. */
  downloads(): string[];
  webhookAttempts(): WebhookAttempt[];
  /** The next `times` calls of `method` fail like this (e.g. 429 with retryAfter, or 500). */
  failNext(method: string, failure: InjectedFailure, times?: number): void;
  setRateLimit(options: RateLimitOptions | false): void;
  setDraftSupport(support: DraftSupport): void;
  /** Resolves once `predicate` holds (checked on every change of the fake and every 25 ms); rejects after timeoutMs (default 5000). */
  waitFor(predicate: () => boolean, options?: { timeoutMs?: number; what?: string }): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const now = options.now ?? Date.now;
  const token = options.token ?? '123456789:TEST_fake_token';
  const botInfo: UserFromGetMe = {
    id: options.bot?.id ?? 123456789,
    is_bot: true,
    first_name: options.bot?.first_name ?? 'Chatbridge Test',
    username: options.bot?.username ?? 'chatbridge_test_bot',
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  } as UserFromGetMe;
  const world = new World(now);
  const queue = new UpdateQueue(
    options.webhookRetryDelayMs ?? 100,
    () => world.changed(),
    options.webhookConnections ?? 1,
    options.webhookTimeoutMs,
  );
  const flood = new FloodControl(options.rateLimit, now);
  const failures = new FailureScript();
  const downloads: string[] = [];
  const context = {
    world,
    queue,
    flood,
    botUser: botInfo,
    localServer: options.localServer ?? false,
    draftSupport: options.drafts ?? ('supported' as DraftSupport),
  };
  let tokenRefused = false;
  const app = createFakeTelegramApp({ token, world, failures, context, downloads, tokenRefused: () => tokenRefused });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  let nextCallback = 1;

  const fake: FakeTelegram = {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    botInfo,
    addFile: (bytes, meta = {}) => {
      const f = world.addFile(bytes, { ...meta, folder: meta.mimeType?.split('/')[0] });
      return { file_id: f.file_id, file_unique_id: f.file_unique_id, file_size: f.file_size };
    },
    forgetFile: (fileId) => world.forgetFile(fileId),
    sendUpdate: (update) => queue.push(update),
    userSends: (input) =>
      queue.push({ message: buildUserMessage(world, input) } as Omit<Update, 'update_id'>) as Update & {
        message: Message;
      },
    userEdits: ({ chat, messageId, text }) =>
      queue.push({ edited_message: editUserMessage(world, chat, messageId, text) } as Omit<
        Update,
        'update_id'
      >) as Update & { edited_message: Message },
    userStopsDraft: ({ chat, draftId }) => {
      const drafts = world.drafts(chat).filter((d) => draftId === undefined || d.draft_id === draftId);
      const draft = drafts.at(-1);
      if (!draft) throw new Error(`fake Telegram: userStopsDraft: chat ${chat} has no draft ${draftId ?? ''}`.trim());
      if (!draft.can_stop)
        throw new Error(
          `fake Telegram: userStopsDraft: draft ${draft.draft_id} was sent without can_stop (no stop button)`,
        );
      const privateChat = world.chatInfo(chat) ?? { id: chat, type: 'private', first_name: `User${chat}` };
      return queue.push({
        stopped_message_generation: { chat: privateChat, draft_id: draft.draft_id },
      } as Omit<Update, 'update_id'>) as ReturnType<FakeTelegram['userStopsDraft']>;
    },
    pressButton: ({ chat, messageId, data, from }) => {
      const message = world.message(chat, messageId);
      if (!message) throw new Error(`pressButton: chat ${chat} has no message ${messageId}`);
      const id = `CB${nextCallback++}`;
      world.callbackQueries.set(id, { answered: false });
      const callback_query = {
        id,
        from: toUser(from ?? (chat > 0 ? chat : 1001)),
        message,
        chat_instance: `CI${chat}`,
        data,
      } as CallbackQuery;
      return queue.push({ callback_query } as Omit<Update, 'update_id'>) as Update & { callback_query: CallbackQuery };
    },
    createForum: (setup) => {
      const known = world.forums.get(setup.id);
      const forum = forumState(setup);
      if (known) forum.topics = known.topics;
      world.forums.set(setup.id, forum);
      world.changed();
    },
    deleteTopic: (chat, thread) => {
      const topic = requireForum(world.forums, chat, 'deleteTopic').topics.get(thread);
      if (!topic) throw new Error(`fake Telegram: deleteTopic: chat ${chat} has no topic ${thread}`);
      topic.deleted = true;
      world.changed();
    },
    topic: (chat, thread) => {
      const topic = world.forums.get(chat)?.topics.get(thread);
      return topic && { ...topic };
    },
    topics: (chat) => [...(world.forums.get(chat)?.topics.values() ?? [])].map((topic) => ({ ...topic })),
    topicMessages: (chat, thread) =>
      world.messagesOf(chat).filter((m) => m.is_topic_message === true && m.message_thread_id === thread),
    memberWrites: (input) => {
      const forum = requireForum(world.forums, input.chat, 'memberWrites');
      const topic = forum.topics.get(input.thread);
      if (!topic || topic.deleted)
        throw new Error(`fake Telegram: memberWrites: ${THREAD_NOT_FOUND} (${input.thread})`);
      const chat = forumChat(forum) as Extract<UserMessage['chat'], object>;
      return queue.push({
        message: buildUserMessage(world, { ...input, chat, thread: input.thread }),
      } as Omit<Update, 'update_id'>) as Update & { message: Message };
    },
    redeliver: (update) => queue.redeliver(update),
    refuseToken: (refused) => {
      tokenRefused = refused;
    },
    chatLog: (chatId) => world.chatLog(chatId),
    visibleMessages: (chatId) => world.visibleMessages(chatId),
    drafts: (chatId) => world.drafts(chatId),
    chatActions: (chatId) => world.chatActions(chatId),
    globalLog: () => [...world.globalLog],
    callbackAnswer: (queryId) => world.callbackQueries.get(queryId),
    tooManyRequestsCount: () => world.tooManyRequests,
    downloads: () => [...downloads],
    webhookAttempts: () => [...queue.webhookAttempts],
    failNext: (method, failure, times = 1) => failures.add(method, failure, times),
    setRateLimit: (rateLimit) => flood.configure(rateLimit),
    setDraftSupport: (support) => {
      context.draftSupport = support;
    },
    waitFor: (predicate, options) => waitForChange('fake Telegram', world, predicate, options),
    close: async () => {
      queue.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return fake;
}
