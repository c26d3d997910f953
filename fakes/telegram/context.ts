/** What every fake Bot API method can see, and how it reports an API error. */
import type { UserFromGetMe } from 'grammy/types';
import type { FloodControl } from './limits.js';
import type { Params } from './params.js';
import type { UpdateQueue } from './updates.js';
import type { World } from './world.js';

/** How the fake answers sendMessageDraft. */
export type DraftSupport =
  /** Bot API ≥ 9.3: drafts work in private chats. */
  | 'supported'
  /** The method exists but this bot/chat may not use it (400), as early 9.3 servers did without topics. */
  | 'refused'
  /** A server older than 9.3: the method does not exist (404 Not Found). */
  | 'unknown-method';

export interface MethodContext {
  world: World;
  queue: UpdateQueue;
  flood: FloodControl;
  botUser: UserFromGetMe;
  localServer: boolean;
  draftSupport: DraftSupport;
  signal: AbortSignal;
}

export interface MethodOutcome {
  result: unknown;
  visibleText?: string;
  messageId?: number;
}

export type MethodHandler = (ctx: MethodContext, params: Params) => MethodOutcome | Promise<MethodOutcome>;

/** An error answer: `{ok:false, error_code, description, parameters?}`. */
export class ApiError extends Error {
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
  ) {
    super(description);
  }
}

/** Telegram's limit on one message: 4096 characters after entity parsing. */
export const MAX_MESSAGE_LENGTH = 4096;
export const MAX_CAPTION_LENGTH = 1024;
/** getFile refuses bigger files on the public Bot API server. */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

/** Counts one message against the chat's flood limits, or answers 429. */
export function takeMessageSlot(ctx: MethodContext, chatId: number): void {
  const limited = ctx.flood.take(chatId);
  if (limited) {
    throw new ApiError(429, `Too Many Requests: retry after ${limited.retryAfter}`, {
      retry_after: limited.retryAfter,
    });
  }
}
