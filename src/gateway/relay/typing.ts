import type { Capabilities, ConversationRef, Outbound } from '../../contract.js';

/**
 * The indicator is shown only when nothing is visible this long after the answer
 * step began. A quick answer (short, cached, or a reply instead of an answer)
 * appears before then, and an indicator that would be on screen for a fraction of
 * a second before the text only flickers, while costing a platform call per answer.
 * 400 ms: past the few hundred ms such answers take, well before the second or so
 * after which a user starts wondering whether the bot heard them. Counted from the
 * start, so a slow media upload or a slow service still shows "typing…" early.
 */
export const TYPING_DEFER_MS = 400;

/**
 * Refresh the indicator when this fraction of its lifetime has passed, so it
 * never blinks out between two refreshes (Telegram's lasts 5 s → every 4 s,
 * WhatsApp's 25 s → every 20 s).
 */
export const TYPING_REFRESH_FRACTION = 0.8;

/** Floor on the refresh period, whatever a capability says, so a typo cannot flood the platform. */
export const TYPING_MIN_REFRESH_MS = 10;

export interface TypingHandle {
  /** Stops refreshing (nothing is sent if the indicator was not shown yet); resolves once a typing call still in flight has finished. */
  stop(): Promise<void>;
}

export interface TypingOptions {
  /** How long nothing must be visible before the indicator is shown (default TYPING_DEFER_MS; 0: at once). */
  deferMs?: number;
  /** The platform id of the user's message being answered, handed to `Outbound.typing`. */
  replyingTo?: string;
}

/**
 * Shows "typing…" once `deferMs` have passed without `stop()`, and refreshes it
 * before it expires, until `stop()`.
 */
export function startTyping(
  outbound: Outbound,
  capabilities: Capabilities,
  conversation: ConversationRef,
  options: TypingOptions = {},
): TypingHandle {
  const typing = outbound.typing?.bind(outbound);
  if (!typing || capabilities.typingLifetimeMs <= 0) return { stop: async () => undefined };

  const refreshMs = Math.max(
    TYPING_MIN_REFRESH_MS,
    Math.floor(capabilities.typingLifetimeMs * TYPING_REFRESH_FRACTION),
  );
  let stopped = false;
  let inFlight: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  const refresh = (): void => {
    if (stopped) return;
    // Never two typing calls at once: a slow one is simply not repeated.
    if (!inFlight) {
      // A lost typing indicator is cosmetic; it must never fail or delay an answer.
      const shown =
        options.replyingTo === undefined
          ? typing(conversation)
          : typing(conversation, { platformMessageId: options.replyingTo });
      inFlight = shown
        .catch(() => undefined)
        .finally(() => {
          inFlight = null;
        });
    }
    timer = setTimeout(refresh, refreshMs);
  };
  const deferMs = Math.max(0, options.deferMs ?? TYPING_DEFER_MS);
  if (deferMs === 0) refresh();
  else timer = setTimeout(refresh, deferMs);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (inFlight) await inFlight;
    },
  };
}
