/**
 * An adapter-shaped platform held in memory, with Telegram's capabilities
 * (drafts in private chats, edits in groups), so a benchmark can drive
 * `gateway.sink.accept` directly and measure the core without grammY, HTTP or
 * a fake server. Each platform call may take a simulated round trip.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { capabilitiesForChat, telegramCapabilities } from '../../adapters/telegram/capabilities.js';
import type { Adapter, ConversationRef, Inbound, InboundSink, Outbound, OutboundMessage, SentMessage } from '../../src/gateway/types.js';

export class MemoryAdapter implements Adapter, Outbound {
  readonly platform = 'bench';
  readonly capabilities = telegramCapabilities({ localApi: false });
  readonly outbound: Outbound = this;
  /** Conversation id → when text first became visible there (draft or message), clock ms. */
  readonly firstVisibleAt = new Map<string, number>();
  /** Sends and edits that showed exactly `finalText`: one per completed answer. */
  finalsShown = 0;
  calls = 0;
  finalText = '';
  private sink: InboundSink | undefined;
  private nextMessageId = 1;
  private nextPlatformMessageId = 1;

  constructor(
    readonly bot: string,
    private readonly clock: () => number,
    /** Simulated platform round trip per call (ms); the text counts as visible halfway. */
    private readonly roundTripMs = 0,
  ) {}

  capabilitiesFor(_conversation: ConversationRef, isGroup: boolean) {
    return capabilitiesForChat(this.capabilities, isGroup);
  }

  async start(sink: InboundSink): Promise<void> {
    this.sink = sink;
  }

  async stop(): Promise<void> {
    this.sink = undefined;
  }

  /** Hands a user's message to the gateway; resolves once it is queued. */
  async userSends(conversationId: string, text: string, isGroup = false): Promise<void> {
    if (!this.sink) throw new Error('MemoryAdapter: start the gateway first');
    const inbound: Inbound = {
      conversation: { bot: this.bot, platform: this.platform, id: conversationId },
      user: { id: `u${conversationId}` },
      text, attachments: [], isGroup, addressed: true,
      platformMessageId: String(this.nextPlatformMessageId++),
      sentAt: Date.now(),
    };
    await this.sink.accept(inbound);
  }

  async send(conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> {
    await this.show(conversation, message.text);
    return { id: String(this.nextMessageId++) };
  }

  async edit(conversation: ConversationRef, _message: SentMessage, text: string): Promise<void> {
    await this.show(conversation, text);
  }

  async draft(conversation: ConversationRef): Promise<void> {
    await this.call(conversation);
  }

  async typing(): Promise<void> {
    this.calls++;
    if (this.roundTripMs > 0) await sleep(this.roundTripMs);
  }

  private async show(conversation: ConversationRef, text: string): Promise<void> {
    await this.call(conversation);
    if (text === this.finalText) this.finalsShown++;
  }

  private async call(conversation: ConversationRef): Promise<void> {
    this.calls++;
    if (this.roundTripMs > 0) await sleep(this.roundTripMs / 2);
    if (!this.firstVisibleAt.has(conversation.id)) this.firstVisibleAt.set(conversation.id, this.clock());
    if (this.roundTripMs > 0) await sleep(this.roundTripMs / 2);
  }
}
