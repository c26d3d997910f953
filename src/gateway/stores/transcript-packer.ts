/**
 * Packs transcripts off the answer's path: each process counts the entries it appends to a conversation's transcript,
 * and once a conversation has `entries` of them unpacked, moves them into one compressed chunk
 * (transcript-pack.ts) with one read and one script, later, one conversation at a time. An answer never waits for it;
 * a packing that loses a race (an entry appended meanwhile, another replica packing first) writes nothing, and the
 * next appends ask again. A transcript is readable at every moment: its chunks, then the entries not packed yet.
 */
import type { ConversationRef } from '../../contract.js';
import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import { gatewayKeys } from '../state-keys.js';
import { packEntries } from './transcript-pack.js';
import type { TranscriptEntry } from './transcript-entry.js';

/** The fewest entries a chunk holds: how many chunks a read of the newest N needs is bounded by it. */
export const MIN_CHUNK_ENTRIES = 4;
/** Conversations whose counts this process keeps; past it, it forgets them all (each then counts afresh). */
const REMEMBERED = 50_000;
/** Conversations waiting for their packing; past it, the newest are not queued (their next appends ask again). */
const MOST_WAITING = 10_000;

export interface TranscriptPackerOptions {
  /** Entries appended since the last packing that make a chunk; 0: never pack. */
  entries: number;
  /** The transcript's cap (policy.transcriptMaxEntries): chunks past it are dropped, oldest first. */
  maxEntries: number;
  /** The transcript's lifetime, when its keys have none left. */
  ttlMs: number;
  logger?: Logger;
}

export class TranscriptPacker {
  private readonly counts = new Map<string, number>();
  private readonly waiting = new Map<string, ConversationRef>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly state: StateStore,
    private readonly options: TranscriptPackerOptions,
  ) {}

  get enabled(): boolean {
    return this.options.entries >= MIN_CHUNK_ENTRIES;
  }

  /** `appended` entries were written to the conversation's transcript by this process. */
  noted(conversation: ConversationRef, appended: number): void {
    if (!this.enabled || appended <= 0) return;
    const key = gatewayKeys.transcript(conversation);
    const count = (this.counts.get(key) ?? 0) + appended;
    if (count < this.options.entries) {
      if (this.counts.size >= REMEMBERED) this.counts.clear();
      this.counts.set(key, count);
      return;
    }
    this.counts.delete(key);
    if (this.waiting.size < MOST_WAITING) this.waiting.set(key, conversation);
    this.running ??= this.work().finally(() => (this.running = null));
  }

  /** Resolves once every packing asked for so far is done (benches, tests, a graceful stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async work(): Promise<void> {
    // After the turn that asked: its answer and the queue's next one come first.
    await new Promise((resolve) => setImmediate(resolve));
    for (const [key, conversation] of this.waiting) {
      this.waiting.delete(key);
      try {
        await this.pack(conversation);
      } catch (error) {
        // Nothing is lost: the entries stay as they were, readable, and the next appends ask again.
        this.options.logger?.warn({ err: error, key }, 'a transcript could not be packed; it stays as it was');
      }
    }
  }

  private async pack(conversation: ConversationRef): Promise<void> {
    const list = gatewayKeys.transcript(conversation);
    const raw = await this.state.listRange(list, 0, -1);
    if (raw.length < MIN_CHUNK_ENTRIES) return;
    const entries = raw.flatMap((line): TranscriptEntry[] => {
      try {
        return [JSON.parse(line) as TranscriptEntry];
      } catch {
        return [];
      }
    });
    await this.state.listPackInto(
      list,
      gatewayKeys.transcriptPacks(conversation),
      { length: raw.length, last: raw.at(-1)! },
      packEntries(entries),
      {
        maxChunks: Math.ceil(this.options.maxEntries / MIN_CHUNK_ENTRIES) + 1,
        ttlMs: this.options.ttlMs,
      },
    );
  }
}
