/**
 * The conversations handed back to the bot, newest last, for the inbox's history page: one
 * capped list in the state store (handoffKeys.history). A hand-back is rare next to messages,
 * so one global key is no hot spot, and a capped list needs no trimming of its own (a sorted
 * set per shard would need a rank trim the state interface does not have).
 */
import type { ConversationRef, PlatformUser } from '../../contract.js';
import type { StateStore } from '../../state/index.js';
import { formatConversationId, parseConversationId } from '../conversation-id.js';
import { handoffKeys } from '../keys.js';

/** Hand-backs kept: the history page shows the newest; an operator looking further back has the logs. */
export const HISTORY_MAX_ENTRIES = 1_000;
/** A history nobody adds to for this long is dropped. */
export const HISTORY_TTL_MS = 30 * 24 * 60 * 60_000;

export interface HandBack {
  conversation: ConversationRef;
  handoffId: string;
  user?: PlatformUser;
  /** When it was handed over. */
  since: number;
  /** When it was handed back. */
  at: number;
  /** Who handed it back: an operator's name, "the signed link", "the admin API", or "expired". */
  by: string;
  /** The account of the operator who handed it back, when they have one: the inbox shows its name as it is now. */
  account?: string;
  /** The operators' platform they handed it back from, if any. */
  via?: string;
  /** The operator who had claimed it, if any (their name then). */
  claimedBy?: string;
  /** Their account and platform, when there are (OperatorSignature). */
  claimedByAccount?: string;
  claimedVia?: string;
}

export class HandBackHistory {
  constructor(private readonly state: StateStore) {}

  async add(entry: HandBack): Promise<void> {
    const stored = { ...entry, conversation: formatConversationId(entry.conversation) };
    await this.state.listPush(handoffKeys.history, [JSON.stringify(stored)], {
      maxLength: HISTORY_MAX_ENTRIES,
      ttlMs: HISTORY_TTL_MS,
    });
  }

  /** Every kept hand-back, newest first. */
  async list(): Promise<HandBack[]> {
    const raw = await this.state.listRange(handoffKeys.history, 0, -1);
    return raw.flatMap((line) => decode(line) ?? []).reverse();
  }
}

function decode(line: string): HandBack | null {
  try {
    const parsed = JSON.parse(line) as Omit<HandBack, 'conversation'> & { conversation?: unknown };
    const conversation = typeof parsed.conversation === 'string' ? parseConversationId(parsed.conversation) : null;
    if (!conversation || typeof parsed.at !== 'number' || typeof parsed.by !== 'string') return null;
    return { ...parsed, conversation };
  } catch {
    return null;
  }
}
