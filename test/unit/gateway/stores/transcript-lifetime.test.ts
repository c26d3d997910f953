/**
 * A transcript lives its TTL after its last entry (src/gateway/stores/transcript.ts), but a turn
 * renews its lifetime at most once per renewal interval (a day for 90 days): the answer's writes
 * ride on the queue advance (one Lua script), and a PEXPIRE per answer was a Redis command per
 * answer for nothing (issue #22). Real Redis, the writes run as the advance runs them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationQueue } from '../../../../src/gateway/drain/conversation-queue.js';
import { resolvePolicy } from '../../../../src/gateway/gateway-policy.js';
import { gatewayKeys } from '../../../../src/gateway/state-keys.js';
import { TranscriptStore, type TranscriptEntry } from '../../../../src/gateway/stores/transcript.js';
import type { ConversationRef } from '../../../../src/contract.js';
import type { AtomicCommand } from '../../../../src/state/index.js';
import { isolatedRedisStore } from '../../../support/redis.js';

const state = isolatedRedisStore('transcript-lifetime', { checkSlots: true });
afterAll(() => state.cleanup());

const DAY = 24 * 60 * 60_000;
const TTL = 90 * DAY;
const queue = new ConversationQueue(state, resolvePolicy({}));
let conversations = 0;
const newConversation = (): ConversationRef => ({ bot: 'main', platform: 'lifetime', id: `c${++conversations}` });
const entry = (text: string): TranscriptEntry => ({ at: Date.now(), role: 'user', text });

/** Runs `writes` as a turn's are run: inside the advance of a message queued for the purpose. */
async function withAdvance(conversation: ConversationRef, writes: AtomicCommand[]): Promise<void> {
  const offered = await queue.offer(conversation, randomUUID(), JSON.stringify({ id: randomUUID() }));
  if (offered.outcome !== 'queued' || !offered.claim) throw new Error('the offer should have claimed');
  expect(await queue.advance(conversation, offered.claim.token, writes)).toEqual({ owned: true, next: null });
}

describe("a transcript's lifetime", () => {
  it('is set to the TTL plus a day by the first turn, and not renewed again by the next turns of the day', async () => {
    const transcript = new TranscriptStore(state, { maxEntries: 100, ttlMs: TTL });
    const conversation = newConversation();
    const key = gatewayKeys.transcript(conversation);
    const first = transcript.turnAppend(conversation, [entry('one')]);
    await withAdvance(conversation, first.commands);
    first.written();
    expect(await state.ttlMs(key)).toBeGreaterThan(TTL + DAY - 60_000);
    // Shortened by hand, to see whether the next turn sets it again.
    await state.expire(key, TTL);
    const second = transcript.turnAppend(conversation, [entry('two')]);
    await withAdvance(conversation, second.commands);
    second.written();
    expect(await state.ttlMs(key)).toBeLessThanOrEqual(TTL);
    expect((await transcript.read(conversation)).map((e) => e.text)).toEqual(['one', 'two']);
  });

  it('is renewed again once the interval has passed, or when the renewing turn was never written', async () => {
    const transcript = new TranscriptStore(state, { maxEntries: 100, ttlMs: TTL });
    const conversation = newConversation();
    const key = gatewayKeys.transcript(conversation);
    const now = Date.now();
    const first = transcript.turnAppend(conversation, [entry('one')], now);
    await withAdvance(conversation, first.commands);
    first.written();
    await state.expire(key, TTL);
    const nextDay = transcript.turnAppend(conversation, [entry('two')], now + DAY);
    await withAdvance(conversation, nextDay.commands);
    expect(await state.ttlMs(key)).toBeGreaterThan(TTL + DAY - 60_000);
    // That turn was cut off before its advance was committed (written() not called): the next one renews again.
    await state.expire(key, TTL);
    const after = transcript.turnAppend(conversation, [entry('three')], now + DAY + 1);
    await withAdvance(conversation, after.commands);
    expect(await state.ttlMs(key)).toBeGreaterThan(TTL + DAY - 60_000);
  });

  it('is given to a transcript deleted meanwhile and created again by a turn that renews nothing', async () => {
    const transcript = new TranscriptStore(state, { maxEntries: 100, ttlMs: TTL });
    const conversation = newConversation();
    const key = gatewayKeys.transcript(conversation);
    const first = transcript.turnAppend(conversation, [entry('one')]);
    await withAdvance(conversation, first.commands);
    first.written();
    await state.del(key);
    const second = transcript.turnAppend(conversation, [entry('two')]);
    await withAdvance(conversation, second.commands);
    expect(await state.ttlMs(key)).toBeGreaterThan(TTL);
  });

  it("is renewed by every append outside a turn (the gateway's own words, the handoff's events)", async () => {
    const transcript = new TranscriptStore(state, { maxEntries: 100, ttlMs: TTL });
    const conversation = newConversation();
    const key = gatewayKeys.transcript(conversation);
    await transcript.append(conversation, entry('one'));
    await state.expire(key, 1_000);
    await transcript.append(conversation, entry('two'));
    expect(await state.ttlMs(key)).toBeGreaterThan(TTL);
  });
});
