/**
 * Albums: Telegram delivers an album as several updates sharing one
 * media_group_id, each with one file, the caption on one of them. The user sent
 * one message, so the core gets one Inbound with every file and the caption.
 */
import type { Inbound } from '../../src/contract.js';

/**
 * How long to wait for the next part of an album after the last one arrived.
 * Telegram sends the parts back to back, well within this.
 */
export const ALBUM_WINDOW_MS = 600;

interface PendingAlbum {
  parts: Inbound[];
  timer: NodeJS.Timeout;
}

/** Merges album parts in message order: the first part's ids, every attachment, the caption found. */
export function mergeAlbum(parts: Inbound[]): Inbound {
  const ordered = [...parts].sort((a, b) => Number(a.platformMessageId) - Number(b.platformMessageId));
  const first = ordered[0];
  if (!first) throw new Error('mergeAlbum needs at least one part');
  return {
    ...first,
    text: ordered.find((p) => p.text !== '')?.text ?? '',
    attachments: ordered.flatMap((p) => p.attachments),
    addressed: ordered.some((p) => p.addressed),
  };
}

export class AlbumCollector {
  private readonly pending = new Map<string, PendingAlbum>();

  constructor(
    private readonly windowMs: number,
    private readonly deliver: (album: Inbound) => Promise<void>,
    /** A timer-driven delivery has no caller to reject to. */
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Holds a part until no further part of the same album arrives within the window. */
  add(groupId: string, part: Inbound): void {
    const key = `${part.conversation.id}/${groupId}`;
    const album = this.pending.get(key) ?? { parts: [], timer: undefined as unknown as NodeJS.Timeout };
    clearTimeout(album.timer);
    album.parts.push(part);
    album.timer = setTimeout(() => this.flush(key).catch(this.onError), this.windowMs);
    this.pending.set(key, album);
  }

  private async flush(key: string): Promise<void> {
    const album = this.pending.get(key);
    if (!album) return;
    this.pending.delete(key);
    clearTimeout(album.timer);
    await this.deliver(mergeAlbum(album.parts));
  }

  /** Delivers every album still waiting (on stop: better early than lost). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((key) => this.flush(key)));
  }
}
