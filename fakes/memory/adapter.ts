/**
 * An adapter of the contract whose platform is a MemoryPlatform: a real adapter
 * (the core cannot tell it from Telegram's), for unit tests, benchmarks and the
 * conformance suite. What it can do beyond sending is chosen per instance by
 * which outbound methods it offers (edits, drafts, native streams), as the
 * contract says it: by the methods, never by a flag.
 */
import {
  PlatformError,
  type Adapter,
  type Button,
  type Capabilities,
  type ConversationRef,
  type InboundAttachment,
  type InboundSink,
  type NativeStream,
  type Outbound,
  type OutboundMessage,
  type PlatformUser,
  type SentMessage,
} from '../../src/contract.js';
import { MEMORY_CAPABILITIES } from './capabilities.js';
import type { MemoryConnection, MemoryMessage, MemoryPlatform } from './platform.js';

export interface MemoryAdapterOptions {
  platform: MemoryPlatform;
  /** The configured bot it serves (default "main"). */
  bot?: string;
  /** Names this instance in the platform's call log (default "a"); two gateway processes use two names. */
  instance?: string;
  /** Default MEMORY_CAPABILITIES. */
  capabilities?: Capabilities;
  /** The optional outbound methods it offers (default: edits only, so answers stream by edits). */
  methods?: MemoryMethods;
  /** The outbound of one conversation when it offers less there (e.g. no drafts in groups, like Telegram). */
  outboundFor?: (outbound: Outbound, isGroup: boolean) => Outbound;
  /** Whether the platform delivers a message again when accept() failed (default true, as a webhook would). */
  redeliversOnAcceptFailure?: boolean;
}

export interface MemoryMethods {
  /** `edit` (default true). */
  edit?: boolean;
  /** `draft` (default false). */
  draft?: boolean;
  /** `startStream` (default false). */
  nativeStream?: boolean;
}

export type MemoryAdapter = Adapter &
  MemoryConnection & {
    readonly platformSide: MemoryPlatform;
    readonly started: boolean;
  };

export function createMemoryAdapter(options: MemoryAdapterOptions): MemoryAdapter {
  const { platform } = options;
  const bot = options.bot ?? 'main';
  const by = options.instance ?? 'a';
  const capabilities = options.capabilities ?? MEMORY_CAPABILITIES;
  let sink: InboundSink | undefined;

  const outbound: Outbound = {
    send: (conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> => {
      const { text, buttons, suggestions, inputPlaceholder, progress } = message;
      return platform.call(
        {
          kind: 'send',
          conversation: conversation.id,
          text,
          by,
          ...(buttons ? { buttons } : {}),
          ...(progress ? { progress: true } : {}),
        },
        () => {
          const sent = platform.newMessage({
            conversation: conversation.id,
            text,
            ...(buttons ? { buttons } : {}),
            ...(suggestions ? { suggestions } : {}),
            ...(inputPlaceholder ? { inputPlaceholder } : {}),
          });
          return { id: sent.id };
        },
        // The call log names the message the send made.
        { messageOf: (sent) => sent.id },
      );
    },
    typing: (conversation: ConversationRef) =>
      platform.call({ kind: 'typing', conversation: conversation.id, by }, () => undefined),
  };
  const methods = { edit: true, draft: false, nativeStream: false, ...options.methods };
  if (methods.edit)
    outbound.edit = (conversation, sent, text, editOptions = {}) => edit(conversation, sent, text, editOptions);
  if (methods.draft) {
    outbound.draft = (conversation, _draftId, text) =>
      platform.call({ kind: 'draft', conversation: conversation.id, text, by }, () => {
        if (platform.rules.refuseDrafts) throw new PlatformError('drafts are not available here', 'unsupported');
      });
  }
  if (methods.nativeStream) {
    outbound.startStream = (conversation, recipient, markdown) => startStream(conversation, recipient, markdown);
    outbound.stopStream = (conversation, streamId, markdown) => stopStream(conversation, streamId, markdown);
  }

  function edit(
    conversation: ConversationRef,
    sent: SentMessage,
    text: string,
    { buttons, progress }: { buttons?: Button[]; progress?: boolean },
  ): Promise<void> {
    const call = {
      kind: 'edit' as const,
      conversation: conversation.id,
      messageId: sent.id,
      text,
      by,
      ...(buttons ? { buttons } : {}),
      ...(progress ? { progress } : {}),
    };
    return platform.call(call, () => {
      const message = platform.message(sent.id);
      if (!message || message.conversation !== conversation.id)
        throw new PlatformError('message to edit not found', 'not-found');
      if (!platform.editable(message, text)) throw new PlatformError("message can't be edited", 'not-editable');
      if (buttons && platform.rules.refuseButtonsOnEdit)
        throw new PlatformError('buttons cannot be edited in', 'unsupported');
      // Like Telegram: "not modified" only when both the text and the buttons stay the same.
      if (message.text === text && JSON.stringify(message.buttons ?? null) === JSON.stringify(buttons ?? null)) {
        throw new PlatformError('message is not modified', 'not-modified');
      }
      message.text = text;
      message.edits++;
      // An edit replaces the buttons: without any, the message has none.
      if (buttons) message.buttons = buttons;
      else delete message.buttons;
    });
  }

  /** Like Slack's chatStream: the text grows by appends, and stop adds the last piece. */
  async function startStream(
    conversation: ConversationRef,
    recipient: PlatformUser,
    markdown: string,
  ): Promise<NativeStream> {
    const { rules } = platform;
    const id = platform.reserveMessageId();
    await platform.call(
      { kind: 'startStream', conversation: conversation.id, messageId: id, text: markdown, recipient, by },
      () => {
        if (rules.failNative === 'start')
          throw new PlatformError('streaming not enabled for this workspace', 'unsupported');
        platform.newMessage({ conversation: conversation.id, text: markdown, streaming: true }, id);
      },
      { allowEmpty: true },
    );
    return {
      id,
      append: (text) =>
        platform.call({ kind: 'append', conversation: conversation.id, messageId: id, text, by }, () => {
          if (rules.failNative === 'append') throw new PlatformError('stream is gone', 'other');
          openStream(conversation, id).text += text;
        }),
      stop: (last) => stopStream(conversation, id, last),
    };
  }

  /** Like Slack's chat.stopStream: ends a stream by its id, from any instance; a stream no longer open is refused. */
  function stopStream(conversation: ConversationRef, id: string, last: string): Promise<void> {
    return platform.call(
      { kind: 'stop', conversation: conversation.id, messageId: id, text: last, by },
      () => {
        if (platform.rules.failNative === 'stop') throw new PlatformError('stream could not be stopped', 'other');
        const stream = openStream(conversation, id);
        stream.text += last;
        stream.streaming = false;
      },
      { allowEmpty: true },
    );
  }

  function openStream(conversation: ConversationRef, id: string): MemoryMessage {
    const stream = platform.message(id);
    if (!stream || stream.conversation !== conversation.id) throw new PlatformError('stream not found', 'not-found');
    if (!stream.streaming) throw new PlatformError('message is not in streaming state', 'not-editable');
    return stream;
  }

  const adapter: MemoryAdapter = {
    platform: platform.name,
    bot,
    instance: by,
    platformSide: platform,
    capabilities,
    outbound,
    redeliversOnAcceptFailure: options.redeliversOnAcceptFailure ?? true,
    get sink() {
      return sink;
    },
    get started() {
      return sink !== undefined;
    },
    ...(options.outboundFor
      ? { outboundFor: (_conversation: ConversationRef, isGroup: boolean) => options.outboundFor!(outbound, isGroup) }
      : {}),
    async start(startedWith: InboundSink) {
      sink = startedWith;
      platform.connect(adapter);
    },
    async stop() {
      sink = undefined;
      platform.disconnect(adapter);
    },
    // Files stay on the platform's side: any instance can fetch one from its ref.
    restoreAttachment: (ref: string, info: Omit<InboundAttachment, 'fetch' | 'ref'>) => platform.attachment(ref, info),
  };
  return adapter;
}
