import {
  createMemoryAdapter,
  MEMORY_CAPABILITIES,
  MemoryPlatform,
  type MemoryCall,
  type MemoryCallKind,
  type MemoryPlatformRules,
} from '../../../../../fakes/memory/index.js';
import {
  plainMarkup,
  type Button,
  type ConversationRef,
  type MarkupRenderer,
  type NativeStream,
  type Outbound,
  type OutboundMessage,
  type PlatformError,
  type PlatformUser,
  type SentMessage,
} from '../../../../../src/contract.js';

export type CallKind = MemoryCallKind;

/** One call as the relay tests read it (the in-memory platform's record, without who made it or when). */
export interface PlatformCall {
  kind: CallKind;
  /** The message edited, appended to or stopped (not set on send and startStream). */
  messageId?: string;
  text?: string;
  buttons?: Button[];
  /** The call was marked as an intermediate render (may be refused under load). */
  progress?: boolean;
  /** startStream: the user the stream was addressed to. */
  recipient?: PlatformUser;
  /** 'ok', or the kind of PlatformError the platform answered with. */
  result: 'ok' | PlatformError['kind'];
}

/** The in-memory platform's rules; lengths are counted as `markup` counts them (plain text by default). */
export type PlatformRules = Omit<MemoryPlatformRules, 'measure'> & { markup?: MarkupRenderer };

/** Which optional methods an outbound offers: the relay decides how to stream from them. */
export interface OfferedMethods {
  edit?: boolean;
  draft?: boolean;
  startStream?: boolean;
}

/**
 * The in-memory platform (fakes/memory) seen the way the relay tests look at
 * it: it keeps the text of each message, enforces the length limit and refuses
 * empty texts, answers identical edits with "not modified", 429s the calls the
 * rules say, and records every call. As an Outbound it offers every method;
 * `offering()` gives one with only some, as an adapter declares what it can do.
 */
export class RecordingPlatform implements Outbound {
  readonly calls: PlatformCall[] = [];
  /** Message id → the text the user sees, in the order the messages appeared. */
  readonly messages = new Map<string, string>();
  readonly buttonsOf = new Map<string, Button[]>();
  readonly world: MemoryPlatform;
  private readonly everything: Outbound;
  private streamId: string | undefined;

  /**
   * `rules` becomes the platform's own rules object, so a test may change a rule later
   * (`platform.rules.rateLimit = …`) and the platform follows it.
   */
  constructor(readonly rules: PlatformRules = {}) {
    const platformRules: MemoryPlatformRules = rules;
    // Each call takes a moment by default, so that calls made together overlap as they would.
    platformRules.latencyMs ??= 1;
    platformRules.measure = (text) => this.markup.measure(text);
    this.world = new MemoryPlatform({ rules: platformRules, onCall: (call) => this.record(call) });
    this.everything = createMemoryAdapter({
      platform: this.world,
      capabilities: MEMORY_CAPABILITIES,
      methods: { edit: true, draft: true, nativeStream: true },
    }).outbound;
  }

  get markup(): MarkupRenderer {
    return this.rules.markup ?? plainMarkup;
  }

  /** The most calls in progress at once. */
  get maxConcurrentCalls(): number {
    return this.world.maxConcurrentCalls;
  }

  /** The texts of these messages as the user now sees them. */
  textsOf(messages: readonly SentMessage[]): string[] {
    return messages.map((message) => this.messages.get(message.id) ?? '');
  }

  count(kind: CallKind, result: PlatformCall['result'] = 'ok'): number {
    return this.calls.filter((call) => call.kind === kind && call.result === result).length;
  }

  /**
   * An outbound on this platform with only the optional methods given (edits by
   * default): how a test says what the platform can do, as an adapter does.
   */
  offering(methods: OfferedMethods = {}): Outbound {
    return {
      send: (conversation, message) => this.send(conversation, message),
      typing: (conversation) => this.typing(conversation),
      ...(methods.edit !== false
        ? {
            edit: (
              conversation: ConversationRef,
              message: SentMessage,
              text: string,
              options?: { buttons?: Button[]; progress?: boolean },
            ) => this.edit(conversation, message, text, options),
          }
        : {}),
      ...(methods.draft
        ? {
            draft: (conversation: ConversationRef, draftId: number, text: string) =>
              this.draft(conversation, draftId, text),
          }
        : {}),
      ...(methods.startStream
        ? {
            startStream: (conversation: ConversationRef, recipient: PlatformUser, markdown: string) =>
              this.startStream(conversation, recipient, markdown),
            stopStream: (conversation: ConversationRef, streamId: string, markdown: string) =>
              this.stopStream(conversation, streamId, markdown),
          }
        : {}),
    };
  }

  /** Every text the platform accepted for display (sends, edits, drafts, stream contents). */
  acceptedTexts(): string[] {
    return this.calls
      .filter((call) => call.result === 'ok' && call.text !== undefined && call.kind !== 'append')
      .map((call) => call.text!);
  }

  send(conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> {
    return this.everything.send(conversation, message);
  }

  edit(
    conversation: ConversationRef,
    message: SentMessage,
    text: string,
    options?: { buttons?: Button[]; progress?: boolean },
  ): Promise<void> {
    return this.everything.edit!(conversation, message, text, options);
  }

  draft(conversation: ConversationRef, draftId: number, text: string): Promise<void> {
    return this.everything.draft!(conversation, draftId, text);
  }

  /** Like Slack's chat.startStream: Markdown in, one message that only grows, ended by stop (which appends its text too). */
  startStream(conversation: ConversationRef, recipient: PlatformUser, markdown: string): Promise<NativeStream> {
    return this.everything.startStream!(conversation, recipient, markdown);
  }

  /** Like Slack's chat.stopStream: ends a stream by its id (refused 'not-editable' when it is not open). */
  stopStream(conversation: ConversationRef, streamId: string, markdown: string): Promise<void> {
    return this.everything.stopStream!(conversation, streamId, markdown);
  }

  /** Whether a native stream was started and not yet ended ("writing…" for its user). */
  streamOpen(): boolean {
    return this.streamId !== undefined && this.world.message(this.streamId)?.streaming === true;
  }

  typing(conversation: ConversationRef = { bot: 'main', platform: this.world.name, id: 'chat' }): Promise<void> {
    return this.everything.typing!(conversation);
  }

  /** What the native stream's message shows (the platform renders its Markdown), once one was started. */
  streamedMarkdown(): string | undefined {
    return this.streamId === undefined ? undefined : this.messages.get(this.streamId);
  }

  private record(call: MemoryCall): void {
    const { kind, messageId, text, buttons, progress, recipient, result } = call;
    const namesMessage = kind !== 'send' && kind !== 'startStream';
    this.calls.push({
      kind,
      ...(messageId !== undefined && namesMessage ? { messageId } : {}),
      ...(text !== undefined ? { text } : {}),
      ...(buttons ? { buttons } : {}),
      ...(progress ? { progress } : {}),
      ...(recipient ? { recipient } : {}),
      result,
    });
    const shown = result === 'ok' && messageId !== undefined ? this.world.message(messageId) : undefined;
    if (!shown) return;
    this.messages.set(shown.id, shown.text);
    if (shown.buttons) this.buttonsOf.set(shown.id, shown.buttons);
    else this.buttonsOf.delete(shown.id);
    if (kind === 'startStream') this.streamId = shown.id;
  }
}
