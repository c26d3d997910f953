import { z } from 'zod';
import type { BotPlatformModule, PlatformModule } from '../contract.js';
import { parseEndpoint } from '../state/index.js';
import { DEFAULT_TOKENS_PER_SECOND } from '../service/engines/pace.js';
import { checkTextOverrides, type TextOverrides } from '../gateway/index.js';

/**
 * The whole configuration (docs/architecture.md). Every setting is documented in
 * config/default.yaml; environment variables override the file (see env.ts). The
 * platform sections of a bot (`bots[].telegram` …) are each platform module's own
 * schema, and so is the top-level setting of a local platform (`console: auto`):
 * buildConfigSchema(platforms) puts them in.
 */

const url = z.string().url();
const positiveInt = z.number().int().positive();

/** `host:port` of a Redis node or Sentinel; the message quotes the value so the operator sees which one is wrong. */
const hostPort = z.string().refine((text) => parseEndpoint(text) !== null, {
  error: (issue) => `${JSON.stringify(issue.input)} is not host:port`,
});

/**
 * Redis topologies other than one URL (src/config/redis.ts). A cluster takes precedence
 * over Sentinel, and either over redisUrl. The credentials and TLS apply to the cluster's
 * nodes or the Sentinel-managed servers (a URL carries its own).
 */
const redisSchema = z
  .object({
    cluster: z
      .object({ nodes: z.array(hostPort).min(1, 'at least one host:port') })
      .strict()
      .optional(),
    sentinels: z.array(hostPort).min(1, 'at least one host:port').optional(),
    /** The name Sentinel monitors the primary under. */
    name: z.string().min(1).optional(),
    username: z.string().min(1).optional(),
    password: z.string().min(1).optional(),
    tls: z.boolean().default(false),
  })
  .strict()
  .superRefine((redis, ctx) => {
    if (redis.sentinels && !redis.cluster && !redis.name) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'required with redis.sentinels: the name Sentinel monitors the primary under (REDIS_SENTINEL_NAME)',
      });
    }
  });

const settingsSeed = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/**
 * A bot's own sentences (README "The gateway's languages"): keys of the gateway's catalogue, flat
 * (`media.sticker: …`) or nested (`media: { sticker: … }`); a key or placeholder the catalogue does
 * not have is refused by name, with the keys it may stand for.
 */
const textOverrides = z
  .record(z.string(), z.unknown())
  .superRefine((raw, ctx) => {
    for (const { key, message } of checkTextOverrides(raw).problems)
      ctx.addIssue({ code: 'custom', path: [key], message });
  })
  .transform((raw): TextOverrides => checkTextOverrides(raw).overrides);

const botSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'lowercase letters, digits, _ and - (max 32)'),
    /** The chatbot's serialNumber at the Chatbot Service; empty = the embedded demo chatbot. */
    serialNumber: z.string().default(''),
    /** Seed of the gateway's mirror of the chatbot's settings (the API has no read endpoint). */
    settings: settingsSeed.default({}),
    /** Handoff trigger phrases; matched case- and accent-insensitively. */
    handoffPhrases: z.array(z.string().min(1)).optional(),
    /** The bot's own sentences, over every language's (the gateway's words otherwise follow AIResponseLanguage). */
    texts: textOverrides.optional(),
  })
  .strict();

const coreSchema = z
  .object({
    port: z.number().int().min(0).max(65535).default(8080),
    // Unset: 127.0.0.1 while the console is open (a local demo), 0.0.0.0 otherwise (webhooks, probes).
    host: z.string().min(1).optional(),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Unset = in-memory state (lost on restart, not shared between replicas). */
    redisUrl: z
      .string()
      .regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL')
      .optional(),
    redis: redisSchema.default({ tls: false }),
    keyPrefix: z.string().default('cb:'),
    upstream: z
      .object({
        /** Unset = the embedded Chatbot Service, run in-process. */
        baseUrl: url.optional(),
        secretKey: z.string().min(1).optional(),
        sessionKey: z.string().min(1).optional(),
        timeoutMs: positiveInt.default(60_000),
        paths: z.record(z.string(), z.string().startsWith('/')).default({}),
        /** Path of the upload's confirm step; unset = skipped. */
        uploadConfirmPath: z.string().startsWith('/').optional(),
      })
      .strict()
      .default({ timeoutMs: 60_000, paths: {} }),
    service: z
      .object({
        secretKey: z.string().min(8).optional(),
        sessionKey: z.string().min(8).optional(),
        seedDemo: z.boolean().default(true),
        engine: z
          .discriminatedUnion('kind', [
            // tokensPerSecond: the builtin engine's streaming pace (default like a hosted model; 0 = instant, for benchmarks).
            z
              .object({
                kind: z.literal('builtin'),
                tokensPerSecond: z.number().min(0).max(10_000).default(DEFAULT_TOKENS_PER_SECOND),
              })
              .strict(),
            z
              .object({
                kind: z.literal('openai'),
                baseUrl: url,
                apiKey: z.string().optional(),
                model: z.string().min(1),
              })
              .strict(),
          ])
          .default({ kind: 'builtin', tokensPerSecond: DEFAULT_TOKENS_PER_SECOND }),
      })
      .strict()
      .default({ seedDemo: true, engine: { kind: 'builtin', tokensPerSecond: DEFAULT_TOKENS_PER_SECOND } }),
    admin: z
      .object({
        /** Bearer token of /admin/...; unset = the admin API is disabled. */
        token: z.string().min(16, 'at least 16 characters').optional(),
        /** Public base URL used in links sent by e-mail (handoff resume links). */
        publicUrl: url.optional(),
      })
      .strict()
      .default({}),
    smtp: z
      .object({
        url: z
          .string()
          .regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL')
          .optional(),
        from: z.string().default('chatbridge <chatbridge@localhost>'),
      })
      .strict()
      .default({ from: 'chatbridge <chatbridge@localhost>' }),
    handoff: z
      .object({
        /** When the service answers noAnswer: offer a "talk to a person" button, hand off at once, or do nothing. */
        onNoAnswer: z.enum(['offer', 'handoff', 'off']).default('offer'),
        /** Upstream failures in a row in one conversation that hand it to a person; 0 = never. */
        failureThreshold: z.number().int().min(0).default(3),
        /** A paused conversation returns to the bot after this long without a hand-back. */
        pauseHours: z.number().positive().default(24),
        /** Lifetime of the signed hand-back link in the e-mail. */
        linkHours: z.number().positive().default(72),
        /**
         * Lifetime of the e-mail's signed link into the inbox (a session for that chatbot's conversations);
         * unset = INBOX_LINK_HOURS (7 days). Optional, not defaulted here, so that a handoff section written
         * in full before the inbox existed still types.
         */
        inboxLinkHours: z.number().positive().optional(),
        /** At most one "the user wrote again" e-mail per pause per this many minutes; 0 = none. */
        followUpMinutes: z.number().min(0).default(15),
        /** HMAC key of hand-back links (HANDOFF_SECRET); unset = generated once and kept in state. */
        secret: z.string().min(16, 'at least 16 characters').optional(),
        /** Default trigger phrases; bots[].handoffPhrases replaces them per bot. */
        phrases: z
          .array(z.string().min(1))
          .default([
            'talk to a human',
            'talk to a person',
            'real person',
            'human agent',
            'agent',
            'operator',
            'speak to someone',
          ]),
      })
      .strict()
      .default({
        onNoAnswer: 'offer',
        failureThreshold: 3,
        pauseHours: 24,
        linkHours: 72,
        followUpMinutes: 15,
        phrases: [
          'talk to a human',
          'talk to a person',
          'real person',
          'human agent',
          'agent',
          'operator',
          'speak to someone',
        ],
      }),
    /** The core's delivery policy (src/gateway/gateway-policy.ts); unset fields keep its defaults. */
    gateway: z
      .object({
        platformOutageHorizonMs: z.number().int().min(0).optional(),
        upstreamOutageHorizonMs: z.number().int().min(0).optional(),
        /** How long a webhook may take to queue its messages before it is answered 503 and the platform retries (default 2 s). */
        webhookAcceptMs: positiveInt.optional(),
        /** Most answers one process writes at once; the rest wait their turn, queued (default 256). */
        maxAnswersInFlight: positiveInt.optional(),
        lockTtlMs: positiveInt.optional(),
        heartbeatMs: positiveInt.optional(),
        sweepIntervalMs: positiveInt.optional(),
        /**
         * On SIGTERM, how long answers in progress may finish before they are cut off and handed over
         * (CHATBRIDGE_SHUTDOWN_GRACE_MS; default 25 s, under Kubernetes' 30 s terminationGracePeriodSeconds).
         */
        stopGraceMs: z.number().int().min(0).optional(),
        /** A conversation silent this long gets a new service session at its next message (default 90 days). */
        sessionIdleTtlMs: positiveInt.optional(),
        /** Messages of one user within this long of each other are answered as one question (default 1.5 s; 0 = off). */
        burstMs: z.number().int().min(0).optional(),
        /** Longest wait for a burst that keeps growing, from its first message (default 6 s). */
        burstMaxWaitMs: z.number().int().min(0).optional(),
        /** Characters of a quoted message sent with a reply as its context (default 500). */
        quoteMaxChars: positiveInt.optional(),
        /**
         * Transcript entries packed together into one compressed chunk once written (default 8; 0 = never, e.g. while
         * replicas older than the packing still run: they read unpacked entries only).
         */
        transcriptPackEntries: z.number().int().min(0).optional(),
      })
      .strict()
      .default({}),
    /** The one HTTP server (src/http/server.ts). */
    http: z
      .object({
        /**
         * Express `trust proxy` (TRUST_PROXY): whether X-Forwarded-Proto / X-Forwarded-For are believed
         * (the inbox cookie's Secure flag, the sign-in rate limit's client address). false (default):
         * only the connection counts. true: every proxy; a number: that many hops; a string: express's
         * list of trusted addresses or subnets ("loopback", "10.0.0.0/8").
         */
        trustProxy: z
          .preprocess(trustProxyFromText, z.union([z.boolean(), z.number().int().min(0), z.string().min(1)]))
          .default(false),
      })
      .strict()
      .default({ trustProxy: false }),
    /** The operator inbox at /inbox (on only with admin.token). */
    inbox: z
      .object({
        /** A signed-in operator's session lasts this long. */
        sessionHours: z
          .number()
          .positive()
          .max(24 * 31)
          .default(12),
        /**
         * Whether the sign-in form takes the admin token (INBOX_TOKEN_SIGN_IN). true (default): the break-glass way in,
         * and the only one before operator accounts existed; false once every operator has an account: the inbox is
         * then signed in to by e-mail link only, and the admin token opens the admin API and the CLI alone.
         */
        tokenSignIn: z.boolean().default(true),
        /** How long an e-mailed sign-in link works (it works once, in the browser that asked for it). */
        signInLinkMinutes: z.number().int().min(1).max(60).default(15),
      })
      .strict()
      .default({ sessionHours: 12, tokenSignIn: true, signInLinkMinutes: 15 }),
    /** The day's chat logs and leads (EmailForDailyChatLogs, EmailForDailyLeads). */
    digests: z
      .object({
        /** The hour (0–23, in each chatbot's TimeZone) the previous day's digests are sent at. */
        hour: z.number().int().min(0).max(23).default(8),
      })
      .strict()
      .default({ hour: 8 }),
    media: z
      .object({
        ffmpegPath: z.string().default('ffmpeg'),
      })
      .strict()
      .default({ ffmpegPath: 'ffmpeg' }),
    bots: z
      .array(botSchema)
      .min(1)
      .default([{ id: 'main', serialNumber: '', settings: {} }]),
  })
  .strict();

/** TRUST_PROXY arrives as text: "true"/"false" and hop counts become what express takes; anything else is express's address list. */
function trustProxyFromText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(text)) return true;
  if (['false', 'no', 'off', ''].includes(text)) return false;
  return /^\d+$/.test(text) ? Number(text) : value.trim();
}

/** Where a bot's operator doors are configured: `bots[].handoff.<platform name>` (OperatorDoorModule). */
export const DOORS_KEY = 'handoff';

/** Keys of a bot that are the core's; a platform cannot be named like one. */
const BOT_KEYS = new Set([...Object.keys(botSchema.shape), DOORS_KEY]);

/** Where the parsed settings of the local platforms go (Config.localPlatforms): no top-level setting or local platform may be named so. */
const LOCAL_SETTINGS_KEY = 'localPlatforms';

/** Top-level keys that are the core's; a local platform cannot be named like one. */
const CORE_KEYS = new Set([...Object.keys(coreSchema.shape), LOCAL_SETTINGS_KEY]);

/** A bot: the core's settings, and one section per platform it runs (parsed by that platform's schema; the core does not look inside). */
export type BotConfig = z.infer<typeof botSchema> & { readonly [platform: string]: unknown };
export type Config = Omit<z.infer<typeof coreSchema>, 'bots'> & {
  bots: BotConfig[];
  /** Each local platform's setting by its name (`console: auto` → `{ console: 'auto' }`), parsed by its module's schema. */
  localPlatforms: Readonly<Record<string, unknown>>;
};

/** A bot's section of one operator door (`bots[].handoff.<platform name>`), when it has one. */
export function doorSectionOf(bot: BotConfig, platform: BotPlatformModule): unknown {
  const doors = bot[DOORS_KEY];
  return doors && typeof doors === 'object' ? (doors as Record<string, unknown>)[platform.name] : undefined;
}

/** Where a platform's section is in `bots[]`: its `sectionKey`, or its name. */
export function sectionKeyOf(platform: BotPlatformModule): string {
  return platform.sectionKey ?? platform.name;
}

/**
 * The configuration's schema with a `bots[].<name>` section for each platform module given,
 * and a top-level setting for each local one (gathered under Config.localPlatforms).
 */
export function buildConfigSchema(platforms: readonly PlatformModule[]): z.ZodType<Config> {
  const sections: Record<string, z.ZodOptional<z.ZodType>> = {};
  const doors: Record<string, z.ZodOptional<z.ZodType>> = {};
  const localSettings: Record<string, z.ZodType> = {};
  const names = new Set<string>();
  for (const platform of platforms) {
    const taken = platform.kind === 'local' ? CORE_KEYS : BOT_KEYS;
    const key = platform.kind === 'local' ? platform.name : sectionKeyOf(platform);
    if (taken.has(key) || names.has(key)) {
      throw new Error(
        `The platform module "${platform.name}" clashes with a setting or another platform of that name; give it another name.`,
      );
    }
    names.add(key);
    if (platform.kind === 'local') localSettings[platform.name] = platform.setting;
    else {
      sections[key] = platform.configSection.optional();
      if (platform.operatorDoor) doors[platform.name] = platform.operatorDoor.configSection.optional();
    }
  }
  const bot = botSchema.extend({ ...sections, [DOORS_KEY]: z.object(doors).strict().optional() }).strict();
  const schema = coreSchema
    .extend({
      bots: z
        .array(bot)
        .min(1)
        .default([{ id: 'main', serialNumber: '', settings: {} }]),
      ...localSettings,
    })
    .strict();
  return schema.transform((parsed) => {
    const core: Record<string, unknown> = { ...parsed };
    const localPlatforms: Record<string, unknown> = {};
    for (const name of Object.keys(localSettings)) {
      localPlatforms[name] = core[name];
      delete core[name];
    }
    return { ...core, [LOCAL_SETTINGS_KEY]: localPlatforms };
    // The sections and settings are known only at run time, so zod infers them as an index
    // signature of unknowns: exactly BotConfig's and localPlatforms'. The cast only restates that.
  }) as unknown as z.ZodType<Config>;
}
