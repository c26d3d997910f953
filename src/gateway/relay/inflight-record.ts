import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ConversationRef } from '../../contract.js';
import { taggedConversation } from '../state-keys.js';

/**
 * The shape of an in-flight answer in the state store (docs/architecture.md §5). One hash per
 * answer plus one sorted set per conversation shard indexing them by last update time, so
 * recovery finds stale answers with one range query per shard instead of a key scan. Every key
 * of an answer carries its conversation's shard tag (src/state/slots.ts): an answer's writes are
 * one MULTI in one Redis Cluster slot, and the index entry names the record's key by its shard.
 *
 *   inflight:index:{cN}           sorted set   member = answer id, score = updatedAt (ms)
 *   inflight:{cN}:<answer id>     hash         the fields of `InflightRecord`
 *   inflight:conversation:{cN}:…  set          the answer ids recorded in one conversation
 */
export const inflightIndexKey = (tag: string): string => `inflight:index:${tag}`;
export const inflightKey = (tag: string, answerId: string): string => `inflight:${tag}:${answerId}`;
/**
 * Set of the answer ids recorded in one conversation, so that the process taking a
 * conversation over resolves its interrupted answers (the note) before answering again,
 * without scanning the indexes.
 */
export const inflightConversationKey = (c: ConversationRef): string => `inflight:conversation:${taggedConversation(c)}`;

/**
 * An answer that takes longer than this refreshes its record, so other processes
 * can tell a long answer from a dead process.
 */
export const INFLIGHT_HEARTBEAT_MS = 20_000;

/** Default age after which a record whose owner cannot be checked directly counts as abandoned: 3 missed heartbeats. */
export const INFLIGHT_STALE_AFTER_MS = 3 * INFLIGHT_HEARTBEAT_MS;

/**
 * Floor of that age for owners on other hosts, whatever the caller asks: below
 * two heartbeats a live answer elsewhere could be mistaken for a dead one.
 */
export const INFLIGHT_MIN_SILENCE_MS = 2 * INFLIGHT_HEARTBEAT_MS;

/** A hash whose index entry was lost (crash during recovery) must not live forever. */
export const INFLIGHT_RECORD_TTL_MS = 24 * 60 * 60 * 1000;

/** Who is writing an answer: `boot` tells two incarnations of one pid apart (pid 1 in containers). */
export interface ProcessIdentity {
  host: string;
  pid: number;
  boot: string;
}

export const THIS_PROCESS: ProcessIdentity = { host: hostname(), pid: process.pid, boot: randomUUID() };

export interface InflightRecord {
  conversation: ConversationRef;
  owner: ProcessIdentity;
  /** Ids of the visible messages holding the answer so far, in reading order. */
  messageIds: string[];
  /** What the last of those messages showed, already rendered in the platform's format. */
  lastText: string;
  /**
   * The id of a native stream the answer opened (`NativeStream.id`, Slack's ts): it stays
   * "writing…" until ended, so recovery ends it (`Outbound.stopStream`). Not cleared when the
   * stream ends normally (a write saved per answer): ending it again is refused, and recovery
   * then sends the note instead.
   */
  streamId?: string;
  startedAt: number;
  updatedAt: number;
  /** Its process gave up on it (the answer stream failed): recover it at the next run. */
  abandoned: boolean;
}

export function encodeRecord(record: Partial<InflightRecord>): Record<string, string> {
  const fields: Record<string, string> = {};
  if (record.conversation) fields.conversation = JSON.stringify(record.conversation);
  if (record.owner) fields.owner = JSON.stringify(record.owner);
  if (record.messageIds) fields.messageIds = JSON.stringify(record.messageIds);
  if (record.lastText !== undefined) fields.lastText = record.lastText;
  if (record.streamId !== undefined) fields.streamId = record.streamId;
  if (record.startedAt !== undefined) fields.startedAt = String(record.startedAt);
  if (record.updatedAt !== undefined) fields.updatedAt = String(record.updatedAt);
  if (record.abandoned !== undefined) fields.abandoned = record.abandoned ? '1' : '0';
  return fields;
}

/** Null for a hash that is gone or was not written by us. */
export function decodeRecord(fields: Record<string, string>): InflightRecord | null {
  try {
    if (!fields.conversation || !fields.owner) return null;
    return {
      conversation: JSON.parse(fields.conversation) as ConversationRef,
      owner: JSON.parse(fields.owner) as ProcessIdentity,
      messageIds: fields.messageIds ? (JSON.parse(fields.messageIds) as string[]) : [],
      lastText: fields.lastText ?? '',
      ...(fields.streamId ? { streamId: fields.streamId } : {}),
      startedAt: Number(fields.startedAt ?? 0),
      updatedAt: Number(fields.updatedAt ?? 0),
      abandoned: fields.abandoned === '1',
    };
  } catch {
    return null;
  }
}
