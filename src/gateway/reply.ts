/**
 * Sends one reply of the gateway's own (a command's output, a refusal, an
 * apology): Markdown rendered for the platform and split within its limit, the
 * buttons and suggestions on the last message. A 429 is waited out a few times
 * (bounded), since such a reply is the only thing the user will see.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { renderChunks, renderMarkdown } from '../format/index.js';
import { PlatformError, type Button, type Capabilities, type ConversationRef, type Outbound, type SentMessage } from './types.js';

export interface ReplyExtras {
  /** Dropped when the platform has no buttons: say in the text how to do without them. */
  buttons?: Button[];
  suggestions?: string[];
  inputPlaceholder?: string;
}

/** Tries of one send while the platform answers 429 (the first included). */
export const REPLY_SEND_ATTEMPTS = 3;
/** The longest retry_after we wait for a reply; a longer one fails the send. */
export const REPLY_MAX_RETRY_WAIT_MS = 30_000;
/** A 429 without retry_after: Telegram's usual pause for one chat. */
const DEFAULT_RETRY_AFTER_MS = 1_000;

export async function sendReply(
  outbound: Outbound,
  capabilities: Capabilities,
  conversation: ConversationRef,
  markdown: string,
  extras: ReplyExtras = {},
  signal?: AbortSignal,
): Promise<SentMessage[]> {
  const chunks = renderChunks(markdown, capabilities.format, capabilities.maxMessageLength);
  if (chunks.length === 0) chunks.push(renderMarkdown(markdown, 'plain') || '…');
  const sent: SentMessage[] = [];
  for (const [index, text] of chunks.entries()) {
    const last = index === chunks.length - 1;
    const message = {
      text,
      ...(last && capabilities.buttons && extras.buttons?.length ? { buttons: extras.buttons } : {}),
      ...(last && extras.suggestions?.length ? { suggestions: extras.suggestions } : {}),
      ...(last && extras.inputPlaceholder ? { inputPlaceholder: extras.inputPlaceholder } : {}),
    };
    sent.push(await sendWithRetries(() => outbound.send(conversation, message), signal));
  }
  return sent;
}

async function sendWithRetries<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const waitMs = error instanceof PlatformError && error.kind === 'rate-limited' ? (error.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS) : null;
      if (waitMs === null || attempt >= REPLY_SEND_ATTEMPTS || waitMs > REPLY_MAX_RETRY_WAIT_MS || signal?.aborted) throw error;
      await sleep(waitMs, undefined, signal ? { signal } : {});
    }
  }
}
