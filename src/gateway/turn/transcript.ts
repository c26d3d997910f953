/**
 * The per-conversation transcript: what the user, the bot, an operator and the
 * gateway itself said, newest last, capped. It is what a handoff e-mail quotes,
 * so every user message lands here, answered or not (docs/architecture.md §6).
 */
import type { AtomicCommand, StateStore } from '../../state/index.js';
import { gatewayKeys } from '../state-keys.js';
import type { ConversationRef, InboundAttachment, PlatformUser } from '../../contract.js';

export type TranscriptRole = 'user' | 'bot' | 'operator' | 'system';

export interface TranscriptEntry {
  /** ms since epoch. */
  at: number;
  role: TranscriptRole;
  /** What was said: the user's text, or the Markdown the bot answered. */
  text: string;
  /** One description per attachment, e.g. "photo (image/jpeg, 120 KB)". */
  attachments?: string[];
  /** Who wrote it (user entries; operator entries may name the operator). */
  user?: PlatformUser;
}

export interface TranscriptLimits {
  maxEntries: number;
  ttlMs: number;
}

export class TranscriptStore {
  constructor(
    private readonly state: StateStore,
    private readonly limits: TranscriptLimits,
  ) {}

  /** The newest `limit` entries (all kept ones by default), oldest first. */
  async read(conversation: ConversationRef, limit = this.limits.maxEntries): Promise<TranscriptEntry[]> {
    const raw = await this.state.listRange(gatewayKeys.transcript(conversation), -limit, -1);
    return raw.flatMap((line) => {
      try {
        return [JSON.parse(line) as TranscriptEntry];
      } catch {
        return [];
      }
    });
  }

  /** Appends now (one round trip); inside a turn, prefer the turn's `record`, which batches. */
  async append(conversation: ConversationRef, ...entries: TranscriptEntry[]): Promise<void> {
    const commands = this.appendCommands(conversation, entries);
    if (commands.length > 0) await this.state.atomic(commands);
  }

  /** The commands that append `entries`, to run inside another atomic batch. */
  appendCommands(conversation: ConversationRef, entries: readonly TranscriptEntry[]): AtomicCommand[] {
    if (entries.length === 0) return [];
    const key = gatewayKeys.transcript(conversation);
    return [
      { op: 'listPush', key, values: entries.map((entry) => JSON.stringify(entry)), maxLength: this.limits.maxEntries },
      { op: 'expire', key, ttlMs: this.limits.ttlMs },
    ];
  }
}

/** How an attachment is written in the transcript (and so in a handoff e-mail): its kind, name, type and size. */
export function describeAttachment(attachment: Pick<InboundAttachment, 'kind' | 'fileName' | 'mimeType' | 'size'>): string {
  const details = [attachment.fileName, attachment.mimeType, attachment.size === undefined ? undefined : `${attachment.size} bytes`]
    .filter(Boolean);
  return details.length > 0 ? `${attachment.kind} (${details.join(', ')})` : attachment.kind;
}
