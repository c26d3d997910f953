/**
 * Sends one reply of the gateway's own (a command's output, a refusal, an
 * apology): Markdown rendered for the platform and split within its limit, the
 * buttons and suggestions on the last message. Such a reply is the only thing
 * the user will see, so it gets the guarantees of a final answer
 * (platform-retry.ts): a 429 waits retry_after, an unreachable platform is
 * tried again with backoff up to the outage horizon.
 */
import { plainMarkup, renderChunks, renderMarkdown } from '../../format/index.js';
import {
  LAST_RESORT_ATTEMPTS,
  LAST_RESORT_BUDGET_MS,
  retryPlatformCall,
  type PlatformRetryPolicy,
} from './platform-retry.js';
import { PLATFORM_OUTAGE_HORIZON_MS } from '../gateway-policy.js';
import type { Button, Capabilities, ConversationRef, Outbound, SentMessage } from '../../contract.js';

export interface ReplyExtras {
  /** Dropped when the platform has no buttons: say in the text how to do without them. */
  buttons?: Button[];
  suggestions?: string[];
  inputPlaceholder?: string;
}

/**
 * A reply is a new message, like the last resort of a final answer, and nothing
 * comes after it: it honours retry_after as long as that last resort does.
 */
export const REPLY_RETRY_POLICY: Readonly<PlatformRetryPolicy> = Object.freeze({
  rateLimitAttempts: LAST_RESORT_ATTEMPTS,
  rateLimitBudgetMs: LAST_RESORT_BUDGET_MS,
  outageHorizonMs: PLATFORM_OUTAGE_HORIZON_MS,
});

/**
 * Outside a turn (an operator's message, the queue-full refusal) someone waits on the
 * call (an admin request, the adapter handing over an update): the platform gets a
 * minute to come back, and then the caller hears of the failure instead.
 */
export const OUT_OF_TURN_REPLY_RETRY: Readonly<Partial<PlatformRetryPolicy>> = Object.freeze({
  outageHorizonMs: 60_000,
});

export async function sendReply(
  outbound: Outbound,
  capabilities: Capabilities,
  conversation: ConversationRef,
  markdown: string,
  extras: ReplyExtras = {},
  signal?: AbortSignal,
  /** Overrides of REPLY_RETRY_POLICY, e.g. the configured outage horizon, or a short one outside a turn. */
  retry: Partial<PlatformRetryPolicy> = {},
): Promise<SentMessage[]> {
  const policy = { ...REPLY_RETRY_POLICY, ...retry };
  const chunks = renderChunks(markdown, capabilities.markup, capabilities.maxMessageLength);
  if (chunks.length === 0) chunks.push(renderMarkdown(markdown, plainMarkup) || '…');
  const sent: SentMessage[] = [];
  for (const [index, text] of chunks.entries()) {
    const last = index === chunks.length - 1;
    const message = {
      text,
      ...(last && capabilities.buttons && extras.buttons?.length ? { buttons: extras.buttons } : {}),
      ...(last && extras.suggestions?.length ? { suggestions: extras.suggestions } : {}),
      ...(last && extras.inputPlaceholder ? { inputPlaceholder: extras.inputPlaceholder } : {}),
    };
    sent.push(await retryPlatformCall(() => outbound.send(conversation, message), { policy, signal }));
  }
  return sent;
}
