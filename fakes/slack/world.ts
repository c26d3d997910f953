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
  /** chat.postMessage or chat.startStream. */
  sentWith: 'chat.postMessage' | 'chat.startStream';
  /** chat.update calls applied, or append/stop calls for a stream. */
  edits: number;
  /** 'streaming' between startStream and stopStream; 'done' otherwise. */
  state: 'streaming' | 'done';
  /** For streams: the non-text chunks received (task updates, plans…). */
  otherChunks: unknown[];
  /** Markdown (streams) or mrkdwn (postMessage/update). */
  format: 'markdown' | 'mrkdwn';
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
    return (
      this.conversations.get(id) ?? (/^[CDG][A-Z0-9]+$/.test(id) ? World.guess(id, this.defaultImUser) : undefined)
    );
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
      ...(kind === 'D' ? { user: imUser } : { name: `channel-${id.toLowerCase()}` }),
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

  private static key(channel: string, ts: string): string {
    return `${channel}/${ts}`;
  }
}
