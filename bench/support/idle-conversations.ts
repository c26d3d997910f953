/**
 * Fills a Redis with idle conversations in the project's own key layout, as fast as Redis takes them: what a
 * conversation answered four times and then left alone keeps, written by the project's own command producers
 * (gatewayKeys, TranscriptStore.appendCommands, DayIndex.commands, PauseStore.writeCommands, packEntries) and sent
 * through a RespPipe instead of one gateway turn each (a million turns would take hours).
 *
 * Per conversation (a Telegram private chat of bot `main`):
 * - `session:{cN}:…` its Chatbot Service session id, expiring SESSION_IDLE_TTL_MS after its last message;
 * - `transcript-packs:{cN}:…` its four questions and ~600-character answers (8 entries), packed into one Brotli
 *   chunk as the TranscriptPacker packs them once 8 entries were appended (policy.transcriptPackEntries), with the
 *   transcript's lifetime (TranscriptStore's, renewal included) from its last entry;
 * - its member in the day index of the chatbot's day it talked on (`digest:active:{cN}:<serial>:<day>`), which the
 *   day's digests read; kept as long as a transcript.
 * Every TTL is the one the project sets, less the time since the conversation's last entry.
 *
 * The first `yesterday` conversations talked yesterday (UTC), each with its own words: those are the day's
 * digests' conversations. The others talked on one of the 88 days before (2 to 89 days ago); their transcripts
 * are drawn from 128 distinct ones per day (packing a million transcripts would take the bench minutes of CPU), so
 * a chunk names the user of the conversation it was made for: same size, same compression, other digits.
 * The first `paused` were handed to a person lately (PauseStore.writeCommands: the pause's hash and its shard's
 * paused index, the handoff's three transcript entries appended unpacked, today's day index), the newest `full`
 * of them with the most entries a transcript keeps (24 chunks and 7 entries), as a long conversation leaves it.
 * bench/million.ts checks once that a conversation answered for real through the gateway leaves the same keys.
 */
import { randomUUID } from 'node:crypto';
import type { ConversationRef, PlatformUser } from '../../src/contract.js';
import {
  DEFAULT_GATEWAY_POLICY,
  gatewayKeys,
  packEntries,
  TranscriptStore,
  type TranscriptEntry,
} from '../../src/gateway/index.js';
import { DayIndex, PauseStore } from '../../src/handoff/index.js';
import type { AtomicCommand, RedisStateStore } from '../../src/state/index.js';
import { answerText, questionText } from './listing-talk.js';
import type { RespPipe } from './resp-pipe.js';

export const FILL_BOT = 'main';
export const FILL_PLATFORM = 'telegram';
/** Telegram user ids have ten digits; a private chat's id is its user's. */
const FIRST_ID = 7_000_000_000;
const DAY_MS = 24 * 60 * 60_000;
/** Entries per chunk: the packer packs a transcript once this process appended as many. */
const PACK = DEFAULT_GATEWAY_POLICY.transcriptPackEntries;
/** Questions and answers of an idle conversation. */
export const IDLE_TURNS = 4;
/** Distinct transcripts per day for the conversations of the days before yesterday. */
const POOL_PER_DAY = 128;
/** Paused conversations written through the store per pipelined batch. */
const PAUSE_BATCH = 500;

export interface FillPlan {
  size: number;
  paused: number;
  yesterday: number;
  full: number;
  /** The chatbot's serial number (the day index's key names it). */
  serial: string;
  /** The key prefix of the gateway that will read them. */
  prefix: string;
  now: number;
}

export interface FillReport {
  ms: number;
  commands: number;
  /** Of which spent packing transcripts (Brotli), ms. */
  packMs: number;
}

export const conversationOf = (n: number): ConversationRef => ({
  bot: FILL_BOT,
  platform: FILL_PLATFORM,
  id: String(FIRST_ID + n),
});

export const userOf = (n: number): PlatformUser => ({
  id: String(FIRST_ID + n),
  name: `User ${n}`,
  handle: `user${n}`,
});

/** Yesterday's first millisecond, UTC: the day the digests read (the chatbot's TimeZone is UTC in the bench). */
export function yesterdayStart(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - DAY_MS;
}

/** The day (UTC, `YYYY-MM-DD`) of a moment. */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** Conversation `n`'s question of turn `turn`; turn 2 of every third conversation leaves a phone and an e-mail. */
export function questionOf(n: number, turn: number): string {
  const contact =
    turn === 2 && n % 3 === 0
      ? { phoneDigits: String(1000 + (n % 9000)).padStart(4, '0'), email: `user${n}@example.com` }
      : undefined;
  return questionText(n * 1_000 + turn, contact);
}

export const answerOf = (n: number, turn: number): string => answerText(n * 1_000 + 500 + turn);

/** `turns` questions and answers of conversation `n` on the day starting at `dayStart`, 40 s apart. */
export function transcriptOf(n: number, dayStart: number, turns: number): TranscriptEntry[] {
  const first = dayStart + ((n * 7) % 1_200) * 60_000;
  const user = userOf(n);
  return Array.from({ length: turns }, (_, turn): TranscriptEntry[] => [
    { at: first + turn * 40_000, role: 'user', text: questionOf(n, turn), user },
    { at: first + turn * 40_000 + 3_000, role: 'bot', text: answerOf(n, turn) },
  ]).flat();
}

/** A handoff's entries, as the controller writes them. */
function handoffEntries(n: number, since: number): TranscriptEntry[] {
  return [
    { at: since, role: 'user', user: userOf(n), text: 'I want to talk to a person' },
    {
      at: since,
      role: 'system',
      event: 'handed-over',
      text: 'Handed over to a person: the user wrote the handoff phrase "talk to a person".',
    },
    {
      at: since + 1,
      role: 'bot',
      text: "I've asked one of our agents to join this chat. They usually reply within an hour during business hours.",
    },
  ];
}

interface Packed {
  chunks: Buffer[];
  /** The entries left unpacked (fewer than PACK), as the transcript's list holds them. */
  rest: TranscriptEntry[];
  lastAt: number;
}

function pack(entries: TranscriptEntry[]): Packed {
  const whole = Math.floor(entries.length / PACK) * PACK;
  const chunks: Buffer[] = [];
  for (let at = 0; at < whole; at += PACK) chunks.push(Buffer.from(packEntries(entries.slice(at, at + PACK))));
  return { chunks, rest: entries.slice(whole), lastAt: entries.at(-1)!.at };
}

/** Sends an AtomicCommand of the kinds the filler writes, under `prefix`, its TTL shortened by `age` ms. */
async function send(pipe: RespPipe, prefix: string, command: AtomicCommand, age: number): Promise<void> {
  const key = prefix + command.key;
  const ttl = (ms: number) => String(Math.max(1, Math.round(ms - age)));
  switch (command.op) {
    case 'set':
      return command.ttlMs === undefined
        ? pipe.command('SET', key, command.value)
        : pipe.command('SET', key, command.value, 'PX', ttl(command.ttlMs));
    case 'listPush':
      await pipe.command('RPUSH', key, ...command.values);
      if (command.ttlMs !== undefined) await pipe.command('PEXPIRE', key, ttl(command.ttlMs));
      return;
    case 'setAdd':
      return pipe.command('SADD', key, command.member);
    default:
      throw new Error(`bench: the filler does not write ${command.op}`);
  }
}

/** Fills Redis (`pipe` for the idle conversations, `state` for the pauses) as `plan` says. */
export async function fillConversations(pipe: RespPipe, state: RedisStateStore, plan: FillPlan): Promise<FillReport> {
  const started = performance.now();
  const policy = DEFAULT_GATEWAY_POLICY;
  const transcripts = new TranscriptStore(state, {
    maxEntries: policy.transcriptMaxEntries,
    ttlMs: policy.transcriptTtlMs,
  });
  const dayIndex = new DayIndex(state, policy.transcriptTtlMs);
  const yesterday = yesterdayStart(plan.now);
  const pool = new Map<string, Packed>();
  /** Each day set's longest TTL left, set once at the end (as each turn's EXPIRE would have left it). */
  const daySets = new Map<string, number>();
  // The chunks' lifetime is the transcript list's (the packing script keeps the longer of the two): an append's.
  const transcriptLifetime = (
    transcripts.appendCommands(conversationOf(0), [{ at: 0, role: 'bot', text: '' }])[0] as { ttlMs: number }
  ).ttlMs;
  let packMs = 0;
  const packTimed = (entries: TranscriptEntry[]): Packed => {
    const packing = performance.now();
    const packed = pack(entries);
    packMs += performance.now() - packing;
    return packed;
  };

  for (let n = 0; n < plan.size; n++) {
    const conversation = conversationOf(n);
    let packed: Packed;
    if (n < plan.yesterday) {
      packed = packTimed(transcriptOf(n, yesterday, n < plan.full ? 98 : IDLE_TURNS));
    } else {
      const daysAgo = 2 + (n % 88);
      const slot = `${daysAgo}:${n % POOL_PER_DAY}`;
      packed = pool.get(slot) ?? packTimed(transcriptOf(n, yesterday - (daysAgo - 1) * DAY_MS, IDLE_TURNS));
      pool.set(slot, packed);
    }
    const age = plan.now - packed.lastAt;
    await send(
      pipe,
      plan.prefix,
      { op: 'set', key: gatewayKeys.session(conversation), value: String(100_000 + n), ttlMs: policy.sessionIdleTtlMs },
      age,
    );
    const unpacked = transcripts.appendCommands(conversation, packed.rest);
    const packsKey = plan.prefix + gatewayKeys.transcriptPacks(conversation);
    await pipe.command('RPUSH', packsKey, ...packed.chunks);
    await pipe.command('PEXPIRE', packsKey, String(Math.round(transcriptLifetime - age)));
    for (const command of unpacked) await send(pipe, plan.prefix, command, age);
    const day = dayOf(packed.lastAt);
    for (const command of dayIndex.commands(conversation, plan.serial, day)) {
      if (command.op === 'expire') {
        const left = command.ttlMs - age;
        daySets.set(command.key, Math.max(daySets.get(command.key) ?? 0, left));
      } else await send(pipe, plan.prefix, command, age);
    }
  }
  for (const [key, left] of daySets) await pipe.command('PEXPIRE', plan.prefix + key, String(Math.round(left)));
  await pipe.flush();

  // The pauses through the store itself: few, and their writes are the controller's.
  const pauses = new PauseStore(state);
  for (let first = 0; first < plan.paused; first += PAUSE_BATCH) {
    const commands: AtomicCommand[] = [];
    for (let n = first; n < Math.min(plan.paused, first + PAUSE_BATCH); n++) {
      const conversation = conversationOf(n);
      // Conversation 0 is the newest: handed over a minute ago, each next one 5 s before.
      const since = plan.now - 60_000 - n * 5_000;
      commands.push(
        ...pauses.writeCommands({
          conversation,
          handoffId: randomUUID(),
          since,
          expiresAt: since + 24 * 3_600_000,
          reason: 'the user wrote the handoff phrase "talk to a person"',
          user: userOf(n),
          isGroup: false,
        }),
        ...transcripts.appendCommands(conversation, handoffEntries(n, since)),
        ...dayIndex.commands(conversation, plan.serial, dayOf(since)),
      );
    }
    await state.pipeline(commands);
  }
  return { ms: performance.now() - started, commands: pipe.commands, packMs };
}
