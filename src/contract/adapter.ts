/**
 * The adapter contract: the one file a platform adapter imports from the
 * project (docs/architecture.md, "The adapter contract"). The core never imports
 * a platform library; an adapter never calls the upstream. Everything a platform
 * can or cannot do is declared once: by the optional methods of its `Outbound`
 * (edit, draft, native stream) and the numbers of its `Capabilities`, and the core
 * decides from those.
 */
import type { RequestHandler } from 'express';
import type { MarkupRenderer } from './markup.js';

export type { Logger } from '../logger.js';

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
  /**
   * The workspace or team the user belongs to, where the platform has one (Slack's team id):
   * a native stream names its recipient by user and team outside DMs.
   */
  team?: string;
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
  /**
   * The message this one replies to or quotes (Telegram `reply_to_message`, a WhatsApp quoted
   * message, a message shared into a Slack message), so that "how much is this one?" can be
   * answered. The adapter passes the quoted text as the platform gives it; the core caps it.
   */
  quoted?: QuotedMessage;
}

/** What a user's message replies to or quotes. */
export interface QuotedMessage {
  /** Its text or caption, as written ('' when it was only a file). */
  text: string;
  /** 'bot': one of the bot's own messages (an answer, a listing); 'user': anyone else's. */
  from: 'bot' | 'user';
  /** Its author's display name, when the platform tells it and it is not the bot. */
  author?: string;
}

/**
 * A user changed a message they sent before (`InboundSink.revise`): edited it (Telegram
 * `edited_message`, Slack `message_changed`, WhatsApp Web's `message_edit`, the Cloud API's edit
 * where Meta sends one) or deleted it (Slack `message_deleted`, WhatsApp's "delete for everyone").
 * The core answers an edited message in its new form, and a deleted one not at all, when its
 * answer has not started; after that it only logs the change.
 */
export type InboundRevision =
  /** The message as it reads now, normalized like any Inbound, with the original's `platformMessageId`. */
  | { kind: 'edited'; message: Inbound }
  | { kind: 'deleted'; conversation: ConversationRef; user: PlatformUser; platformMessageId: string };

/**
 * What a platform can do, declared once. Whether it can edit, draft or stream natively
 * is not a flag here: it is whether its Outbound has `edit`, `draft` or `startStream`
 * (the core reads the methods, src/gateway/reply/outbound-methods.ts), so the two cannot
 * disagree. The numbers below only say how those methods may be used.
 */
export interface Capabilities {
  /** Maximum characters of one message as the platform counts them (after entity parsing). */
  maxMessageLength: number;
  /**
   * The platform's markup: the core lays out and splits an answer's Markdown, this renderer
   * writes and measures it (the adapter's markdown.ts; `plainMarkup` for text shown as is).
   */
  markup: MarkupRenderer;
  /** Minimum interval between two updates of one streaming message, per chat kind (ms). */
  editIntervalMs: { private: number; group: number };
  /**
   * How long after sending a message the platform still accepts an edit of it (ms):
   * WhatsApp about 15 minutes, Telegram 48 h. The core stops editing a message a little
   * before that and continues the answer in a new one. Absent: no limit (a terminal).
   */
  editWindowMs?: number;
  /**
   * Most Markdown characters one native-stream call takes (Slack: 12,000 per
   * `markdown_text`); longer text goes in several calls. Absent: `maxMessageLength`.
   */
  nativeStreamMaxChars?: number;
  /** How long a typing indicator lasts once sent (ms); the core refreshes before it expires. 0 = none. */
  typingLifetimeMs: number;
  /** Can attach buttons (inline keyboard, Block Kit actions). */
  buttons: boolean;
  /** Maximum files accepted in one message, 1 when albums are not a thing. */
  maxFilesPerMessage: number;
  /** Largest file the platform lets the bot download (bytes). */
  maxDownloadBytes: number;
  /** Largest file the bot may send with `Outbound.sendFile` (bytes); absent where it sends none. */
  maxUploadBytes?: number;
  /** Longest caption of a file as the platform counts it; absent: captions are not shown (the text goes first). */
  maxCaptionLength?: number;
  /**
   * How long the platform may deliver one message again (ms), when that is longer than the
   * core's own dedupe memory (GatewayPolicy.dedupeTtlMs, 20 minutes): Meta retries a WhatsApp
   * Cloud webhook for up to 7 days. The core then remembers the platform's message ids this
   * long, so a late redelivery is never answered twice. Absent: the core's own.
   */
  redeliveryWindowMs?: number;
  /**
   * false where each message is a finished question, never one bubble of a burst (gateway.burstMs): a
   * terminal's lines, typed or piped. Default true: people on phones write one thought in several bubbles.
   */
  bursts?: boolean;
}

export interface Button {
  /** Shown to the user. */
  label: string;
  /** Delivered back as `Inbound.action.value` when pressed (keep ≤ 64 bytes for Telegram). */
  value: string;
}

export interface OutboundMessage {
  /** Already rendered in `capabilities.markup` and within `maxMessageLength`. */
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

/**
 * A native stream (Slack chat.startStream / appendStream / stopStream): one message that
 * only grows. It takes standard Markdown (the platform renders it; Slack's streaming
 * calls take Markdown, not mrkdwn), each call at most `capabilities.nativeStreamMaxChars`.
 */
export interface NativeStream {
  /**
   * The platform's id of the stream's message (Slack: its ts). The core records it, so that
   * a process taking a conversation over can end a stream that a crashed one left open
   * (`Outbound.stopStream`).
   */
  readonly id: string;
  /** Adds Markdown at the end of the message. */
  append(markdown: string): Promise<void>;
  /** Adds the last piece ('' when everything was appended already) and ends the stream. */
  stop(markdown: string): Promise<void>;
}

/** A file the gateway sends to a user: an operator's photo or document. */
export interface OutboundFile {
  bytes: Uint8Array;
  fileName: string;
  /** Sniffed from the bytes when known; an image is sent as a photo where the platform shows photos. */
  mimeType?: string;
  /**
   * Rendered in `capabilities.markup`, within the platform's caption limit (the core sends a longer
   * text as a message of its own before the file); absent for none.
   */
  caption?: string;
}

/** Everything the core can ask a platform to do in one conversation. */
export interface Outbound {
  send(conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage>;
  /**
   * Present where the bot can send a file to a user (Telegram sendPhoto/sendDocument, Slack's
   * external upload, WhatsApp media): an operator's photos and documents go through it. A file
   * over the platform's limit is refused with PlatformError 'too-long' naming the limit.
   */
  sendFile?(conversation: ConversationRef, file: OutboundFile): Promise<SentMessage>;
  /** Present when the platform can edit a message it sent (within `capabilities.editWindowMs`). */
  edit?(
    conversation: ConversationRef,
    message: SentMessage,
    text: string,
    options?: { buttons?: Button[]; progress?: boolean },
  ): Promise<void>;
  /** Present where the platform shows ephemeral drafts (Telegram `sendMessageDraft`): a preview of the answer being written. */
  draft?(conversation: ConversationRef, draftId: number, text: string): Promise<void>;
  /**
   * Present where the platform streams natively (Slack). `recipient` is the user the answer
   * replies to (Slack needs `recipient_user_id` / `recipient_team_id` outside DMs);
   * `markdown` is the first piece of the answer, standard Markdown ('' to start empty).
   */
  startStream?(conversation: ConversationRef, recipient: PlatformUser, markdown: string): Promise<NativeStream>;
  /**
   * Present where a native stream can be ended by its id alone (`NativeStream.id`), from any
   * process: a stream whose process died mid-answer stays "writing…" until this adds
   * `markdown` (the note that the answer was interrupted, standard Markdown) and ends it.
   * Refused with 'not-editable' when the stream is no longer open (ended already, or
   * expired by the platform).
   */
  stopStream?(conversation: ConversationRef, streamId: string, markdown: string): Promise<void>;
  /**
   * Shows "typing…" (or a status line) until it expires or the next message. `replyingTo` names
   * the user's message being answered (its `Inbound.platformMessageId`) when the core answers one,
   * for a platform that shows the indicator on that message (WhatsApp Cloud marks it read with it).
   */
  typing?(conversation: ConversationRef, replyingTo?: { platformMessageId: string }): Promise<void>;
}

/**
 * The core's entry point, handed to an adapter when it starts. Order is kept in two halves:
 * the core answers one conversation's messages in the order accept() was called for them (its
 * queue and lock); the adapter calls it in the order the platform delivered them, one accept()
 * settled before the conversation's next begins, whatever it does first (the kit's SerialByKey,
 * or the platform library's own, like grammY's `sequentialize`).
 */
export interface InboundSink {
  /** Accepts a message; resolves once it is durably queued (not answered). */
  accept(message: Inbound): Promise<void>;
  /**
   * Runs the whole hand-over of one webhook request (the adapter's own reads of its storage and
   * its accept() calls) within the time the core gives a redelivering platform's request
   * (`gateway.webhookAcceptMs`): past it, or while the state store is down, it rejects with
   * `NotQueuedError` and the route answers 503; the work may still finish, and the platform's
   * redelivery is then dropped as a duplicate. accept() alone is bounded the same way. Present on
   * the sink handed to an adapter that declares `redeliversOnAcceptFailure`; without it, run the work as is.
   */
  bounded?<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A message accepted before was edited or deleted; resolves once the change is applied to the
   * queued message, or found too late (its answer started: logged, nothing else). Called in the
   * same order as accept() for the conversation. Optional only so that a test's sink may leave it
   * out: every sink the core hands an adapter has it.
   */
  revise?(revision: InboundRevision): Promise<void>;
}

/** Whether an adapter is connected to its platform, for readiness (/readyz). */
export interface AdapterStatus {
  connected: boolean;
  /** Why it is not connected (the last failed attempt), when it is not; never holds a secret. */
  reason?: string;
  /**
   * Not connected by design or until a person acts, rather than failing: 'standby' (another
   * process runs the platform's one connection, WhatsApp's browser, and this one takes over if
   * it dies), 'operator' (a WhatsApp number waiting for its QR to be scanned, on a page this
   * process serves). /readyz still counts the process ready, so that traffic, and the operator
   * on their way to the QR page, reach it; the reason is still reported.
   */
  waiting?: 'standby' | 'operator';
}

export interface Adapter {
  /** "telegram", "slack", "whatsapp", "console". */
  readonly platform: string;
  /** The configured bot this adapter instance serves. */
  readonly bot: string;
  readonly capabilities: Capabilities;
  readonly outbound: Outbound;
  /**
   * The outbound for one conversation, when some of `outbound`'s optional methods do not
   * apply there (Telegram: no `draft` in groups, sendMessageDraft is for private chats).
   * What a platform can do is said by the methods it offers, so a per-conversation
   * difference is said the same way: by leaving the method out, never by a flag that
   * could disagree with it. Capabilities are the same in every conversation.
   */
  outboundFor?(conversation: ConversationRef, isGroup: boolean): Outbound;
  /**
   * Connects (polling, socket, browser) and starts delivering Inbound messages to the sink.
   * `commands` are the ones the core answers, for platforms that show a command menu or take
   * commands as plain words (WhatsApp); `usage` shows a command's arguments (`/listings [city]`).
   */
  start(sink: InboundSink, info?: { commands: { name: string; description: string; usage?: string }[] }): Promise<void>;
  stop(): Promise<void>;
  /**
   * Whether the platform sends a message again when `accept()` failed for it, as a webhook
   * does (the adapter answers 500 and the platform retries). Telegram long polling, Slack
   * Socket Mode and WhatsApp Web take a message as delivered once received: declare false,
   * and the sink the core hands to start() holds such a message in memory while the state
   * store is unreachable and queues it once the store is back (src/gateway/intake/patient-sink.ts);
   * messages still held when the adapter stops give up (the platform keeps what it had not
   * confirmed). Required, because guessing wrong loses messages silently.
   */
  readonly redeliversOnAcceptFailure: boolean;
  /**
   * Connection state. An adapter whose platform may be unreachable at start resolves start()
   * without waiting for it (it keeps connecting in the background, logging each failure) and
   * reports not connected here until it is; start() rejects only for what retrying cannot fix
   * (a refused token). Without status(), an adapter counts as connected once started.
   */
  status?(): AdapterStatus;
  /** Turns an `InboundAttachment.ref` back into a fetchable attachment (in any process serving this bot). */
  restoreAttachment?(ref: string, info: Omit<InboundAttachment, 'fetch' | 'ref'>): InboundAttachment;
  /** HTTP routes this instance serves (webhooks, a QR page); the runtime mounts them on the gateway's one port. */
  readonly routes?: readonly HttpRoute[];
}

/** An HTTP route an adapter serves: `handler` is mounted at `path` (it sees paths relative to it). */
export interface HttpRoute {
  /** Absolute path on the gateway's port, e.g. a webhook at `/<platform>/<bot id>`. */
  path: string;
  handler: RequestHandler;
  /**
   * 'admin': a page for operators. Served at `path` only with the admin token (`Authorization:
   * Bearer <ADMIN_TOKEN>`: scripts), 401 without it, 404 when no admin token is configured; and in
   * the operator inbox, at `/inbox<path>`, to a signed-in operator who may see this adapter's bot
   * (browsers: no token in a URL). Default 'public' (a webhook checks its own signature).
   */
  access?: 'public' | 'admin';
  /** What an admin page is, for the inbox's link to it ("WhatsApp link"). */
  title?: string;
}
