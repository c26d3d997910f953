import {
  PlatformError,
  type Adapter, type Button, type Capabilities, type ConversationRef, type Inbound, type InboundAttachment, type InboundSink,
  type Outbound, type OutboundMessage, type SentMessage,
} from '../../../../src/gateway/types.js';

export interface RecordedMessage {
  id: string;
  conversation: string;
  text: string;
  buttons?: Button[];
  suggestions?: string[];
  inputPlaceholder?: string;
}

/** A plain-text platform that cannot edit: every answer arrives as one final message, easy to read back. */
export const PLAIN_CAPABILITIES: Capabilities = {
  maxMessageLength: 4096,
  format: 'plain',
  canEdit: false,
  editIntervalMs: { private: 0, group: 0 },
  drafts: false,
  nativeStreaming: false,
  typingLifetimeMs: 0,
  buttons: true,
  maxFilesPerMessage: 10,
  maxDownloadBytes: 20 * 1024 * 1024,
};

/**
 * A fake chat platform: it delivers the messages a test "types" to the gateway's
 * sink, and keeps every message the bot sent, per conversation, as the user would
 * see them. `refuseSends` makes it answer like a platform that is down.
 */
export class RecordingAdapter implements Adapter, Outbound {
  readonly outbound: Outbound = this;
  private sink: InboundSink | undefined;
  private nextId = 1;
  private nextPlatformMessageId = 1;
  started = false;

  constructor(
    readonly bot = 'main',
    readonly platform = 'fakechat',
    readonly capabilities: Capabilities = PLAIN_CAPABILITIES,
    /** Where sent messages are kept; two adapters (two gateway processes) may share one, as one user's screen. */
    readonly messages: RecordedMessage[] = [],
  ) {}

  async start(sink: InboundSink): Promise<void> {
    this.sink = sink;
    this.started = true;
  }

  async stop(): Promise<void> {
    this.started = false;
  }

  conversation(id: string): ConversationRef {
    return { bot: this.bot, platform: this.platform, id };
  }

  /** What a user typing `text` in conversation `id` produces (each call a new platform message id). */
  inbound(id: string, text: string, extra: Partial<Inbound> = {}): Inbound {
    return {
      conversation: this.conversation(id),
      user: { id: `user-${id}`, name: `User ${id}` },
      text,
      attachments: [],
      isGroup: false,
      addressed: true,
      platformMessageId: String(this.nextPlatformMessageId++),
      sentAt: Date.now(),
      ...extra,
    };
  }

  /** Delivers a message as the platform would (resolves once the gateway queued it). */
  async deliver(message: Inbound): Promise<Inbound> {
    if (!this.sink) throw new Error('RecordingAdapter: start the gateway before delivering messages');
    await this.sink.accept(message);
    return message;
  }

  say(id: string, text: string, extra: Partial<Inbound> = {}): Promise<Inbound> {
    return this.deliver(this.inbound(id, text, extra));
  }

  textsIn(id: string): string[] {
    return this.messagesIn(id).map((message) => message.text);
  }

  messagesIn(id: string): RecordedMessage[] {
    return this.messages.filter((message) => message.conversation === id);
  }

  async send(conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> {
    await new Promise((resolve) => setImmediate(resolve));
    if (message.text.trim() === '') throw new PlatformError('message text is empty', 'other');
    const id = String(this.nextId++);
    this.messages.push({ id, conversation: conversation.id, ...message });
    return { id };
  }

  async edit(conversation: ConversationRef, sent: SentMessage, text: string): Promise<void> {
    const message = this.messages.find((candidate) => candidate.id === sent.id && candidate.conversation === conversation.id);
    if (!message) throw new PlatformError('message to edit not found', 'not-found');
    message.text = text;
  }
}

/** An image attachment whose bytes are a real 1×1 PNG. */
export function pngAttachment(): InboundAttachment {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  return { kind: 'image', mimeType: 'image/png', size: png.length, fileName: 'dot.png', fetch: async () => new Uint8Array(png) };
}

/** Polls until `check` passes (or throws its last failure): waits for outcomes, never asserts on time. */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
