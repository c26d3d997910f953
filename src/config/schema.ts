import { z } from 'zod';

/**
 * The whole configuration (DESIGN.md §7). Every setting is documented in
 * config/default.yaml; environment variables override the file (see env.ts).
 */

const url = z.string().url();
const positiveInt = z.number().int().positive();

const telegramSchema = z.object({
  token: z.string().regex(/^\d+:[\w-]+$/, 'a BotFather token like 123456:ABC-DEF…'),
  /** A local Bot API server (also lifts the 20 MB download limit). */
  apiRoot: url.optional(),
  localApi: z.boolean().default(false),
  mode: z.enum(['polling', 'webhook']).default('polling'),
  /** 1–256 characters of A-Z a-z 0-9 _ - (Telegram's rule for secret_token). */
  webhookSecret: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, '1–256 characters of A-Z, a-z, 0-9, _ and -').optional(),
  /** Public HTTPS base URL of this gateway; the webhook is <webhookPublicUrl>/telegram/<bot id>. */
  webhookPublicUrl: url.optional(),
}).strict();

const slackSchema = z.object({
  botToken: z.string().startsWith('xoxb-', 'a bot token starting with xoxb-'),
  appToken: z.string().startsWith('xapp-', 'an app-level token starting with xapp-').optional(),
  signingSecret: z.string().min(1).optional(),
  apiUrl: url.optional(),
}).strict();

const whatsappSchema = z.object({
  enabled: z.boolean().default(false),
  chromiumPath: z.string().default('/usr/bin/chromium'),
}).strict();

const settingsSeed = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

const botSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'lowercase letters, digits, _ and - (max 32)'),
  /** The chatbot's serialNumber at the Chatbot Service; empty = the embedded demo chatbot. */
  serialNumber: z.string().default(''),
  /** Seed of the gateway's mirror of the chatbot's settings (the API has no read endpoint). */
  settings: settingsSeed.default({}),
  telegram: telegramSchema.optional(),
  slack: slackSchema.optional(),
  whatsapp: whatsappSchema.optional(),
  /** Handoff trigger phrases; matched case- and accent-insensitively. */
  handoffPhrases: z.array(z.string().min(1)).optional(),
}).strict();

export const configSchema = z.object({
  port: z.number().int().min(0).max(65535).default(8080),
  host: z.string().default('0.0.0.0'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Unset = in-memory state (lost on restart, not shared between replicas). */
  redisUrl: z.string().regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL').optional(),
  keyPrefix: z.string().default('cb:'),
  upstream: z.object({
    /** Unset = the embedded Chatbot Service, run in-process. */
    baseUrl: url.optional(),
    secretKey: z.string().min(1).optional(),
    sessionKey: z.string().min(1).optional(),
    timeoutMs: positiveInt.default(60_000),
    paths: z.record(z.string(), z.string().startsWith('/')).default({}),
    /** Path of the upload's confirm step; unset = skipped. */
    uploadConfirmPath: z.string().startsWith('/').optional(),
  }).strict().default({ timeoutMs: 60_000, paths: {} }),
  service: z.object({
    secretKey: z.string().min(8).optional(),
    sessionKey: z.string().min(8).optional(),
    seedDemo: z.boolean().default(true),
    engine: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('builtin') }).strict(),
      z.object({ kind: z.literal('openai'), baseUrl: url, apiKey: z.string().optional(), model: z.string().min(1) }).strict(),
    ]).default({ kind: 'builtin' }),
  }).strict().default({ seedDemo: true, engine: { kind: 'builtin' } }),
  admin: z.object({
    /** Bearer token of /admin/...; unset = the admin API is disabled. */
    token: z.string().min(16, 'at least 16 characters').optional(),
    /** Public base URL used in links sent by e-mail (handoff resume links). */
    publicUrl: url.optional(),
  }).strict().default({}),
  smtp: z.object({
    url: z.string().regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL').optional(),
    from: z.string().default('chatbridge <chatbridge@localhost>'),
  }).strict().default({ from: 'chatbridge <chatbridge@localhost>' }),
  handoff: z.object({
    /** When the service answers noAnswer: offer a "talk to a person" button, hand off at once, or do nothing. */
    onNoAnswer: z.enum(['offer', 'handoff', 'off']).default('offer'),
    /** Upstream failures in a row in one conversation that hand it to a person; 0 = never. */
    failureThreshold: z.number().int().min(0).default(3),
    /** A paused conversation returns to the bot after this long without a hand-back. */
    pauseHours: z.number().positive().default(24),
    /** Lifetime of the signed hand-back link in the e-mail. */
    linkHours: z.number().positive().default(72),
    /** At most one "the user wrote again" e-mail per pause per this many minutes; 0 = none. */
    followUpMinutes: z.number().min(0).default(15),
    /** HMAC key of hand-back links (HANDOFF_SECRET); unset = generated once and kept in state. */
    secret: z.string().min(16, 'at least 16 characters').optional(),
    /** Default trigger phrases; bots[].handoffPhrases replaces them per bot. */
    phrases: z.array(z.string().min(1)).default(['talk to a human', 'talk to a person', 'real person', 'human agent', 'agent', 'operator', 'speak to someone']),
  }).strict().default({ onNoAnswer: 'offer', failureThreshold: 3, pauseHours: 24, linkHours: 72, followUpMinutes: 15, phrases: ['talk to a human', 'talk to a person', 'real person', 'human agent', 'agent', 'operator', 'speak to someone'] }),
  media: z.object({
    ffmpegPath: z.string().default('ffmpeg'),
  }).strict().default({ ffmpegPath: 'ffmpeg' }),
  /** Console adapter: auto = on when stdin is a terminal and no platform is configured. */
  console: z.enum(['auto', 'on', 'off']).default('auto'),
  bots: z.array(botSchema).min(1).default([{ id: 'main', serialNumber: '', settings: {} }]),
}).strict();

export type Config = z.infer<typeof configSchema>;
export type BotConfig = Config['bots'][number];
