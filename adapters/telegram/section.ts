/** `bots[].telegram`: one bot's Telegram credentials and how it receives updates (TELEGRAM_* for the first bot). */
import { z } from 'zod';

export const telegramSection = z
  .object({
    token: z.string().regex(/^\d+:[\w-]+$/, 'a BotFather token like 123456:ABC-DEF…'),
    /** A local Bot API server (also lifts the 20 MB download limit). */
    apiRoot: z.string().url().optional(),
    localApi: z.boolean().default(false),
    mode: z.enum(['polling', 'webhook']).default('polling'),
    /** 1–256 characters of A-Z a-z 0-9 _ - (Telegram's rule for secret_token). */
    webhookSecret: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,256}$/, '1–256 characters of A-Z, a-z, 0-9, _ and -')
      .optional(),
    /** Public HTTPS base URL of this gateway; the webhook is <webhookPublicUrl>/telegram/<bot id>. */
    webhookPublicUrl: z.string().url().optional(),
    /**
     * Bot-wide pace of messages (pacing.ts), default Telegram's 30/s. Only for a Bot API
     * without that limit: a fake in benchmarks (bench/peers), a test server.
     */
    messagesPerSecond: z.number().int().positive().optional(),
  })
  .strict();

export type TelegramSection = z.infer<typeof telegramSection>;
