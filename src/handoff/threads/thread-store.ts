/**
 * What the gateway keeps of a conversation's threads on the operators' platforms: one record per
 * door (the thread, the handoff it shows, how far the transcript was posted in it, the card last
 * shown), how a thread leads back to its conversation, which conversations' threads are behind,
 * and which operators' messages were handled already.
 */
import type { ConversationRef, PlatformUser, ThreadRef } from '../../contract.js';
import { conversationTag } from '../../gateway/index.js';
import type { AtomicCommand, StateStore } from '../../state/index.js';
import { rangeEveryShard } from '../../state/shard-walk.js';
import { formatConversationId, parseConversationId } from '../conversation-id.js';
import { threadKeys } from '../keys.js';

/** A door's operator message or press, remembered this long: past Slack's and Telegram's redeliveries. */
const SEEN_TTL_MS = 7 * 24 * 60 * 60_000;

export interface ThreadRecord {
  ref: ThreadRef;
  /** The handoff the thread shows (opened, or reopened, for it): its id, start and reason. */
  handoffId: string;
  since: number;
  /** When its pause runs out (what the card says once it has, with nobody writing). */
  expiresAt?: number;
  reason: string;
  /** Whether that handoff is still going: its card has buttons, the Telegram topic is open. */
  open: boolean;
  /** The newest transcript entry (its `at`) the thread has: posted in it, or quoted by the card. */
  relayedAt: number;
  /** The card last shown (its Markdown and buttons, as text): updated only when it changes. */
  card: string;
  /** Who the user is and whether they write in a group, for a takeover once the pause is gone. */
  user?: PlatformUser;
  isGroup: boolean;
  /** The link of the thread of the conversation's handoff before (Slack opens one per handoff). */
  previousUrl?: string;
}

export class ThreadStore {
  constructor(
    private readonly state: StateStore,
    /** How long a conversation's threads are remembered after the last change: as long as its transcript. */
    private readonly keepMs: number,
  ) {}

  /** The conversation's thread on each door, by the door's platform. */
  async read(conversation: ConversationRef): Promise<Map<string, ThreadRecord>> {
    const fields = await this.state.hashGetAll(threadKeys.threads(conversation));
    const records = new Map<string, ThreadRecord>();
    for (const [door, json] of Object.entries(fields)) {
      try {
        records.set(door, JSON.parse(json) as ThreadRecord);
      } catch {
        // A record this version cannot read is treated as none: a new thread opens.
      }
    }
    return records;
  }

  /** Keeps a new thread's record, and the way back from the thread to the conversation. */
  async opened(conversation: ConversationRef, door: string, record: ThreadRecord): Promise<void> {
    await this.write(conversation, door, record);
    await this.state.set(
      threadKeys.threadOf(door, conversation.bot, record.ref.id),
      formatConversationId(conversation),
      { ttlMs: this.keepMs },
    );
  }

  /** Keeps the record as it is now (the card shown, how far the thread got). */
  async write(conversation: ConversationRef, door: string, record: ThreadRecord): Promise<void> {
    const key = threadKeys.threads(conversation);
    await this.state.atomic([
      { op: 'hashSet', key, fields: { [door]: JSON.stringify(record) } },
      { op: 'expire', key, ttlMs: this.keepMs },
    ]);
  }

  /** The conversation a door's thread belongs to; null for a thread that is none of the handoff's. */
  async conversationOf(door: string, bot: string, thread: string): Promise<ConversationRef | null> {
    const id = await this.state.get(threadKeys.threadOf(door, bot, thread));
    return id ? parseConversationId(id) : null;
  }

  /** The write that puts the conversation's threads behind, due `at` (now: at once). */
  dueCommand(conversation: ConversationRef, at: number): AtomicCommand {
    return {
      op: 'sortedAdd',
      key: threadKeys.due(conversationTag(conversation)),
      score: at,
      member: formatConversationId(conversation),
    };
  }

  async markDue(conversation: ConversationRef, at: number): Promise<void> {
    await this.state.atomic([this.dueCommand(conversation, at)]);
  }

  /** Conversations due by `now`, soonest first, at most `limit`: one batch over every shard. */
  async due(now: number, limit: number): Promise<ConversationRef[]> {
    const listed = await rangeEveryShard(this.state, threadKeys.due, 0, now, limit);
    return listed.flatMap(({ member }) => parseConversationId(member) ?? []);
  }

  /**
   * Taken off the due list once its threads are up to date, unless a change came meanwhile: the run
   * moved it to `until` (its lease's end) before it began, and a change moves it back to now.
   */
  async done(conversation: ConversationRef, until: number): Promise<void> {
    const key = threadKeys.due(conversationTag(conversation));
    const member = formatConversationId(conversation);
    if ((await this.state.sortedScore(key, member)) === until) await this.state.sortedRemove(key, member);
  }

  lease(conversation: ConversationRef, ttlMs: number): Promise<string | null> {
    return this.state.acquireLock(threadKeys.lease(conversation), ttlMs);
  }

  async release(conversation: ConversationRef, token: string): Promise<void> {
    await this.state.releaseLock(threadKeys.lease(conversation), token);
  }

  /** True the first time a door's message or press is seen; false for a redelivery or a second replica's copy. */
  firstSight(door: string, bot: string, id: string): Promise<boolean> {
    return this.state.setIfAbsent(threadKeys.seen(door, bot, id), '1', SEEN_TTL_MS);
  }

  /** Forgets a message whose handling failed, so that its platform's redelivery is handled. */
  async forget(door: string, bot: string, id: string): Promise<void> {
    await this.state.del(threadKeys.seen(door, bot, id));
  }
}
