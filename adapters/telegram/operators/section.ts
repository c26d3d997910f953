/**
 * `bots[].handoff.telegram`: the operators' group, and optionally a bot of their own. The first
 * bot's from HANDOFF_TELEGRAM_CHAT, HANDOFF_TELEGRAM_BOT_TOKEN and HANDOFF_TELEGRAM_API_ROOT.
 */
import { z } from 'zod';
import type { PlatformEnvOverride } from '../../../src/contract.js';

/** A supergroup's id as Telegram gives it (-100…), or a public group's @username. */
const CHAT_PATTERN = /^(-\d{1,19}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

export const operatorDoorSection = z
  .object({
    /** HANDOFF_TELEGRAM_CHAT: the supergroup with topics, e.g. -1001234567890 or @acme_support. */
    chat: z
      .union([
        z.number().int().negative(),
        z.string().regex(CHAT_PATTERN, 'a supergroup id like -1001234567890, or @username'),
      ])
      .transform((chat) => (typeof chat === 'string' && !chat.startsWith('@') ? Number(chat) : chat)),
    /** HANDOFF_TELEGRAM_BOT_TOKEN: a bot of the operators' own; default the bot's own Telegram bot. */
    token: z
      .string()
      .regex(/^\d+:[\w-]+$/, 'a BotFather token like 123456:ABC-DEF…')
      .optional(),
    /** HANDOFF_TELEGRAM_API_ROOT: the Bot API server of that bot; default the bot's own section's, or Telegram's. */
    apiRoot: z.string().url().optional(),
  })
  .strict();

export type OperatorDoorSection = z.infer<typeof operatorDoorSection>;

export const operatorDoorEnv: readonly PlatformEnvOverride[] = [
  { env: 'HANDOFF_TELEGRAM_CHAT', key: 'chat', type: 'string' },
  { env: 'HANDOFF_TELEGRAM_BOT_TOKEN', key: 'token', type: 'string' },
  { env: 'HANDOFF_TELEGRAM_API_ROOT', key: 'apiRoot', type: 'string' },
];
