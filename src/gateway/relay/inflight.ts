import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import type { AtomicCommand, StateStore } from '../../state/index.js';
import type { ConversationRef, SentMessage } from '../../contract.js';
import { conversationTag } from '../state-keys.js';
import {
  INFLIGHT_HEARTBEAT_MS,
  INFLIGHT_RECORD_TTL_MS,
  THIS_PROCESS,
  encodeRecord,
  inflightConversationKey,
  inflightIndexKey,
  inflightKey,
  type ProcessIdentity,
} from './inflight-record.js';

export interface InflightRecorderOptions {
  heartbeatMs?: number;
  /** The process recorded as owner; another identity only in tests of recovery. */
  owner?: ProcessIdentity;
  /** Clock for the recorded times; another one only in tests of recovery. */
  now?: () => number;
}

/**
 * Keeps a record of every answer being shown, so that a process that restarts
 * after a crash can tell the user that a half-written answer was interrupted
 * (`recoverInterruptedAnswers`). Writes are few on purpose: one with the first
 * message or native stream the answer leaves on screen (none for drafts or typing,
 * which leave nothing to recover), one per further message id, one when it ends
 * (usually with the turn's queue advance), and a heartbeat only for answers that
 * outlive `heartbeatMs` (which also saves the latest visible text).
 */
export class InflightRecorder {
  private readonly heartbeatMs: number;
  private readonly owner: ProcessIdentity;
  private readonly now: () => number;

  constructor(
    private readonly state: StateStore,
    options: InflightRecorderOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? INFLIGHT_HEARTBEAT_MS;
    this.owner = options.owner ?? THIS_PROCESS;
    this.now = options.now ?? Date.now;
  }

  /** Records that an answer starts in `conversation`. Never throws: a state failure only loses recoverability. */
  begin(conversation: ConversationRef, logger: Logger): InflightAnswer {
    return new InflightAnswer(this.state, randomUUID(), conversation, this.owner, this.now, this.heartbeatMs, logger);
  }
}

export class InflightAnswer {
  private readonly key: string;
  /** The index of the conversation's shard: the record, its index entry and the conversation's set share one slot. */
  private readonly indexKey: string;
  private readonly conversationKey: string;
  private readonly messageIds: string[] = [];
  private streamId: string | undefined;
  private lastText = '';
  private savedText = '';
  /** How many of `messageIds` the store holds. */
  private savedMessageCount = 0;
  /** Writes of one answer run in order, off the platform's path (nobody awaits Redis between edits). */
  private writes: Promise<void>;
  private closed = false;

  /** The record is written with the first thing the answer leaves on screen (`messageCreated`, `textShown`). */
  private written = false;
  private readonly startedAt: number;
  private readonly heartbeatMs: number;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly state: StateStore,
    readonly id: string,
    private readonly conversation: ConversationRef,
    private readonly owner: ProcessIdentity,
    private readonly now: () => number,
    heartbeatMs: number,
    private readonly logger: Logger,
  ) {
    const tag = conversationTag(conversation);
    this.key = inflightKey(tag, id);
    this.indexKey = inflightIndexKey(tag);
    this.conversationKey = inflightConversationKey(conversation);
    this.startedAt = now();
    this.heartbeatMs = heartbeatMs;
    this.writes = Promise.resolve();
  }

  /** A new visible message holds part of the answer: saved at once, since recovery needs its id. */
  messageCreated(message: SentMessage, visibleText: string): void {
    this.messageIds.push(message.id);
    this.lastText = visibleText;
    this.savedText = visibleText;
    this.savedMessageCount = this.messageIds.length;
    const updatedAt = this.now();
    if (this.writeRecord(updatedAt)) return;
    this.write([
      {
        op: 'hashSet',
        key: this.key,
        fields: encodeRecord({ messageIds: this.messageIds, lastText: visibleText, updatedAt }),
      },
      { op: 'sortedAdd', key: this.indexKey, score: updatedAt, member: this.id },
    ]);
  }

  /**
   * A native stream now holds the answer: saved at once, since a stream left open stays
   * "writing…" and recovery needs its id to end it (`Outbound.stopStream`).
   */
  streamStarted(streamId: string): void {
    this.streamId = streamId;
    const updatedAt = this.now();
    if (this.writeRecord(updatedAt)) return;
    this.write([
      { op: 'hashSet', key: this.key, fields: encodeRecord({ streamId, updatedAt }) },
      { op: 'sortedAdd', key: this.indexKey, score: updatedAt, member: this.id },
    ]);
  }

  /**
   * The first write: the whole record, its index entries, and the heartbeat. Nothing before:
   * an answer that shows nothing lasting (drafts, typing until the final) leaves nothing to
   * recover, and costs no round trip. True when this call wrote it.
   */
  private writeRecord(updatedAt: number): boolean {
    if (this.written || this.closed) return false;
    this.written = true;
    const fields = encodeRecord({
      conversation: this.conversation,
      owner: this.owner,
      messageIds: this.messageIds,
      lastText: this.lastText,
      ...(this.streamId !== undefined ? { streamId: this.streamId } : {}),
      startedAt: this.startedAt,
      updatedAt,
      abandoned: false,
    });
    this.savedText = this.lastText;
    this.savedMessageCount = this.messageIds.length;
    this.write([
      { op: 'hashSet', key: this.key, fields },
      { op: 'expire', key: this.key, ttlMs: INFLIGHT_RECORD_TTL_MS },
      { op: 'sortedAdd', key: this.indexKey, score: updatedAt, member: this.id },
      { op: 'setAdd', key: this.conversationKey, member: this.id },
      { op: 'expire', key: this.conversationKey, ttlMs: INFLIGHT_RECORD_TTL_MS },
    ]);
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    // A heartbeat alone must not keep a shutting-down process alive.
    this.heartbeat.unref();
    return true;
  }

  /** The last message now shows this text; saved with the next heartbeat, not now. */
  textShown(visibleText: string): void {
    this.lastText = visibleText;
    // Text shown without a message or stream saved first still leaves something to recover: a record from now on.
    this.writeRecord(this.now());
  }

  /**
   * A cut-off answer's partial final went out in `messages` (in reading order), and its message
   * is answered again: the process answering it notes the last of them, which shows `lastText`.
   * An answer that left nothing lasting before (drafts, typing only, or nothing yet) gets its
   * record now; otherwise leave() saves the messages the final added and what the last shows.
   */
  partialFinalShown(messages: readonly SentMessage[], lastText: string): void {
    if (messages.length === 0) return;
    this.messageIds.push(...messages.map((message) => message.id).filter((id) => !this.messageIds.includes(id)));
    this.lastText = lastText;
    // A record written already is brought up to date by leave().
    this.writeRecord(this.now());
  }

  /** Resolves once every write so far has reached the store (or failed and been logged). */
  settled(): Promise<void> {
    return this.writes;
  }

  /** The final answer was delivered: nothing left to recover. */
  async finish(): Promise<void> {
    const commands = await this.finishCommands();
    if (commands.length > 0) this.write(commands);
    await this.writes;
  }

  /**
   * The writes that remove the record, for a caller that commits them in its own
   * transaction (the pipeline's queue advance), saving a round trip per answer.
   * Until they are committed the record stays, so a crash in between is recovered.
   */
  async finishCommands(): Promise<AtomicCommand[]> {
    this.close();
    await this.writes;
    if (!this.written) return [];
    return [
      { op: 'del', key: this.key },
      { op: 'sortedRemove', key: this.indexKey, member: this.id },
      { op: 'setRemove', key: this.conversationKey, member: this.id },
    ];
  }

  /**
   * The turn was cut off (stopping, or the lock moved): its message stays queued and is
   * answered again. The record stays as it is, so whoever answers again first adds the
   * note to what this answer showed (`recoverConversation`); only the heartbeat stops.
   */
  async leave(): Promise<void> {
    this.close();
    if (this.written && (this.lastText !== this.savedText || this.messageIds.length !== this.savedMessageCount)) {
      this.write([
        {
          op: 'hashSet',
          key: this.key,
          fields: encodeRecord({ messageIds: this.messageIds, lastText: this.lastText }),
        },
      ]);
    }
    await this.writes;
  }

  private beat(): void {
    if (this.closed) return;
    const updatedAt = this.now();
    const fields = encodeRecord({
      updatedAt,
      ...(this.lastText !== this.savedText ? { lastText: this.lastText } : {}),
    });
    this.savedText = this.lastText;
    this.write([
      { op: 'hashSet', key: this.key, fields },
      { op: 'sortedAdd', key: this.indexKey, score: updatedAt, member: this.id },
    ]);
  }

  private close(): void {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
  }

  private write(commands: AtomicCommand[]): void {
    this.writes = this.writes
      .then(async () => {
        await this.state.atomic(commands);
      })
      .catch((error: unknown) => {
        this.logger.warn({ err: error, answer: this.id }, 'could not save the in-flight answer record');
      });
  }
}
