/**
 * The adapter contract, third part: operator doors. A door is a place on a chat platform where
 * the people a conversation was handed to answer it: a Slack channel with one thread per handoff,
 * a Telegram forum supergroup with one topic per user. The handoff (src/handoff/threads) decides
 * what is posted where and what an operator's message does; a door only speaks its platform:
 * it opens a thread with a card, updates the card, posts into the thread, closes it, and hands
 * what people write or press there to the sink it was started with.
 *
 * Everything a door is given is platform-neutral: standard Markdown it renders with its own
 * markup, bytes of files, the labels of buttons. Everything it hands back is too.
 */
import type { HttpRoute, InboundAttachment } from './adapter.js';

/** Where one handoff lives on the operators' platform: JSON-safe, kept in Redis by the handoff. */
export interface ThreadRef {
  /**
   * The door's id of the thread, unique within the door: Slack the root message's `ts`, Telegram
   * the topic's `message_thread_id` (as text). What an operator writes there is reported with it.
   */
  id: string;
  /** The card's message, to update it (Slack: the root's `ts`; Telegram: the topic's first message id). */
  cardMessageId: string;
  /** A link that opens the thread, where the platform gives one (Slack's permalink, a t.me/c/… link). */
  url?: string;
}

/** The two buttons of a card. */
export type ThreadActionKind = 'claim' | 'hand-back';

export interface ThreadAction {
  kind: ThreadActionKind;
  /** The button's label, e.g. "Claim". */
  label: string;
}

/** The card of a handoff: the first message of its thread, updated as the handoff goes on. */
export interface ThreadCard {
  /**
   * One line naming the conversation, e.g. "Ana Pérez · WhatsApp": a Telegram topic's name (the
   * door cuts it to the platform's 128 characters), Slack's notification text.
   */
  title: string;
  /**
   * The card's body in standard Markdown, written by the handoff: the user, the platform, the
   * chatbot, why, the last messages, the inbox link, who holds it now. The door renders it with
   * its markup (and may cut it to its platform's limit, ending with "…").
   */
  markdown: string;
  /** The buttons to show; none once handed back, none in alerts mode. */
  actions: readonly ThreadAction[];
}

/** A file posted into a thread: bytes already read (within `OperatorDoor.maxFileBytes`). */
export interface ThreadFile {
  bytes: Uint8Array;
  fileName: string;
  /** From the bytes when known. */
  mimeType?: string;
}

/** One message posted into a thread by the gateway: the user's words, a notice, a refusal's reason. */
export interface ThreadPost {
  /** Standard Markdown ('' with files only); the door renders and splits it for its platform. */
  markdown: string;
  /** Sent after the text (or with it as a caption, where the platform can), in this order. */
  files?: readonly ThreadFile[];
}

/** A person on the operators' platform, as the door knows them. */
export interface OperatorIdentity {
  /** The platform's user id (Slack `U…`, a Telegram user id as text). */
  id: string;
  /** What the transcript shows: Slack display or real name, Telegram first and last name; the id when none. */
  name: string;
  /** Slack's profile e-mail where the app may read it (`users:read.email`), for matching accounts. */
  email?: string;
}

/** What a person wrote in a thread. The door drops its own posts and other bots' before this. */
export interface OperatorMessage {
  /** `ThreadRef.id` of the thread it was written in. */
  thread: string;
  /** The platform's id of the message, unique within the door: a redelivery carries the same one. */
  messageId: string;
  operator: OperatorIdentity;
  /**
   * What they wrote, as standard Markdown where the door converts its platform's markup (plain
   * text is Markdown too). Empty for files only.
   */
  text: string;
  /** Photos and documents they sent, fetched lazily as a user's are. */
  files: readonly InboundAttachment[];
  /** When the platform says it was sent (ms since the epoch). */
  sentAt: number;
}

/** A button of a card pressed, or its command typed (Telegram's `/handback` in a topic). */
export interface OperatorActionEvent {
  thread: string;
  kind: ThreadActionKind;
  operator: OperatorIdentity;
  /** The platform's id of this press, unique within the door (dedupe of a redelivery). */
  actionId: string;
}

/**
 * The handoff's side, given to `OperatorDoor.start`. Each call resolves once the message or press
 * was dealt with (answered in the thread when refused); a rejection means it was not, and a door
 * whose platform redelivers lets it do so (answers its webhook with an error).
 */
export interface OperatorSink {
  message(message: OperatorMessage): Promise<void>;
  action(action: OperatorActionEvent): Promise<void>;
}

/** Thrown by a door's call on a thread that no longer exists (a Telegram topic deleted by hand). */
export class ThreadGoneError extends Error {
  constructor(
    message: string,
    /** The call that found it gone, e.g. `sendMessage`. */
    readonly method: string,
  ) {
    super(message);
    this.name = 'ThreadGoneError';
  }
}

/**
 * One door of one bot. Its calls throw `PlatformError` (`unreachable` and `rate-limited` are waited
 * out and tried again by the handoff; anything else is logged as an operator error naming the
 * setting) or `ThreadGoneError`.
 */
export interface OperatorDoor {
  /** The operators' platform, e.g. "slack": names the door in Redis keys, logs and the transcript. */
  readonly platform: string;
  /**
   * Whether conversations are relayed both ways (a thread per handoff). False is alerts mode: the
   * card and its inbox link only; nothing a user or an operator writes crosses.
   */
  readonly relays: boolean;
  /** Largest file the door posts; the handoff sends a larger one as a link through the gateway. */
  readonly maxFileBytes: number;
  /** Routes it serves itself (its own app's events), mounted by the runtime on the gateway's port. */
  readonly routes?: readonly HttpRoute[];
  /** Starts hearing operators (its own socket or poller, or the bot's own adapter's events). */
  start(sink: OperatorSink): Promise<void>;
  stop(): Promise<void>;
  /**
   * Opens the thread of a new handoff with its card. `previous`: the conversation's last thread,
   * which a door may reuse (Telegram reopens the topic and posts the card in it; throws
   * ThreadGoneError when it is gone) or link (Slack, through the card's Markdown).
   */
  open(card: ThreadCard, previous?: ThreadRef): Promise<ThreadRef>;
  updateCard(thread: ThreadRef, card: ThreadCard): Promise<void>;
  post(thread: ThreadRef, post: ThreadPost): Promise<void>;
  /** The handoff ended: Telegram closes the topic; Slack has nothing to close (resolves). */
  close(thread: ThreadRef): Promise<void>;
}
