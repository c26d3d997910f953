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
import { buildUserMessage, toUser, type UserLike, type UserMessage } from './builders.js';
import type { DraftSupport } from './context.js';
import { FailureScript, FloodControl, type InjectedFailure, type RateLimitOptions } from './limits.js';
import { createFakeTelegramApp } from './server.js';
import { UpdateQueue, type WebhookAttempt } from './updates.js';
import { World, type DraftCall, type FileRef, type LoggedCall, type VisibleMessage } from './world.js';
import { waitForChange } from '../wait-for.js';

export type {
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
  /** A user writes (text, media, album part, reply…); returns the queued update. */
  userSends(message: UserMessage): Update & { message: Message };
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
