/**
 * The seam between the platform-neutral core and the platform adapters
 * (DESIGN.md §2). The core never imports a platform library; an adapter never
 * calls the upstream. Everything a platform can or cannot do is declared once in
 * its `Capabilities`, and the core decides from that.
 */

/** A conversation on one platform for one configured bot. Stable across restarts. */
export interface ConversationRef {
  /** Configured bot id (config `bots[].id`), e.g. "main". */
  bot: string;
  /** Adapter name, e.g. "telegram", "slack", "whatsapp", "console". */
  platform: string;
  /**
   * Platform-specific conversation id, opaque to the core. One service session per
   * conversation: a Telegram private chat, a Slack DM or thread, a WhatsApp chat.
   * (Groups: the adapter decides; Telegram isolates by chat, Slack by thread.)
   */
  id: string;
}

export interface PlatformUser {
  id: string;
  /** Display name, for transcripts and handoff e-mails. */
  name?: string;
  /** @handle / username, when the platform has one. */
  handle?: string;
}

export type AttachmentKind = 'image' | 'voice' | 'audio' | 'video' | 'document' | 'sticker' | 'other';

/**
 * An attachment as the platform announced it. Bytes are fetched lazily by the
 * core (after the policy check), through `fetch`, which must refuse to read more
 * than `maxBytes`.
 */
export interface InboundAttachment {
  kind: AttachmentKind;
  /** Declared size in bytes when the platform tells it before download. */
  size?: number;
  /** Declared MIME type; never trusted for the format decision (bytes are sniffed). */
  mimeType?: string;
  fileName?: string;
  /** Duration in seconds for audio/video when known. */
  durationSeconds?: number;
  /**
   * Downloads the bytes. Throws `AttachmentTooLargeError` when the file is larger
   * than `maxBytes` (checked before or while downloading, never after reading it all),
   * or `AttachmentUnavailableError` when the platform cannot give it to us (e.g.
   * Telegram's 20 MB getFile limit).
   */
  fetch(options: { maxBytes: number; signal?: AbortSignal }): Promise<Uint8Array>;
  /**
   * A durable, JSON-safe reference to the file (e.g. Telegram's file_id), kept with the
   * queued message so that another gateway process (after a crash, or behind a load
   * balancer) can get the bytes again through `Adapter.restoreAttachment`.
   */
  ref?: string;
}

/** One message from a user, normalized by an adapter. */
export interface Inbound {
  conversation: ConversationRef;
  user: PlatformUser;
  /** Text or caption; empty string when the message is only media. */
  text: string;
  attachments: InboundAttachment[];
  isGroup: boolean;
  /** In a group: the bot was mentioned, replied to, or commanded. Always true in private chats. */
  addressed: boolean;
  /** Platform message id; with the conversation, the dedupe key of a redelivered update. */
  platformMessageId: string;
  /** When the platform says the message was sent (ms since epoch). */
  sentAt: number;
  /** A button press (callback/interaction) rather than typed text, with its payload. */
  action?: { id: string; value: string };
}

export type TextFormat = 'telegram-html' | 'slack-mrkdwn' | 'whatsapp' | 'plain';

export interface Capabilities {
  /** Maximum characters of one message as the platform counts them (after entity parsing). */
  maxMessageLength: number;
  /** The one text format the adapter sends (Markdown is rendered to it by the core). */
  format: TextFormat;
  /** Can edit a message it sent. */
  canEdit: boolean;
  /** Minimum interval between two updates of one streaming message, per chat kind (ms). */
  editIntervalMs: { private: number; group: number };
  /** Ephemeral drafts (Telegram `sendMessageDraft`), private chats only. */
  drafts: boolean;
  /** Native streaming (Slack chat.startStream/appendStream/stopStream). */
  nativeStreaming: boolean;
  /** How long a typing indicator lasts once sent (ms); the core refreshes before it expires. 0 = none. */
  typingLifetimeMs: number;
  /** Can attach buttons (inline keyboard, Block Kit actions). */
  buttons: boolean;
  /** Maximum files accepted in one message, 1 when albums are not a thing. */
  maxFilesPerMessage: number;
  /** Largest file the platform lets the bot download (bytes). */
  maxDownloadBytes: number;
}

export interface Button {
  /** Shown to the user. */
  label: string;
  /** Delivered back as `Inbound.action.value` when pressed (keep ≤ 64 bytes for Telegram). */
  value: string;
}

export interface OutboundMessage {
  /** Already rendered in `capabilities.format` and within `maxMessageLength`. */
  text: string;
  buttons?: Button[];
  /** Suggested replies shown as a reply keyboard, where the platform has one. */
  suggestions?: string[];
  /** Placeholder for the user's input field, where the platform has one. */
  inputPlaceholder?: string;
  /**
   * An intermediate render of an answer still being written. Under load a platform may
   * refuse it at once (PlatformError 'rate-limited'): newer text follows anyway. Anything
   * else (a final answer, a reply) must be delivered, waiting for its turn if need be.
   */
  progress?: boolean;
}

/** A handle to a message the adapter sent, to edit it later. */
export interface SentMessage {
  id: string;
}

/** What the platform said when it refused a call; the core reacts to these kinds only. */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly kind: 'rate-limited' | 'too-long' | 'bad-format' | 'not-modified' | 'not-found' | 'unsupported' | 'other',
    /** For rate-limited: how long the platform asks us to wait. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PlatformError';
  }
}

/** A native stream (Slack chatStream): append rendered text, then stop with the final text. */
export interface NativeStream {
  append(text: string): Promise<void>;
  stop(finalText: string): Promise<void>;
}

/** Everything the core can ask a platform to do in one conversation. */
export interface Outbound {
  send(conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage>;
  /** Required when `capabilities.canEdit`. */
  edit?(conversation: ConversationRef, message: SentMessage, text: string, options?: { buttons?: Button[]; progress?: boolean }): Promise<void>;
  /** Required when `capabilities.drafts`: an ephemeral preview of the answer being written. */
  draft?(conversation: ConversationRef, draftId: number, text: string): Promise<void>;
  /** Required when `capabilities.nativeStreaming`. */
  startStream?(conversation: ConversationRef, initialText: string): Promise<NativeStream>;
  /** Shows "typing…" (or a status line) until it expires or the next message. */
  typing?(conversation: ConversationRef): Promise<void>;
}

/** The core's entry point, handed to an adapter when it starts. */
export interface InboundSink {
  /** Accepts a message; resolves once it is durably queued (not answered). */
  accept(message: Inbound): Promise<void>;
}

export interface Adapter {
  /** "telegram", "slack", "whatsapp", "console". */
  readonly platform: string;
  /** The configured bot this adapter instance serves. */
  readonly bot: string;
  readonly capabilities: Capabilities;
  readonly outbound: Outbound;
  /** Per-conversation capability overrides (e.g. no drafts in a Telegram group). */
  capabilitiesFor?(conversation: ConversationRef, isGroup: boolean): Capabilities;
  /**
   * Connects (polling, socket, browser) and starts delivering Inbound messages to the sink.
   * `commands` are the ones the core answers, for platforms that show a command menu.
   */
  start(sink: InboundSink, info?: { commands: { name: string; description: string }[] }): Promise<void>;
  stop(): Promise<void>;
  /** Turns an `InboundAttachment.ref` back into a fetchable attachment (in any process serving this bot). */
  restoreAttachment?(ref: string, info: Omit<InboundAttachment, 'fetch' | 'ref'>): InboundAttachment;
}
