/**
 * The adapter contract, second part: platform modules (re-exported by src/contract.ts, the
 * one file adapters import; this part depends on the first, src/contract/adapter.ts, never
 * the other way round). What each adapters/<platform>/module.ts exports, and the runtime
 * iterates over (adapters/index.ts lists them).
 */
import type { z } from 'zod';
import type { Adapter, ConversationRef } from './adapter.js';
import type { OperatorDoor } from './operator-door.js';
import type { Logger } from '../logger.js';

// ---- Platform modules: what each adapters/<platform>/module.ts exports, and the runtime
// iterates over (adapters/index.ts lists them). The core knows no platform: the config
// schema, the environment overrides, the adapters built, the HTTP routes mounted, doctor's
// checks and the admin API's id check all come from the modules it is given.

/** An environment variable that sets one key of the platform's section of the first bot (`bots[0].<platform>.<key>`). */
export interface PlatformEnvOverride {
  /** e.g. TELEGRAM_BOT_TOKEN. Named in the error when its value is refused. */
  env: string;
  /** The key in the platform's section, e.g. `token`. */
  key: string;
  /** How the text is coerced before validation; a value that cannot be coerced stays text, so validation names it. */
  type: 'string' | 'int' | 'bool';
}

/**
 * Durable state of an adapter itself, shared by every gateway process of the deployment
 * (Redis; in memory when REDIS_URL is unset): what a platform needs to keep that is not a
 * conversation (WhatsApp's linked-device session, the lease of the one process that runs
 * its browser). Keys are the adapter's own; the runtime scopes them to its platform and bot.
 */
export interface PlatformStorage {
  /** Binary-safe: the bytes come back as they were stored. */
  getBytes(key: string): Promise<Uint8Array | null>;
  /** With `ttlMs` the key goes after that long, unless renewed. */
  setBytes(key: string, value: Uint8Array, options?: { ttlMs?: number }): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Gives an existing key a new lifetime of `ttlMs`; false when there is no such key (so it also answers exists()). */
  renew(key: string, ttlMs: number): Promise<boolean>;
  /**
   * How long the gateway keeps what it knows of a quiet conversation (gateway.sessionIdleTtlMs,
   * default 90 days): an adapter's state about one conversation should go with it.
   */
  readonly conversationIdleTtlMs: number;
  delete(key: string): Promise<void>;
  /** Takes the named lease when nobody holds it: resolves its token, or null when another process holds it. */
  acquireLease(name: string, ttlMs: number): Promise<string | null>;
  /** Extends a lease this token still holds; false when it was lost (expired and taken). */
  renewLease(name: string, token: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up at once (so another process can take over without waiting for it to expire). */
  releaseLease(name: string, token: string): Promise<void>;
}

/** What an adapter counts that only its platform sees, for the gateway's metrics (/metrics), already bound to its platform and bot. */
export interface PlatformMetrics {
  /**
   * The platform took a message and reported later that it was not delivered (WhatsApp
   * Cloud's `failed` status), by the platform's own error code.
   */
  deliveryFailed(code: string): void;
}

/** What a platform's factory gets besides its config section. */
export interface PlatformContext {
  /** The configured bot id (`bots[].id`). */
  bot: string;
  /** Already bound to `{ platform, bot }`. */
  logger: Logger;
  /** This platform's and bot's own durable state. */
  storage: PlatformStorage;
  /** Counters of this platform and bot; absent where nothing is counted (a test, doctor). */
  metrics?: PlatformMetrics;
}

/** Where the secrets of a section are, so that no log line shows them. */
export interface PlatformSecrets {
  /** Values redacted as they are (tokens, signing secrets). */
  values?: (string | undefined)[];
  /** URLs whose password (user info) is a secret; the rest of the URL stays readable. */
  urls?: (string | undefined)[];
}

/**
 * One platform, as one folder exports it: a platform bots are configured for (Telegram, Slack,
 * WhatsApp: a section in `bots[]`), or a local one (the console: a setting of its own). The
 * runtime, the config loader and doctor iterate over one list of both kinds.
 */
export type PlatformModule<Section = unknown> = BotPlatformModule<Section> | LocalPlatformModule<Section>;

/**
 * A platform bots are configured for. `Section` is the parsed `bots[].<name>` section.
 * Methods (not function properties) so that a list of modules of different sections type-checks.
 */
export interface BotPlatformModule<Section = unknown> {
  /** Optional: a module without a kind is one of this kind. */
  readonly kind?: 'bot';
  /** The adapter's `platform`, and the key of its section in `bots[]` unless `sectionKey` says otherwise, e.g. "telegram". */
  readonly name: string;
  /**
   * The key of its section in `bots[]` when it is not `name`: a platform id written with a dash
   * (`whatsapp-cloud`, as in conversation ids and routes) has its section in camel case
   * (`bots[].whatsappCloud`), like the other keys of the configuration.
   */
  readonly sectionKey?: string;
  /** The platform's name in words, for people ("WhatsApp" for `whatsapp-cloud`): operators' cards, topic names. */
  readonly displayName?: string;
  /** The zod schema of `bots[].<sectionKey or name>` (strict: a typo is refused with its path). */
  readonly configSection: z.ZodType<Section>;
  /** Environment variables that override keys of the first bot's section. */
  readonly env: readonly PlatformEnvOverride[];
  /**
   * The shape of its conversation ids, when it has a fixed one: the admin API refuses an id
   * that cannot be one (a 400 saying what is expected, instead of a failed platform call).
   */
  readonly conversationId?: { pattern: RegExp; expected: string };
  /** Whether a bot whose section is present runs this platform (e.g. WhatsApp: `enabled`). */
  isConfigured(section: Section): boolean;
  /** One adapter for one bot; undefined when this build cannot serve the platform (it says so in the log). */
  create(section: Section, context: PlatformContext): Adapter | undefined;
  /** `chatbridge doctor`: checks the credentials; resolves to what it found, rejects with what to fix. */
  doctor?(section: Section, bot: string): Promise<string>;
  secrets?(section: Section): PlatformSecrets;
  /**
   * Where the operators of a bot's handoffs can answer on this platform (`bots[].handoff.<name>`):
   * a Slack channel, a Telegram forum. Absent: the platform offers no door.
   */
  readonly operatorDoor?: OperatorDoorModule<Section>;
}

// ---- Operator doors: a platform where operators answer handed-over conversations, whatever
// platform the user is on (src/contract/operator-door.ts). Configured per bot in
// `bots[].handoff.<platform name>`; the door may share the bot's own app or bot on that platform.

/** What a door's factory gets: a platform context, and the bot's own presence on the door's platform. */
export interface OperatorDoorContext<Section = unknown> extends PlatformContext {
  /**
   * The bot's own section of this platform and the adapter built from it, when it runs this
   * platform for its users: a door without credentials of its own uses that app or bot, and takes
   * its events of the operators' chat from that adapter (Slack sends an app's events to one URL).
   */
  own?: { section: Section; adapter?: Adapter };
}

/**
 * A platform's operator door, as its module declares it. `DoorSection` is the parsed
 * `bots[].handoff.<platform name>` section. Methods, so that modules of different sections type-check in one list.
 */
export interface OperatorDoorModule<Section = unknown, DoorSection = unknown> {
  /** The zod schema of `bots[].handoff.<platform name>` (strict). */
  readonly configSection: z.ZodType<DoorSection>;
  /** Environment variables that set keys of the first bot's door section, e.g. HANDOFF_SLACK_CHANNEL → `channel`. */
  readonly env: readonly PlatformEnvOverride[];
  /**
   * One door for one bot; undefined when it cannot run (it says why in the log, naming the setting).
   * Throws an Error naming the setting when the section cannot work at all (no credentials anywhere).
   */
  create(door: DoorSection, context: OperatorDoorContext<Section>): OperatorDoor | undefined;
  /** `chatbridge doctor`: the door's credentials, chat and rights; resolves to what it found, rejects naming what to fix. */
  doctor?(door: DoorSection, own: Section | undefined, bot: string): Promise<string>;
  secrets?(door: DoorSection): PlatformSecrets;
}

// ---- Local platforms: the console. A local platform serves the person who started the
// gateway, on this machine, for the first bot. It has no section in `bots[]` but one top-level
// setting of its own (`console: auto | on | off`), and its module decides whether it opens.

/**
 * What a local platform may ask of the gateway about its own conversations: the runtime
 * provides it (an adapter never reads the gateway's state). The person at the terminal is
 * also the operator, so the platform may hand its conversation back to the bot.
 * Answered once the adapter is started (the gateway exists then).
 */
export interface GatewayHost {
  /** Whether every message accepted from the conversation is answered (none left in its queue). */
  answered(conversation: ConversationRef): Promise<boolean>;
  /** Whether the conversation is with a person (handed off, the bot quiet). */
  withPerson(conversation: ConversationRef): Promise<boolean>;
  /** Hands the conversation back to the bot (the gateway tells the user); false when it was not with a person. */
  resume(conversation: ConversationRef): Promise<boolean>;
}

/** What a local platform's factory gets: a platform's context (for the first bot), and the gateway around it. */
export interface LocalPlatformContext extends PlatformContext {
  readonly host: GatewayHost;
  /** The person closed it (Ctrl-D, :quit) and its messages are answered: the gateway stops. */
  closed(): void;
  /** Where the gateway's log goes while a local platform is open (not on the terminal), to name it there. */
  readonly logFile?: string;
}

/** What a local platform's opening depends on besides its setting. */
export interface LocalSituation {
  /** Whether stdin is a terminal: a person is there to type. */
  readonly stdinIsTTY: boolean;
  /** Whether any bot is configured for a platform of `bots[]`. */
  readonly platformConfigured: boolean;
}

/** Whether a local platform opens; when it stays closed, `notice` tells the person who started the gateway why (on stderr). */
export type LocalOpening = { open: true } | { open: false; notice?: string };

/** A local platform, as its folder exports it. `Setting` is its parsed top-level setting. */
export interface LocalPlatformModule<Setting = unknown> {
  readonly kind: 'local';
  /** The adapter's `platform`, and the key of its setting at the top of the configuration, e.g. "console". */
  readonly name: string;
  /** The platform's name in words, for people ("the console"). */
  readonly displayName?: string;
  /** The zod schema of its setting, with its default (its value when the file does not name it). */
  readonly setting: z.ZodType<Setting>;
  /** The environment variable that sets it, e.g. CHATBRIDGE_CONSOLE. */
  readonly env?: Omit<PlatformEnvOverride, 'key'>;
  /** The shape of its conversation ids (as for a platform of `bots[]`). */
  readonly conversationId?: { pattern: RegExp; expected: string };
  /** Decided when the gateway starts, before the log is set up (a platform that takes the terminal sends it to a file). */
  opens(setting: Setting, situation: LocalSituation): LocalOpening;
  create(setting: Setting, context: LocalPlatformContext): Adapter;
}
