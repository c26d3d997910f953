import type { Capabilities, ConversationRef, Outbound } from '../../contract.js';

/**
 * Refresh the indicator when this fraction of its lifetime has passed, so it
 * never blinks out between two refreshes (Telegram's lasts 5 s → every 4 s,
 * WhatsApp's 25 s → every 20 s).
 */
export const TYPING_REFRESH_FRACTION = 0.8;

/** Floor on the refresh period, whatever a capability says, so a typo cannot flood the platform. */
export const TYPING_MIN_REFRESH_MS = 10;

export interface TypingHandle {
  /** Stops refreshing; resolves once a typing call still in flight has finished. */
  stop(): Promise<void>;
}

/** Shows "typing…" now and refreshes it before it expires, until `stop()`. */
export function startTyping(outbound: Outbound, capabilities: Capabilities, conversation: ConversationRef): TypingHandle {
  const typing = outbound.typing?.bind(outbound);
  if (!typing || capabilities.typingLifetimeMs <= 0) return { stop: async () => undefined };

  const refreshMs = Math.max(TYPING_MIN_REFRESH_MS, Math.floor(capabilities.typingLifetimeMs * TYPING_REFRESH_FRACTION));
  let stopped = false;
  let inFlight: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  const refresh = (): void => {
    if (stopped) return;
    // Never two typing calls at once: a slow one is simply not repeated.
    if (!inFlight) {
      // A lost typing indicator is cosmetic; it must never fail or delay an answer.
      inFlight = typing(conversation)
        .catch(() => undefined)
        .finally(() => {
          inFlight = null;
        });
    }
    timer = setTimeout(refresh, refreshMs);
  };
  refresh();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (inFlight) await inFlight;
    },
  };
}
