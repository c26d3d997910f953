/**
 * The per-conversation transcript: what the user, the bot, an operator and the
 * gateway itself said, newest last, capped. It is what a handoff e-mail quotes,
 * so every user message lands here, answered or not (docs/architecture.md §6).
 */
import type { Logger } from '../../logger.js';
import type { AtomicCommand, StateStore } from '../../state/index.js';
import { unpackEntries } from './transcript-pack.js';
import { MIN_CHUNK_ENTRIES, TranscriptPacker } from './transcript-packer.js';
import { gatewayKeys } from '../state-keys.js';
import type { ConversationRef, InboundAttachment } from '../../contract.js';
import type { TranscriptEntry, TranscriptFile } from './transcript-entry.js';

export type { TranscriptEntry, TranscriptEvent, TranscriptFile, TranscriptRole } from './transcript-entry.js';

export interface TranscriptLimits {
  maxEntries: number;
  ttlMs: number;
  /** Entries that, once written, are packed into one compressed chunk (transcript-packer.ts); 0 or absent: never. */
  packEntries?: number;
  logger?: Logger;
}

/** The longest a turn's transcript lifetime goes without renewal by this process: one PEXPIRE a day, not one per answer. */
const MOST_RENEWAL_INTERVAL_MS = 24 * 60 * 60_000;
/** Transcripts whose last renewal this process remembers; past it, it forgets them all (each then renews once more). */
const REMEMBERED_RENEWALS = 50_000;

/** The transcript's append of one turn: its commands, and what to call once they are written. */
export interface TurnAppend {
  commands: AtomicCommand[];
  /** The commands were written with the queue advance: the renewal they carried, if any, is remembered. */
  written(): void;
}

export class TranscriptStore {
  /**
   * A transcript lives `ttlMs` after its last entry. Its lifetime is renewed at most once per
   * `renewalIntervalMs` by this process's turns, set to `ttlMs + renewalIntervalMs` each time, so
   * that an entry appended before the next renewal still has `ttlMs` ahead of it; every other
   * append (the gateway's own, the handoff's) renews it as well. A push that creates the list
   * gives it its lifetime whatever this memory says (the script sees the list was new).
   */
  private readonly renewalIntervalMs: number;
  private readonly renewedAt = new Map<string, number>();
  /** Packs this process's transcripts into compressed chunks once they hold enough new entries. */
  readonly packer: TranscriptPacker;

  constructor(
    private readonly state: StateStore,
    private readonly limits: TranscriptLimits,
  ) {
    this.renewalIntervalMs = Math.min(MOST_RENEWAL_INTERVAL_MS, Math.floor(limits.ttlMs / 90));
    this.packer = new TranscriptPacker(state, {
      entries: limits.packEntries ?? 0,
      maxEntries: limits.maxEntries,
      ttlMs: limits.ttlMs + this.renewalIntervalMs,
      ...(limits.logger ? { logger: limits.logger } : {}),
    });
  }

  /**
   * The newest `limit` entries (all kept ones by default), oldest first: the packed chunks' (read whether or not this
   * process packs: another may have), then the entries written since. One round trip: both reads go out together.
   */
  async read(conversation: ConversationRef, limit = this.limits.maxEntries): Promise<TranscriptEntry[]> {
    const [raw, chunks] = await Promise.all([
      this.state.listRange(gatewayKeys.transcript(conversation), -limit, -1),
      this.state.listRangeBytes(gatewayKeys.transcriptPacks(conversation), -Math.ceil(limit / MIN_CHUNK_ENTRIES), -1),
    ]);
    const newer = raw.flatMap((line) => {
      try {
        return [JSON.parse(line) as TranscriptEntry];
      } catch {
        return [];
      }
    });
    if (newer.length >= limit || chunks.length === 0) return newer;
    return [...chunks.flatMap(unpackEntries), ...newer].slice(-limit);
  }

  /** Appends now (one round trip); inside a turn, prefer the turn's `record`, which batches. */
  async append(conversation: ConversationRef, ...entries: TranscriptEntry[]): Promise<void> {
    const commands = this.appendCommands(conversation, entries);
    if (commands.length === 0) return;
    await this.state.atomic(commands);
    this.packer.noted(conversation, entries.length);
  }

  /** The commands that append `entries`, to run inside another atomic batch; the lifetime renewed. */
  appendCommands(conversation: ConversationRef, entries: readonly TranscriptEntry[]): AtomicCommand[] {
    return entries.length === 0 ? [] : [this.push(conversation, entries, true)];
  }

  /** A turn's entries, with the lifetime renewed only when this process has not renewed it within the interval. */
  turnAppend(conversation: ConversationRef, entries: readonly TranscriptEntry[], now = Date.now()): TurnAppend {
    if (entries.length === 0) return { commands: [], written: () => undefined };
    const key = gatewayKeys.transcript(conversation);
    const last = this.renewedAt.get(key);
    const renew = last === undefined || now - last >= this.renewalIntervalMs;
    return {
      commands: [this.push(conversation, entries, renew)],
      written: () => {
        this.packer.noted(conversation, entries.length);
        if (!renew) return;
        if (this.renewedAt.size >= REMEMBERED_RENEWALS) this.renewedAt.clear();
        this.renewedAt.set(key, now);
      },
    };
  }

  private push(conversation: ConversationRef, entries: readonly TranscriptEntry[], renewTtl: boolean): AtomicCommand {
    return {
      op: 'listPush',
      key: gatewayKeys.transcript(conversation),
      values: entries.map((entry) => JSON.stringify(entry)),
      maxLength: this.limits.maxEntries,
      ttlMs: this.limits.ttlMs + this.renewalIntervalMs,
      renewTtl,
    };
  }
}

/** How an attachment is written in the transcript (and so in a handoff e-mail): its kind, name, type and size. */
export function describeAttachment(
  attachment: Pick<InboundAttachment, 'kind' | 'fileName' | 'mimeType' | 'size'>,
): string {
  const details = [
    attachment.fileName,
    attachment.mimeType,
    attachment.size === undefined ? undefined : `${attachment.size} bytes`,
  ].filter(Boolean);
  return details.length > 0 ? `${attachment.kind} (${details.join(', ')})` : attachment.kind;
}

/** How a file is kept in the transcript: its description's facts and its durable ref, never its bytes or a URL. */
export function transcriptFile(
  attachment: Pick<InboundAttachment, 'kind' | 'fileName' | 'mimeType' | 'size' | 'ref'>,
): TranscriptFile {
  return {
    kind: attachment.kind,
    ...(attachment.mimeType ? { mimeType: attachment.mimeType } : {}),
    ...(attachment.fileName ? { fileName: attachment.fileName } : {}),
    ...(attachment.size === undefined ? {} : { size: attachment.size }),
    ...(attachment.ref === undefined ? {} : { ref: attachment.ref }),
  };
}
