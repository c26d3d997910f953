/**
 * Everything the fake Slack remembers: the conversations, the bot's messages
 * as a user sees them (after updates and streams), every Web API call, the
 * assistant-thread state, shared files and their downloads, Socket Mode acks.
 * Tests read it through FakeSlack.
 */
import { EventEmitter } from 'node:events';

export interface LoggedCall {
  method: string;
  /** Parameters as the fake decoded them (JSON-valued form fields parsed). */
  params: Record<string, unknown>;
  ok: boolean;
  /** Slack's `error` string when ok is false ('ratelimited' for a 429). */
  error?: string;
  /** HTTP status answered (200 for ok and ok:false answers, 429, 5xx; 0 when a scripted reset cut the connection). */
  status: number;
  /** The conversation the call names (channel / channel_id), if any. */
  channel?: string;
  /** ms since epoch, from the fake's clock. */
  at: number;
}

export interface VisibleMessage {
  ts: string;
  channel: string;
  /** The thread it belongs to (absent for a top-level message). */
  thread_ts?: string;
  /** The text as the user sees it now: mrkdwn/Markdown source, not rendered. */
  text: string;
  blocks?: unknown[];
  /** chat.postMessage, chat.startStream, or files.completeUploadExternal (a file shared by the bot). */
  sentWith: 'chat.postMessage' | 'chat.startStream' | 'files.completeUploadExternal';
  /** chat.update calls applied, or append/stop calls for a stream. */
  edits: number;
  /** 'streaming' between startStream and stopStream; 'done' otherwise. */
  state: 'streaming' | 'done';
  /** For streams: the non-text chunks received (task updates, plans…). */
  otherChunks: unknown[];
  /** Markdown (streams) or mrkdwn (postMessage/update). */
  format: 'markdown' | 'mrkdwn';
  /** Files the bot shared with the message (files.completeUploadExternal), with their bytes. */
  files?: SharedFile[];
  recipient_user_id?: string;
  recipient_team_id?: string;
  /** Message metadata (`{event_type, event_payload}`) as last sent; Bolt's Assistant keeps thread context there. */
  metadata?: unknown;
}

export interface ConversationInfo {
  id: string;
  is_im: boolean;
  is_channel: boolean;
  is_group: boolean;
  is_private: boolean;
  is_mpim: boolean;
  name?: string;
  /** For an IM: the other user. */
  user?: string;
  /**
   * For a channel: whether the app is in it (conversations.info reports it). An app outside a
   * public channel cannot post there (`not_in_channel`); a private channel it is not in does
   * not exist for it (`channel_not_found`). Default true.
   */
  is_member?: boolean;
}

/** A file the bot shared (upload v2), as a test reads it back. */
export interface SharedFile {
  id: string;
  name: string;
  title: string;
  bytes: Uint8Array;
}

/** A person of the workspace, as users.info describes them. */
export interface FakeUser {
  id: string;
  /** The handle (users.info `name`). Default: the id in lower case. */
  name?: string;
  real_name?: string;
  display_name?: string;
  /** Shown by users.info only to a token with users:read.email. */
  email?: string;
  is_bot?: boolean;
}

/** A message a person wrote in a channel (the world helpers `humanWrites`), kept to read a thread back. */
export interface HumanMessage {
  ts: string;
  channel: string;
  thread_ts?: string;
  user: string;
  text: string;
  files?: { id: string; name: string }[];
}

/** One message of a thread as everyone in the channel sees it: the bot's or a person's. */
export interface ThreadMessage {
  ts: string;
  thread_ts?: string;
  /** The bot user's id for the bot's messages. */
  user: string;
  /** Set on the bot's own messages, as Slack sets it. */
  bot_id?: string;
  text: string;
  blocks?: unknown[];
  files?: { id: string; name: string }[];
}

/** An upload v2 in progress: announced by files.getUploadURLExternal, bytes POSTed to its URL, then completed. */
export interface PendingUpload {
  id: string;
  filename: string;
  length: number;
  bytes?: Uint8Array;
  completed: boolean;
}

export interface AssistantCall {
  method: 'assistant.threads.setStatus' | 'assistant.threads.setSuggestedPrompts' | 'assistant.threads.setTitle';
  channel_id: string;
  thread_ts?: string;
  status?: string;
  prompts?: { title: string; message: string }[];
  title?: string;
  at: number;
}

export interface StoredFile {
  id: string;
  name: string;
  mimetype: string;
  filetype: string;
  /** What the event announces (may lie, to test download caps). */
  size: number;
  bytes: Uint8Array;
  subtype?: string;
}

export interface FileDownload {
  fileId: string;
  /** False when the token was missing or wrong (the fake answered the HTML login page). */
  authorized: boolean;
}

export interface SocketAck {
  envelope_id: string;
  /** The response payload the app sent with its ack, if any. */
  payload?: unknown;
}

export class World extends EventEmitter {
  private readonly conversations = new Map<string, ConversationInfo>();
  private readonly messages = new Map<string, VisibleMessage>();
  readonly calls: LoggedCall[] = [];
  readonly assistantCalls: AssistantCall[] = [];
  readonly files = new Map<string, StoredFile>();
  readonly downloads: FileDownload[] = [];
  readonly socketAcks: SocketAck[] = [];
  readonly users = new Map<string, FakeUser>();
  readonly humanMessages: HumanMessage[] = [];
  readonly uploads = new Map<string, PendingUpload>();
  /** Whether an undeclared id is a conversation (guessed from its first letter), or `channel_not_found`. */
  guessConversations = true;
  tooManyRequests = 0;
  private tsCounter = 0;
  private fileCounter = 0;

  constructor(
    readonly now: () => number,
    private readonly defaultImUser: string,
  ) {
    super();
    this.setMaxListeners(100);
  }

  /** Something changed: wakes `waitFor`. */
  changed(): void {
    this.emit('change');
  }

  /** A fresh message ts: seconds from the fake's clock, then a counter, so every ts is unique and ordered. */
  nextTs(): string {
    this.tsCounter++;
    return `${Math.floor(this.now() / 1000)}.${String(this.tsCounter).padStart(6, '0')}`;
  }

  nextFileId(): string {
    return `F${String(++this.fileCounter).padStart(8, '0')}`;
  }

  log(call: LoggedCall): void {
    if (call.status === 429) this.tooManyRequests++;
    this.calls.push(call);
    this.changed();
  }

  addConversation(info: Partial<ConversationInfo> & { id: string }): ConversationInfo {
    const conversation = { ...World.guess(info.id, this.defaultImUser), ...info };
    this.conversations.set(info.id, conversation);
    return conversation;
  }

  /** A conversation the test declared, or one guessed from its id (D… = DM, C… = public channel, G… = private). */
  conversation(id: string): ConversationInfo | undefined {
    const declared = this.conversations.get(id);
    if (declared || !this.guessConversations) return declared;
    return /^[CDG][A-Z0-9]+$/.test(id) ? World.guess(id, this.defaultImUser) : undefined;
  }

  private static guess(id: string, imUser: string): ConversationInfo {
    const kind = id[0];
    return {
      id,
      is_im: kind === 'D',
      is_channel: kind === 'C',
      is_group: kind === 'G',
      is_private: kind !== 'C',
      is_mpim: false,
      ...(kind === 'D' ? { user: imUser } : { name: `channel-${id.toLowerCase()}`, is_member: true }),
    };
  }

  storeMessage(message: VisibleMessage): void {
    this.messages.set(World.key(message.channel, message.ts), message);
    this.changed();
  }

  message(channel: string, ts: string): VisibleMessage | undefined {
    return this.messages.get(World.key(channel, ts));
  }

  /** The bot's messages in a channel, in ts order; with `threadTs`, only that thread's. */
  visibleMessages(channel: string, threadTs?: string): VisibleMessage[] {
    return [...this.messages.values()]
      .filter((m) => m.channel === channel && (threadTs === undefined || m.thread_ts === threadTs))
      .sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0))
      .map((m) => ({ ...m }));
  }

  /** A thread as the channel shows it: its root and replies, the bot's and people's, in ts order. */
  threadMessages(channel: string, threadTs: string, bot: { userId: string; botId: string }): ThreadMessage[] {
    const ofBot = this.visibleMessages(channel)
      .filter((m) => m.ts === threadTs || m.thread_ts === threadTs)
      .map((m): ThreadMessage => ({
        ts: m.ts,
        ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
        user: bot.userId,
        bot_id: bot.botId,
        text: m.text,
        ...(m.blocks ? { blocks: m.blocks } : {}),
        ...(m.files ? { files: m.files.map(({ id, name }) => ({ id, name })) } : {}),
      }));
    const ofPeople = this.humanMessages
      .filter((m) => m.channel === channel && (m.ts === threadTs || m.thread_ts === threadTs))
      .map(({ channel: _channel, ...m }): ThreadMessage => m);
    return [...ofBot, ...ofPeople].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  }

  private static key(channel: string, ts: string): string {
    return `${channel}/${ts}`;
  }
}
