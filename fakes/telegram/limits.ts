/**
 * Telegram's flood limits as the bot FAQ states them: about 1 message per
 * second in one chat (a short burst allowed), at most 20 messages per minute
 * in a group, and about 30 messages per second for the whole bot across all
 * chats. Plus scripted failures for tests.
 */

export interface RateLimitOptions {
  /** Messages per second in one chat (default 1). */
  perChatPerSecond?: number;
  /** Messages that may be sent back to back before the per-second limit bites (default 1). */
  burst?: number;
  /** Messages per minute in a group (chat_id < 0; default 20). */
  groupPerMinute?: number;
  /**
   * Messages per second for the whole bot, all chats together (default 30; 0 = no
   * bot-wide limit). A second's worth may go at once, like Telegram's bulk notices.
   */
  perBotPerSecond?: number;
}

export interface InjectedFailure {
  /** HTTP status / error_code: 429, 500, 400, 403… */
  errorCode: number;
  /** For 429: seconds in `parameters.retry_after` (default 1). */
  retryAfter?: number;
  /** Defaults to Telegram's wording for the code. */
  description?: string;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
  minuteWindow: number[];
}

export class FloodControl {
  private readonly buckets = new Map<number, Bucket>();
  /** The bot-wide bucket; `minuteWindow` unused. */
  private bot: Bucket | undefined;
  private settings: Required<RateLimitOptions> | null;

  constructor(
    options: RateLimitOptions | false | undefined,
    private readonly now: () => number,
  ) {
    this.settings = FloodControl.resolve(options);
  }

  private static resolve(options: RateLimitOptions | false | undefined): Required<RateLimitOptions> | null {
    if (options === false) return null;
    return { perChatPerSecond: 1, burst: 1, groupPerMinute: 20, perBotPerSecond: DEFAULT_BOT_PER_SECOND, ...options };
  }

  configure(options: RateLimitOptions | false): void {
    this.settings = FloodControl.resolve(options);
    this.buckets.clear();
    this.bot = undefined;
  }

  /** Takes one message slot in `chatId`, or returns the seconds to wait (Telegram's retry_after). */
  take(chatId: number): { retryAfter: number } | null {
    const s = this.settings;
    if (!s) return null;
    const now = this.now();
    const bucket = this.buckets.get(chatId) ?? { tokens: s.burst, updatedAt: now, minuteWindow: [] };
    this.buckets.set(chatId, bucket);
    bucket.tokens = Math.min(s.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * s.perChatPerSecond);
    bucket.updatedAt = now;
    bucket.minuteWindow = bucket.minuteWindow.filter((t) => now - t < 60_000);
    if (bucket.tokens < 1) {
      return { retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / s.perChatPerSecond)) };
    }
    if (chatId < 0 && bucket.minuteWindow.length >= s.groupPerMinute) {
      const oldest = bucket.minuteWindow[0] ?? now;
      return { retryAfter: Math.max(1, Math.ceil((oldest + 60_000 - now) / 1000)) };
    }
    const botLimited = this.takeBotWide(s, now);
    if (botLimited) return botLimited;
    bucket.tokens -= 1;
    bucket.minuteWindow.push(now);
    return null;
  }

  /** Checks and takes the bot-wide slot (only once the chat's own limits allowed the message, so a refused one costs nothing). */
  private takeBotWide(s: Required<RateLimitOptions>, now: number): { retryAfter: number } | null {
    if (s.perBotPerSecond <= 0) return null;
    const bot = this.bot ?? { tokens: s.perBotPerSecond, updatedAt: now, minuteWindow: [] };
    this.bot = bot;
    bot.tokens = Math.min(s.perBotPerSecond, bot.tokens + ((now - bot.updatedAt) / 1000) * s.perBotPerSecond);
    bot.updatedAt = now;
    if (bot.tokens < 1) return { retryAfter: Math.max(1, Math.ceil((1 - bot.tokens) / s.perBotPerSecond)) };
    bot.tokens -= 1;
    return null;
  }
}

/** Telegram's bulk limit, "about 30 messages per second" per bot (docs/platforms.md §A.2). */
export const DEFAULT_BOT_PER_SECOND = 30;

/** "The next N calls of method M fail like this." */
export class FailureScript {
  private readonly queued = new Map<string, InjectedFailure[]>();

  add(method: string, failure: InjectedFailure, times: number): void {
    const key = method.toLowerCase();
    const list = this.queued.get(key) ?? [];
    for (let n = 0; n < times; n++) list.push(failure);
    this.queued.set(key, list);
  }

  next(method: string): InjectedFailure | undefined {
    return this.queued.get(method.toLowerCase())?.shift();
  }

  clear(): void {
    this.queued.clear();
  }
}

export function describeFailure(failure: InjectedFailure): string {
  if (failure.description) return failure.description;
  switch (failure.errorCode) {
    case 429:
      return `Too Many Requests: retry after ${failure.retryAfter ?? 1}`;
    case 500:
      return 'Internal Server Error';
    case 502:
      return 'Bad Gateway';
    case 403:
      return 'Forbidden: bot was blocked by the user';
    case 400:
      return 'Bad Request: injected failure';
    default:
      return `Error ${failure.errorCode}`;
  }
}
