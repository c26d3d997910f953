/**
 * A chat platform held in memory: its "server side". It keeps every message a bot
 * sent, per conversation, as its users see them; it delivers what a user types to
 * a connected adapter (like Telegram delivering an update to the one process that
 * polls); it answers the calls it is told to refuse (429, unreachable, unparsable
 * text…) and records every call. Several adapter instances (several gateway
 * processes) may connect to one platform: they share its conversations, as two
 * processes serving one bot share the real platform.
 *
 * For unit tests, benchmarks and the adapter conformance suite; it imports nothing
 * of the project but the adapter contract.
 */
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import {
  AttachmentTooLargeError,
  AttachmentUnavailableError,
  describeSent,
  PlatformError,
  type Button,
  type ConversationRef,
  type Inbound,
  type InboundAttachment,
  type InboundSink,
  type PlatformUser,
} from '../../src/contract.js';

export type MemoryCallKind = 'send' | 'edit' | 'draft' | 'startStream' | 'append' | 'stop' | 'typing';

export interface MemoryCall {
  kind: MemoryCallKind;
  conversation: string;
  messageId?: string;
  text?: string;
  buttons?: Button[];
  /** Marked as an intermediate render of an answer (may be refused under load). */
  progress?: boolean;
  /** 'ok', or the kind of PlatformError the platform answered with. */
  result: 'ok' | PlatformError['kind'];
  /** startStream: the user the answer replies to. */
  recipient?: PlatformUser;
  /** Which adapter instance made the call (its `instance` name). */
  by: string;
  /** When the call took effect (the text became visible), on the platform's clock. */
  at: number;
}

/** A message the bot sent, as its user sees it now. */
export interface MemoryMessage {
  id: string;
  conversation: string;
  text: string;
  buttons?: Button[];
  suggestions?: string[];
  inputPlaceholder?: string;
  /** Accepted edits so far. */
  edits: number;
  /** When it was sent, on the platform's clock (for the edit window). */
  sentAt: number;
  /** A native stream still open (started, not stopped): only then does it take appends and a stop. */
  streaming?: boolean;
}

export interface MemoryPlatformRules {
  /** Longest message, as `measure` counts it (default 4096). */
  maxMessageLength?: number;
  /** How the platform counts a text's length (default: UTF-16 code units; pass the format's visible length for markup). */
  measure?: (text: string) => number;
  /** Answer this call with 429 and this retry_after (ms), or undefined to accept it. Typing is never limited. */
  rateLimit?: (call: {
    kind: MemoryCallKind;
    conversation: string;
    messageId?: string;
    text?: string;
    progress?: boolean;
  }) => number | undefined;
  /** Drafts refused, as Telegram does where they are not available. */
  refuseDrafts?: boolean;
  /** The native-stream step that fails. */
  failNative?: 'start' | 'append' | 'stop';
  /** Texts the platform cannot parse (like Telegram's "can't parse entities"). */
  refuseText?: (text: string) => boolean;
  /** Edits that carry buttons are refused (a platform whose edit cannot attach them). */
  refuseButtonsOnEdit?: boolean;
  /** Edits of a message sent longer ago than this (ms, platform clock) are refused as 'not-editable', like WhatsApp after about 15 minutes. */
  editWindowMs?: number;
  /** Edits refused as 'not-editable' (Telegram's "message can't be edited"). */
  refuseEdit?: (call: { messageId: string; text: string }) => boolean;
  /** How long each call takes (ms); its effect shows halfway. 0 = at once (still asynchronous). */
  latencyMs?: number;
}

export interface MemoryPlatformOptions {
  /** The adapters' `platform` name (default "memory"). */
  name?: string;
  rules?: MemoryPlatformRules;
  /** The platform's clock for `MemoryCall.at` (default Date.now). */
  now?: () => number;
  /** Told of every call once it is decided (for benchmarks that count as they go). */
  onCall?: (call: MemoryCall) => void;
}

/** A file a user sends. `declaredSize` is what the platform announces (it may lie, to test caps). */
export interface MemoryFile {
  bytes: Uint8Array;
  fileName?: string;
  mimeType?: string;
  kind?: InboundAttachment['kind'];
  declaredSize?: number;
}

/** What a connected adapter instance offers the platform: the sink it started with. */
export interface MemoryConnection {
  readonly bot: string;
  readonly instance: string;
  readonly sink: InboundSink | undefined;
}

interface ScriptedFailure {
  match: MemoryCallKind | 'final';
  error: () => PlatformError;
  times: number;
}

/** Bot calls that must be delivered: not an intermediate render, not a preview, not "typing". */
const isFinal = (call: Omit<MemoryCall, 'result' | 'by' | 'at'>) =>
  (call.kind === 'send' || call.kind === 'edit' || call.kind === 'stop') && !call.progress;

export class MemoryPlatform {
  readonly name: string;
  readonly rules: MemoryPlatformRules;
  /** Every bot call, in the order decided. */
  readonly calls: MemoryCall[] = [];
  /** Every message the bots sent, in the order they appeared. */
  readonly messages: MemoryMessage[] = [];
  /** Calls in progress right now, and the most seen at once. */
  activeCalls = 0;
  maxConcurrentCalls = 0;
  /** While false, every bot call fails as if the network were down (PlatformError 'unreachable'). */
  reachable = true;
  /** The same messages by id: edits find theirs at once however many were sent (benchmarks send thousands). */
  private readonly byId = new Map<string, MemoryMessage>();
  private readonly files = new Map<string, MemoryFile>();
  private readonly failures: ScriptedFailure[] = [];
  private readonly connections: MemoryConnection[] = [];
  private readonly now: () => number;
  private nextMessageId = 1;
  private nextPlatformMessageId = 1;
  private nextFileId = 1;

  constructor(private readonly options: MemoryPlatformOptions = {}) {
    this.name = options.name ?? 'memory';
    this.rules = options.rules ?? {};
    this.now = options.now ?? Date.now;
  }

  // ---- The user's side.

  conversation(bot: string, id: string): ConversationRef {
    return { bot, platform: this.name, id };
  }

  /** What a user typing `text` in conversation `id` produces (each call a new platform message id). */
  inbound(bot: string, id: string, text: string, extra: Partial<Inbound> = {}): Inbound {
    return {
      conversation: this.conversation(bot, id),
      user: { id: `user-${id}`, name: `User ${id}` },
      text,
      attachments: [],
      isGroup: false,
      addressed: true,
      platformMessageId: String(this.nextPlatformMessageId++),
      sentAt: this.now(),
      ...extra,
    };
  }

  /**
   * Hands a message to the first started adapter instance of its bot, as the platform
   * delivers an update to the process that polls it; resolves once the gateway queued it.
   */
  async deliver(message: Inbound): Promise<Inbound> {
    const receiver = this.connections.find((c) => c.bot === message.conversation.bot && c.sink);
    if (!receiver?.sink) {
      throw new Error(
        `MemoryPlatform: no started adapter serves bot "${message.conversation.bot}"; start the gateway before a user writes.`,
      );
    }
    await receiver.sink.accept(message);
    return message;
  }

  userSends(bot: string, id: string, text: string, extra: Partial<Inbound> = {}): Promise<Inbound> {
    return this.deliver(this.inbound(bot, id, text, extra));
  }

  /** Stores a file on the platform's side; the returned attachment can be fetched (and restored from its ref) by any instance. */
  addFile(file: MemoryFile): InboundAttachment {
    const ref = `file-${this.nextFileId++}`;
    this.files.set(ref, file);
    const info = {
      kind: file.kind ?? 'document',
      size: file.declaredSize ?? file.bytes.length,
      ...(file.mimeType ? { mimeType: file.mimeType } : {}),
      ...(file.fileName ? { fileName: file.fileName } : {}),
    };
    return this.attachment(ref, info);
  }

  /** The platform no longer has the file: fetching it fails as 'gone'. */
  forgetFile(ref: string): void {
    this.files.delete(ref);
  }

  /** A fetchable attachment for a stored file: refuses more than `maxBytes` before handing out a byte. */
  attachment(ref: string, info: Omit<InboundAttachment, 'fetch' | 'ref'>): InboundAttachment {
    return {
      ...info,
      ref,
      fetch: async ({ maxBytes }) => {
        const file = this.files.get(ref);
        if (!file)
          throw new AttachmentUnavailableError(
            `The platform has no file ${ref} (any more); ask the user to send it again.`,
            { reason: 'gone' },
          );
        const size = file.declaredSize ?? file.bytes.length;
        if (size > maxBytes || file.bytes.length > maxBytes)
          throw new AttachmentTooLargeError(maxBytes, Math.max(size, file.bytes.length));
        await yieldToLoop();
        return new Uint8Array(file.bytes);
      },
    };
  }

  /** The user presses a button the bot showed in conversation `id` (the newest one with this label). */
  pressButton(bot: string, id: string, label: string): Promise<Inbound> {
    const button = this.messagesIn(id)
      .flatMap((m) => m.buttons ?? [])
      .reverse()
      .find((b) => b.label === label);
    if (!button) throw new Error(`MemoryPlatform: conversation ${id} shows no button "${label}"`);
    const message = this.inbound(bot, id, button.label);
    return this.deliver({ ...message, action: { id: `press-${message.platformMessageId}`, value: button.value } });
  }

  // ---- What the user sees.

  messagesIn(id: string): MemoryMessage[] {
    return this.messages.filter((message) => message.conversation === id);
  }

  /** The texts of conversation `id` as its user sees them now, oldest first. */
  textsIn(id: string): string[] {
    return this.messagesIn(id).map((message) => message.text);
  }

  /** Every text shown in conversation `id` over time: sends, edits, drafts and a native stream's text as it grew, in order. */
  rendersIn(id: string): string[] {
    const streams = new Map<string, string>();
    const renders: string[] = [];
    for (const call of this.calls) {
      if (call.conversation !== id || call.result !== 'ok' || call.text === undefined) continue;
      if (call.kind === 'startStream' || call.kind === 'append' || call.kind === 'stop') {
        const key = call.messageId ?? '';
        const text = (call.kind === 'startStream' ? '' : (streams.get(key) ?? '')) + call.text;
        streams.set(key, text);
        renders.push(text);
      } else if (call.kind !== 'typing') {
        renders.push(call.text);
      }
    }
    return renders;
  }

  /** Whether the platform still takes an edit of this message (its edit window, the refuseEdit rule). */
  editable(message: MemoryMessage, text: string): boolean {
    const { editWindowMs, refuseEdit } = this.rules;
    if (editWindowMs !== undefined && this.now() - message.sentAt > editWindowMs) return false;
    return !refuseEdit?.({ messageId: message.id, text });
  }

  message(id: string): MemoryMessage | undefined {
    return this.byId.get(id);
  }

  count(kind: MemoryCallKind, result: MemoryCall['result'] = 'ok'): number {
    return this.calls.filter((call) => call.kind === kind && call.result === result).length;
  }

  // ---- Faults.

  /**
   * The next `times` calls of this kind ('final': a send, edit or stream stop that is not an
   * intermediate render) fail like this: 'rate-limited' with `retryAfterMs`, or any other kind.
   */
  failNext(
    match: MemoryCallKind | 'final',
    kind: PlatformError['kind'],
    options: { times?: number; retryAfterMs?: number } = {},
  ): void {
    const message =
      kind === 'rate-limited'
        ? 'Too Many Requests'
        : kind === 'unreachable'
          ? 'connect ECONNREFUSED (platform unreachable)'
          : `refused: ${kind}`;
    this.failures.push({
      match,
      times: options.times ?? 1,
      error: () => new PlatformError(message, kind, options.retryAfterMs),
    });
  }

  // ---- The bot's side (used by MemoryAdapter).

  connect(connection: MemoryConnection): void {
    if (!this.connections.includes(connection)) this.connections.push(connection);
  }

  disconnect(connection: MemoryConnection): void {
    const index = this.connections.indexOf(connection);
    if (index >= 0) this.connections.splice(index, 1);
  }

  /** A message id handed out before the message exists (a native stream's calls name it from the start). */
  reserveMessageId(): string {
    return String(this.nextMessageId++);
  }

  newMessage(fields: Omit<MemoryMessage, 'id' | 'edits' | 'sentAt'>, id = this.reserveMessageId()): MemoryMessage {
    const message: MemoryMessage = { id, edits: 0, sentAt: this.now(), ...fields };
    this.messages.push(message);
    this.byId.set(id, message);
    return message;
  }

  /** Runs one bot call: latency, scripted failures, the platform's checks, then `perform`; records it. */
  async call<T>(
    call: Omit<MemoryCall, 'result' | 'at'>,
    perform: () => T,
    options: { allowEmpty?: boolean; messageOf?: (result: T) => string } = {},
  ): Promise<T> {
    this.activeCalls++;
    this.maxConcurrentCalls = Math.max(this.maxConcurrentCalls, this.activeCalls);
    const latencyMs = this.rules.latencyMs ?? 0;
    try {
      await (latencyMs > 0 ? sleep(latencyMs / 2) : yieldToLoop());
      let result: T;
      try {
        this.refuseIfTold(call);
        if (call.text !== undefined && call.kind !== 'append') this.check(call.text, options.allowEmpty ?? false);
        result = perform();
      } catch (error) {
        this.record(call, error instanceof PlatformError ? error.kind : 'other');
        throw namingTheCall(error, call);
      }
      this.record(options.messageOf ? { ...call, messageId: options.messageOf(result) } : call, 'ok');
      if (latencyMs > 0) await sleep(latencyMs / 2);
      return result;
    } finally {
      this.activeCalls--;
    }
  }

  private record(call: Omit<MemoryCall, 'result' | 'at'>, result: MemoryCall['result']): void {
    const recorded: MemoryCall = { ...call, result, at: this.now() };
    this.calls.push(recorded);
    this.options.onCall?.(recorded);
  }

  private refuseIfTold(call: Omit<MemoryCall, 'result' | 'at'>): void {
    if (!this.reachable) throw new PlatformError('connect ECONNREFUSED (platform unreachable)', 'unreachable');
    const scripted = this.failures.find(
      (f) => f.times > 0 && (f.match === call.kind || (f.match === 'final' && isFinal(call))),
    );
    if (scripted) {
      scripted.times--;
      if (scripted.times === 0) this.failures.splice(this.failures.indexOf(scripted), 1);
      throw scripted.error();
    }
    if (call.kind === 'typing') return;
    const retryAfterMs = this.rules.rateLimit?.(call);
    if (retryAfterMs !== undefined) throw new PlatformError('Too Many Requests', 'rate-limited', retryAfterMs);
  }

  private check(text: string, allowEmpty: boolean): void {
    if (!allowEmpty && text.trim() === '') throw new PlatformError('message text is empty', 'other');
    const length = this.rules.measure ? this.rules.measure(text) : text.length;
    if (length > (this.rules.maxMessageLength ?? 4096)) throw new PlatformError('message is too long', 'too-long');
    if (this.rules.refuseText?.(text)) throw new PlatformError("can't parse entities", 'bad-format');
  }
}

/** A refusal as a platform's client gives it: naming the call (its kind) and what it sent, redacted. */
function namingTheCall(error: unknown, call: Omit<MemoryCall, 'result' | 'at'>): unknown {
  if (!(error instanceof PlatformError) || error.method !== undefined) return error;
  const sent = describeSent({
    to: call.conversation,
    message: call.messageId,
    text: call.text,
    buttons: call.buttons?.length,
  });
  return new PlatformError(error.message, error.kind, error.retryAfterMs, {
    cause: error.cause,
    ...(error.platformCode !== undefined ? { platformCode: error.platformCode } : {}),
    method: call.kind,
    sent,
  });
}
