/**
 * Brings a conversation's threads up to date with its handoff, on every door of its bot: a handoff
 * without a thread gets one (the same user's topic reopened, or a new thread linking the one
 * before), the card follows the pause (claimed, handed back, ran out), the thread is told what the
 * user wrote since, and a handoff that ended closes it. Idempotent: run it again and nothing new
 * is posted, so any process may run it after any change, however often, once at a time
 * (the worker's lease).
 */
import { createHash } from 'node:crypto';
import { ThreadGoneError, type ConversationRef, type OperatorDoor, type ThreadCard } from '../../contract.js';
import type { Gateway, TranscriptEntry } from '../../gateway/index.js';
import type { HandoffController, PauseRecord } from '../pause/index.js';
import { composeCard, type CardFacts, type CardState } from './card.js';
import { belongsInThread, threadPostOf } from './thread-posts.js';
import type { ThreadRecord, ThreadStore } from './thread-store.js';

/** The transcript's newest entries read per run: the card's quote and what the thread has not had yet. */
const TRANSCRIPT_WINDOW = 60;

export interface ThreadSyncOptions {
  gateway: Gateway;
  controller: HandoffController;
  store: ThreadStore;
  /** The doors of each bot. */
  doors: ReadonlyMap<string, readonly OperatorDoor[]>;
  /** The gateway's public base URL (links through the gateway). */
  baseUrl: string;
  /** The signed link into the inbox for this conversation, when the inbox is on. */
  /**
   * The signed link into the inbox, when the inbox is on, valid from `from`: a card signs it from its
   * handoff's start, so the same card is the same text (and is not edited again for a new token).
   */
  inboxUrl(conversation: ConversationRef, from: number): string | undefined;
  chatbotName(bot: string): Promise<string>;
  platformName(platform: string): string;
}

export class ThreadSync {
  constructor(private readonly options: ThreadSyncOptions) {}

  /** Every door of the conversation's bot, each tried; the first failure is thrown after all were. */
  async sync(conversation: ConversationRef, now = Date.now()): Promise<void> {
    const doors = this.options.doors.get(conversation.bot) ?? [];
    if (doors.length === 0) return;
    const { controller, gateway, store } = this.options;
    const [pause, records, transcript] = await Promise.all([
      controller.pauses.read(conversation),
      store.read(conversation),
      gateway.transcript.read(conversation, TRANSCRIPT_WINDOW),
    ]);
    const failures: unknown[] = [];
    for (const door of doors) {
      try {
        await this.syncDoor(door, conversation, pause, records.get(door.platform), transcript, now);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  }

  private async syncDoor(
    door: OperatorDoor,
    conversation: ConversationRef,
    pause: PauseRecord | null,
    existing: ThreadRecord | undefined,
    transcript: readonly TranscriptEntry[],
    now: number,
  ): Promise<void> {
    const active = pause !== null && pause.expiresAt > now;
    if (active) {
      const record =
        existing?.handoffId === pause.handoffId
          ? existing
          : await this.open(door, conversation, pause, existing, transcript);
      await this.showCard(
        door,
        conversation,
        record,
        await this.cardOf(door, conversation, record, pause, transcript, now),
      );
      if (door.relays) await this.relay(door, conversation, record, transcript);
      return;
    }
    if (!existing) return;
    // What the user wrote before the hand-back still reaches the thread, then the card says it ended.
    if (existing.open && door.relays) await this.relay(door, conversation, existing, transcript);
    // Also once closed: a sync that ran between the pause's end and its transcript entry said "ran out".
    await this.showCard(
      door,
      conversation,
      existing,
      await this.cardOf(door, conversation, existing, null, transcript, now),
    );
    if (!existing.open) return;
    try {
      await door.close(existing.ref);
    } catch (error) {
      if (!(error instanceof ThreadGoneError)) throw error;
    }
    existing.open = false;
    await this.options.store.write(conversation, door.platform, existing);
  }

  /** A thread for this handoff: the conversation's last one reused where the door can, a new one otherwise. */
  private async open(
    door: OperatorDoor,
    conversation: ConversationRef,
    pause: PauseRecord,
    previous: ThreadRecord | undefined,
    transcript: readonly TranscriptEntry[],
  ): Promise<ThreadRecord> {
    const draft: ThreadRecord = {
      ref: { id: '', cardMessageId: '' },
      handoffId: pause.handoffId,
      since: pause.since,
      expiresAt: pause.expiresAt,
      reason: pause.reason,
      open: true,
      relayedAt: handedOverAt(pause, transcript),
      card: '',
      isGroup: pause.isGroup,
      ...(pause.user ? { user: pause.user } : previous?.user ? { user: previous.user } : {}),
      ...(previous?.ref.url ? { previousUrl: previous.ref.url } : {}),
    };
    const card = await this.cardOf(door, conversation, draft, pause, transcript, Date.now());
    let ref;
    try {
      ref = await door.open(card, previous?.ref);
    } catch (error) {
      if (!(previous && error instanceof ThreadGoneError)) throw error;
      ref = await door.open(card);
    }
    const record: ThreadRecord = { ...draft, ref, card: cardDigest(card) };
    // The same thread reopened (a Telegram topic) links to no other.
    if (previous && ref.id === previous.ref.id) delete record.previousUrl;
    await this.options.store.opened(conversation, door.platform, record);
    return record;
  }

  private async showCard(
    door: OperatorDoor,
    conversation: ConversationRef,
    record: ThreadRecord,
    card: ThreadCard,
  ): Promise<void> {
    const digest = cardDigest(card);
    if (digest === record.card) return;
    try {
      await door.updateCard(record.ref, card);
    } catch (error) {
      if (!(error instanceof ThreadGoneError)) throw error;
      // The card's message is gone with its thread: the next change opens a new one.
    }
    record.card = digest;
    await this.options.store.write(conversation, door.platform, record);
  }

  /** Posts what the thread has not had yet, oldest first, noting how far it got after each. */
  private async relay(
    door: OperatorDoor,
    conversation: ConversationRef,
    record: ThreadRecord,
    transcript: readonly TranscriptEntry[],
  ): Promise<void> {
    const pending = transcript.filter((entry) => entry.at > record.relayedAt);
    for (const entry of pending) {
      if (belongsInThread(entry, door.platform)) {
        const post = await threadPostOf(entry, {
          gateway: this.options.gateway,
          conversation,
          door,
          baseUrl: this.options.baseUrl,
          platformName: this.options.platformName,
        });
        if (post.markdown !== '' || post.files?.length) await door.post(record.ref, post);
      }
      record.relayedAt = entry.at;
      await this.options.store.write(conversation, door.platform, record);
    }
  }

  private async cardOf(
    door: OperatorDoor,
    conversation: ConversationRef,
    record: ThreadRecord,
    pause: PauseRecord | null,
    transcript: readonly TranscriptEntry[],
    now: number,
  ): Promise<ThreadCard> {
    const user = pause?.user ?? record.user;
    const facts: CardFacts = {
      platform: this.options.platformName(conversation.platform),
      chatbot: await this.options.chatbotName(conversation.bot),
      reason: record.reason,
      since: record.since,
      // The quote is of what came before the handoff (its trigger included): it changes with nothing written after.
      before: transcript.filter((entry) => entry.at <= record.since),
      state: pause ? stateOf(pause) : endedState(transcript, record, now),
      relays: door.relays,
      ...(user ? { user } : {}),
      ...(record.previousUrl ? { previousUrl: record.previousUrl } : {}),
    };
    const inboxUrl = this.options.inboxUrl(conversation, record.since);
    return composeCard(inboxUrl ? { ...facts, inboxUrl } : facts);
  }
}

function stateOf(pause: PauseRecord): CardState {
  return pause.claim ? { kind: 'claimed', by: pause.claim.by, at: pause.claim.at } : { kind: 'waiting' };
}

/** Handed back: the transcript's last hand-back says by whom; without one the pause ran out. */
function endedState(transcript: readonly TranscriptEntry[], record: ThreadRecord, now: number): CardState {
  const back = transcript.findLast((entry) => entry.event === 'handed-back' && entry.at >= record.since);
  if (back?.operator) return { kind: 'ended', at: back.at, by: back.operator };
  return back ? { kind: 'ended', at: back.at, said: back.text } : { kind: 'ended', at: record.expiresAt ?? now };
}

/**
 * Where the thread's posts start: the handoff's own entry when the transcript has it (entries
 * before it are the card's quote), else the pause's start.
 */
function handedOverAt(pause: PauseRecord, transcript: readonly TranscriptEntry[]): number {
  return (
    transcript.findLast((entry) => entry.event === 'handed-over' && entry.at >= pause.since - 60_000)?.at ?? pause.since
  );
}

function cardDigest(card: ThreadCard): string {
  return createHash('sha256')
    .update(JSON.stringify([card.title, card.markdown, card.actions.map((action) => action.kind)]))
    .digest('base64url')
    .slice(0, 22);
}
