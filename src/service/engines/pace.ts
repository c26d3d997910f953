import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The builtin engine's default speed, like a hosted model's (GPT-4o-class models
 * stream roughly 30-60 tokens per second), so the demo shows an answer being
 * written: several drafts or edits on Telegram, redraws in the console.
 */
export const DEFAULT_TOKENS_PER_SECOND = 40;

/** OpenAI's rule of thumb for English text: about four characters per token. */
const CHARS_PER_TOKEN = 4;

/** Waits `ms`, or rejects when the signal aborts (the caller stops then). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

const realSleep: Sleep = async (ms, signal) => {
  await sleep(ms, undefined, { signal });
};

/** The text's length in tokens, estimated from its characters (pacing needs no exact count). */
export function estimatedTokens(text: string): number {
  return text.length / CHARS_PER_TOKEN;
}

/**
 * Yields the fragments at `tokensPerSecond`: each one once the tokens before it
 * would have been generated. 0 (or less) yields them all at once, for benchmarks
 * and tests that need speed. Stops quietly when the signal aborts (the client left).
 */
export async function* paced(
  fragments: readonly string[],
  tokensPerSecond: number,
  signal: AbortSignal,
  wait: Sleep = realSleep,
): AsyncGenerator<string, void, void> {
  for (const [index, fragment] of fragments.entries()) {
    if (signal.aborted) return;
    // The first fragment comes at once (a hosted model's time to first token is the request itself).
    if (index > 0 && tokensPerSecond > 0) {
      try {
        await wait((estimatedTokens(fragment) / tokensPerSecond) * 1000, signal);
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
    }
    if (signal.aborted) return;
    yield fragment;
  }
}
