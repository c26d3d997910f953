import { visibleLength } from '../../../../src/format/index.js';
import {
  PlatformError,
  type Button,
  type ConversationRef,
  type NativeStream,
  type Outbound,
  type OutboundMessage,
  type SentMessage,
  type TextFormat,
} from '../../../../src/gateway/types.js';

export type CallKind = 'send' | 'edit' | 'draft' | 'startStream' | 'append' | 'stop' | 'typing';

export interface PlatformCall {
  kind: CallKind;
  messageId?: string;
  text?: string;
  buttons?: Button[];
  /** The call was marked as an intermediate render (may be refused under load). */
  progress?: boolean;
  /** 'ok', or the kind of PlatformError the platform answered with. */
  result: 'ok' | PlatformError['kind'];
}

export interface PlatformRules {
  format?: TextFormat;
  maxMessageLength?: number;
  /** Answer this call with 429 and this retry_after (ms), or undefined to accept it. */
  rateLimit?: (call: { kind: CallKind; messageId?: string; text?: string }) => number | undefined;
  /** Drafts refused as Telegram does where they are not available. */
  refuseDrafts?: boolean;
  /** The native-stream step that fails. */
  failNative?: 'start' | 'append' | 'stop';
  /** Texts the platform cannot parse (like Telegram's "can't parse entities"). */
  refuseText?: (text: string) => boolean;
  /** Edits that carry buttons are refused (a platform whose edit cannot attach them). */
  refuseButtonsOnEdit?: boolean;
  /** Time each call takes, so overlapping calls would overlap. */
  latencyMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A platform fake that behaves like a chat platform: it keeps the text of each
 * message, enforces the length limit and refuses empty texts, answers identical
 * edits with "not modified", 429s the calls the rules say, and records every call.
 */
export class RecordingPlatform implements Outbound {
  readonly calls: PlatformCall[] = [];
  /** Message id → the text the user sees, in the order the messages appeared. */
  readonly messages = new Map<string, string>();
  readonly buttonsOf = new Map<string, Button[]>();
  maxConcurrentCalls = 0;
  private activeCalls = 0;
  private nextId = 1;

  constructor(readonly rules: PlatformRules = {}) {}

  get format(): TextFormat {
    return this.rules.format ?? 'plain';
  }

  /** The texts of these messages as the user now sees them. */
  textsOf(messages: readonly SentMessage[]): string[] {
    return messages.map((message) => this.messages.get(message.id) ?? '');
  }

  count(kind: CallKind, result: PlatformCall['result'] = 'ok'): number {
    return this.calls.filter((call) => call.kind === kind && call.result === result).length;
  }

  /** Every text the platform accepted for display (sends, edits, drafts, stream contents). */
  acceptedTexts(): string[] {
    return this.calls.filter((call) => call.result === 'ok' && call.text !== undefined && call.kind !== 'append').map((call) => call.text!);
  }

  async send(_conversation: ConversationRef, message: OutboundMessage): Promise<SentMessage> {
    return this.call({ kind: 'send', text: message.text, ...(message.buttons ? { buttons: message.buttons } : {}), ...(message.progress ? { progress: true } : {}) }, () => {
      const id = String(this.nextId++);
      this.messages.set(id, message.text);
      if (message.buttons) this.buttonsOf.set(id, message.buttons);
      return { id };
    });
  }

  async edit(_conversation: ConversationRef, message: SentMessage, text: string, options: { buttons?: Button[]; progress?: boolean } = {}): Promise<void> {
    const { buttons } = options;
    return this.call({ kind: 'edit', messageId: message.id, text, ...(buttons ? { buttons } : {}), ...(options.progress ? { progress: true } : {}) }, () => {
      const current = this.messages.get(message.id);
      if (current === undefined) throw new PlatformError('message to edit not found', 'not-found');
      if (buttons && this.rules.refuseButtonsOnEdit) throw new PlatformError('buttons cannot be edited in', 'unsupported');
      // Like Telegram: "not modified" only when both the text and the buttons stay the same.
      const sameButtons = JSON.stringify(this.buttonsOf.get(message.id) ?? null) === JSON.stringify(buttons ?? null);
      if (current === text && sameButtons) throw new PlatformError('message is not modified', 'not-modified');
      this.messages.set(message.id, text);
      // An edit replaces the buttons: without any, the message has none.
      if (buttons) this.buttonsOf.set(message.id, buttons);
      else this.buttonsOf.delete(message.id);
    });
  }

  async draft(_conversation: ConversationRef, _draftId: number, text: string): Promise<void> {
    return this.call({ kind: 'draft', text }, () => {
      if (this.rules.refuseDrafts) throw new PlatformError('drafts are not available here', 'unsupported');
    });
  }

  async startStream(_conversation: ConversationRef, initialText: string): Promise<NativeStream> {
    const id = await this.call({ kind: 'startStream', text: initialText }, () => {
      if (this.rules.failNative === 'start') throw new PlatformError('streaming not enabled for this workspace', 'unsupported');
      const id = String(this.nextId++);
      this.messages.set(id, initialText);
      return id;
    }, { allowEmpty: true });
    return {
      append: (text) => this.call({ kind: 'append', messageId: id, text }, () => {
        if (this.rules.failNative === 'append') throw new PlatformError('stream is gone', 'other');
        this.messages.set(id, (this.messages.get(id) ?? '') + text);
      }),
      stop: (finalText) => this.call({ kind: 'stop', messageId: id, text: finalText }, () => {
        if (this.rules.failNative === 'stop') throw new PlatformError('stream could not be stopped', 'other');
        this.messages.set(id, finalText);
      }, { allowEmpty: true }),
    };
  }

  async typing(): Promise<void> {
    return this.call({ kind: 'typing' }, () => undefined);
  }

  private async call<T>(call: Omit<PlatformCall, 'result'>, perform: () => T, options: { allowEmpty?: boolean } = {}): Promise<T> {
    this.activeCalls++;
    this.maxConcurrentCalls = Math.max(this.maxConcurrentCalls, this.activeCalls);
    try {
      await pause(this.rules.latencyMs ?? 1);
      const retryAfterMs = call.kind === 'typing' ? undefined : this.rules.rateLimit?.(call);
      if (retryAfterMs !== undefined) throw new PlatformError('Too Many Requests', 'rate-limited', retryAfterMs);
      if (call.text !== undefined && call.kind !== 'append') this.check(call.text, options.allowEmpty ?? false);
      const result = perform();
      this.calls.push({ ...call, result: 'ok' });
      return result;
    } catch (error) {
      this.calls.push({ ...call, result: error instanceof PlatformError ? error.kind : 'other' });
      throw error;
    } finally {
      this.activeCalls--;
    }
  }

  private check(text: string, allowEmpty: boolean): void {
    if (!allowEmpty && text.trim() === '') throw new PlatformError('message text is empty', 'other');
    if (visibleLength(text, this.format) > (this.rules.maxMessageLength ?? 4096)) throw new PlatformError('message is too long', 'too-long');
    if (this.rules.refuseText?.(text)) throw new PlatformError("can't parse entities", 'bad-format');
  }
}
