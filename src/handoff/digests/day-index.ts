/**
 * Which conversations of a chatbot had a turn on a local day: the digests read it instead of every
 * transcript. A turn adds its conversation to the day's set with its queue advance (`ctx.later`:
 * no write of its own, and nothing lost to a crash), at most once per conversation and day in a
 * process (the next turns of that day add nothing). One set per shard, with the conversations' own
 * tag, so the advance stays in one Redis Cluster slot; reading a day walks the 256 shards.
 */
import { DateTime } from 'luxon';
import type { ConversationRef } from '../../contract.js';
import { conversationTag, type TurnContext } from '../../gateway/index.js';
import type { AtomicCommand, StateStore } from '../../state/index.js';
import { allShardTags } from '../../state/slots.js';
import { formatConversationId, parseConversationId } from '../conversation-id.js';
import { digestKeys } from '../keys.js';

/** Conversations this process remembers having noted today; past it, it forgets them all (each is noted once more). */
const REMEMBERED = 100_000;

export class DayIndex {
  private readonly noted = new Map<string, string>();
  /** Turns whose writes carry a note, until they are committed (a turn cut off notes nothing). */
  private readonly pending = new WeakMap<TurnContext, { id: string; day: string }>();

  constructor(
    private readonly state: StateStore,
    /** How long a day's set is kept: as long as the transcripts it points to. */
    private readonly keepMs: number,
  ) {}

  /** The local date of `now` in `zone` (UTC when unset or unknown), `YYYY-MM-DD`. */
  static dayOf(now: number, zone: string | undefined): string {
    const local = DateTime.fromMillis(now, { zone: zone || 'UTC' });
    return (local.isValid ? local : DateTime.fromMillis(now, { zone: 'UTC' })).toISODate()!;
  }

  /**
   * Adds to the turn's writes the note of its conversation for its chatbot's day, unless this process
   * has written it already; it counts as written once the turn is committed (`committed`).
   */
  async noteTurn(ctx: TurnContext, now = Date.now()): Promise<void> {
    const settings = await ctx.settings();
    const day = DayIndex.dayOf(now, settings.TimeZone);
    const id = formatConversationId(ctx.conversation);
    if (this.noted.get(id) === day) return;
    this.pending.set(ctx, { id, day });
    ctx.later(...this.commands(ctx.conversation, ctx.bot.serialNumber, day));
  }

  /** The turn's writes are in Redis: its conversation need not be noted again today by this process. */
  committed(ctx: TurnContext): void {
    const note = this.pending.get(ctx);
    if (!note) return;
    if (this.noted.size >= REMEMBERED) this.noted.clear();
    this.noted.set(note.id, note.day);
  }

  commands(conversation: ConversationRef, serial: string, day: string): AtomicCommand[] {
    const key = digestKeys.active(conversationTag(conversation), serial, day);
    return [
      { op: 'setAdd', key, member: formatConversationId(conversation) },
      { op: 'expire', key, ttlMs: this.keepMs },
    ];
  }

  /** The chatbot's conversations of that day, from every shard (one batch). */
  async conversations(serial: string, day: string): Promise<ConversationRef[]> {
    const tags = allShardTags();
    const replies = (await this.state.batch(
      tags.map((tag) => ({ op: 'setMembers', key: digestKeys.active(tag, serial, day) }) as const),
    )) as string[][];
    return replies.flat().flatMap((member) => parseConversationId(member) ?? []);
  }
}
