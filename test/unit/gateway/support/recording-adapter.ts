import {
  createMemoryAdapter,
  MEMORY_CAPABILITIES,
  MemoryPlatform,
  type MemoryAdapter,
  type MemoryMessage,
} from '../../../../fakes/memory/index.js';
import type {
  Adapter,
  Capabilities,
  ConversationRef,
  Inbound,
  InboundAttachment,
  InboundSink,
  Outbound,
} from '../../../../src/contract.js';

/** A message the bot sent, as the user sees it (the in-memory platform's). */
export type RecordedMessage = MemoryMessage;

/** A plain-text platform. RecordingAdapter has no edit(), so every answer arrives as one final message, easy to read back. */
export const PLAIN_CAPABILITIES: Capabilities = MEMORY_CAPABILITIES;

/**
 * The in-memory platform (fakes/memory) with the vocabulary of the gateway's
 * tests: it delivers the messages a test "types" to this adapter's sink, and
 * keeps every message the bot sent, per conversation, as the user would see them.
 * It offers no edit(), so answers arrive whole. Two adapters given one
 * MemoryPlatform are two gateway processes serving one bot: one user's screen.
 */
export class RecordingAdapter implements Adapter {
  readonly outbound: Outbound;
  /** A test that needs the core's patient sink uses the memory adapter's option. */
  readonly redeliversOnAcceptFailure = true;
  /** The platform's side: its conversations, call log and faults. */
  readonly world: MemoryPlatform;
  private readonly memory: MemoryAdapter;

  constructor(
    readonly bot = 'main',
    readonly platform = 'fakechat',
    readonly capabilities: Capabilities = PLAIN_CAPABILITIES,
    world?: MemoryPlatform,
  ) {
    if (world && world.name !== platform)
      throw new Error(
        `RecordingAdapter "${platform}" cannot serve a MemoryPlatform named "${world.name}"; name them alike.`,
      );
    this.world =
      world ?? new MemoryPlatform({ name: platform, rules: { maxMessageLength: capabilities.maxMessageLength } });
    this.memory = createMemoryAdapter({ platform: this.world, bot, capabilities, methods: { edit: false } });
    this.outbound = this.memory.outbound;
  }

  get started(): boolean {
    return this.memory.started;
  }

  /** Every message the bot sent on this platform (by any adapter sharing it), oldest first. */
  get messages(): RecordedMessage[] {
    return this.world.messages;
  }

  start(sink: InboundSink): Promise<void> {
    return this.memory.start(sink);
  }

  stop(): Promise<void> {
    return this.memory.stop();
  }

  /** The platform keeps the files users send: any process fetches them again by ref. */
  restoreAttachment(ref: string, info: Omit<InboundAttachment, 'fetch' | 'ref'>): InboundAttachment {
    return this.world.attachment(ref, info);
  }

  conversation(id: string): ConversationRef {
    return this.world.conversation(this.bot, id);
  }

  /** What a user typing `text` in conversation `id` produces (each call a new platform message id). */
  inbound(id: string, text: string, extra: Partial<Inbound> = {}): Inbound {
    return this.world.inbound(this.bot, id, text, extra);
  }

  /** Delivers a message to this adapter's gateway, as the platform would (resolves once it is queued). */
  async deliver(message: Inbound): Promise<Inbound> {
    const sink = this.memory.sink;
    if (!sink) throw new Error('RecordingAdapter: start the gateway before delivering messages');
    await sink.accept(message);
    return message;
  }

  say(id: string, text: string, extra: Partial<Inbound> = {}): Promise<Inbound> {
    return this.deliver(this.inbound(id, text, extra));
  }

  textsIn(id: string): string[] {
    return this.world.textsIn(id);
  }

  messagesIn(id: string): RecordedMessage[] {
    return this.world.messagesIn(id);
  }
}

/** An image attachment whose bytes are a real 1×1 PNG. */
export function pngAttachment(): InboundAttachment {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  return {
    kind: 'image',
    mimeType: 'image/png',
    size: png.length,
    fileName: 'dot.png',
    fetch: async () => new Uint8Array(png),
  };
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
