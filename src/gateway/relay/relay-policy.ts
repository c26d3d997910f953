import type { Capabilities } from '../../contract.js';
import type { PacingPolicy } from './types.js';

/**
 * Drafts (Telegram sendMessageDraft) are animated previews meant for streaming;
 * the Vercel Chat SDK flushes them every 250 ms. A little slower keeps us clear of
 * the per-chat flood limit, which Telegram does not publish.
 */
export const DEFAULT_DRAFT_INTERVAL_MS = 300;

/** OpenClaw's Telegram preview waits for ~30 characters before its first send. */
export const DEFAULT_MIN_INITIAL_CHARS = 30;

/** Below this growth an intermediate edit costs a rate-limit slot for almost nothing. */
export const DEFAULT_MIN_GROWTH_CHARS = 40;

/** Final updates: three tries inside 30 s, then a new message rather than a lost answer. */
export const DEFAULT_FINAL_ATTEMPTS = 3;
export const DEFAULT_FINAL_RETRY_BUDGET_MS = 30_000;

/**
 * With no sentence end in sight, an intermediate render is cut at the raw end of
 * the text once it has grown this many times the minimum growth (a long list or
 * a code block has no full stops, and must still move).
 */
export const SENTENCE_WAIT_FACTOR = 4;

/**
 * A message is edited only during this fraction of the platform's edit window
 * (`Capabilities.editWindowMs`), then the answer continues in a new message: an
 * edit sent at the very end of the window could arrive after it and be refused.
 * A fraction rather than a fixed margin: the windows range from minutes
 * (WhatsApp, 15 min: edits stop after 13.5) to days (Telegram, 48 h).
 */
export const EDIT_WINDOW_USABLE_FRACTION = 0.9;

export function resolvePacing(capabilities: Capabilities, overrides: Partial<PacingPolicy> = {}): PacingPolicy {
  return {
    editIntervalMs: overrides.editIntervalMs ?? capabilities.editIntervalMs,
    draftIntervalMs: overrides.draftIntervalMs ?? DEFAULT_DRAFT_INTERVAL_MS,
    minInitialChars: overrides.minInitialChars ?? DEFAULT_MIN_INITIAL_CHARS,
    minGrowthChars: overrides.minGrowthChars ?? DEFAULT_MIN_GROWTH_CHARS,
    finalAttempts: Math.max(1, overrides.finalAttempts ?? DEFAULT_FINAL_ATTEMPTS),
    finalRetryBudgetMs: overrides.finalRetryBudgetMs ?? DEFAULT_FINAL_RETRY_BUDGET_MS,
  };
}
