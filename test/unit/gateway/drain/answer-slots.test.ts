import { describe, expect, it } from 'vitest';
import { AnswerSlots } from '../../../../src/gateway/drain/answer-slots.js';
import type { ConversationRef } from '../../../../src/contract.js';

const conversation = (id: string): ConversationRef => ({ bot: 'main', platform: 'fakechat', id });
const member = (id: string) => `main:fakechat:${id}`;

describe('AnswerSlots: answers in flight and the line of conversations waiting for one', () => {
  it('gives out at most its capacity of slots; a slot given back can be taken again', () => {
    const slots = new AnswerSlots(2);
    expect([slots.tryTake(), slots.tryTake(), slots.tryTake()]).toEqual([true, true, false]);
    expect(slots.inUse).toBe(2);
    slots.release();
    expect(slots.tryTake()).toBe(true);
  });

  it('gives a free slot to the conversations already waiting before a newcomer, in the order they came', () => {
    const slots = new AnswerSlots(1);
    expect(slots.tryTake()).toBe(true);
    slots.wait(member('a'), conversation('a'));
    slots.wait(member('b'), conversation('b'));
    slots.release();
    // A slot is free, but a and b came first.
    expect(slots.tryTake()).toBe(false);
    expect(slots.takeNext()).toEqual({ conversation: conversation('a') });
    expect(slots.takeNext()).toBeUndefined();
    slots.release();
    expect(slots.takeNext()).toEqual({ conversation: conversation('b') });
    expect(slots.waitingCount).toBe(0);
  });

  it('keeps one place per conversation: waiting again does not move it or count it twice', () => {
    const slots = new AnswerSlots(1);
    slots.tryTake();
    expect(slots.wait(member('a'), conversation('a'))).toBe(true);
    slots.wait(member('b'), conversation('b'));
    expect(slots.wait(member('a'), conversation('a'))).toBe(false);
    expect(slots.waitingCount).toBe(2);
    expect(slots.isWaiting(member('a'))).toBe(true);
    slots.release();
    expect(slots.takeNext()).toEqual({ conversation: conversation('a') });
  });

  it('remembers the head a conversation went in line with, and the newest one it is told while waiting', () => {
    const slots = new AnswerSlots(1);
    slots.tryTake();
    slots.wait(member('a'), conversation('a'), 'first message of a');
    slots.wait(member('b'), conversation('b'));
    expect(slots.wait(member('b'), conversation('b'), 'first message of b')).toBe(false);
    // Waiting again without knowing the head keeps what was known.
    slots.wait(member('a'), conversation('a'));
    slots.release();
    expect(slots.takeNext()).toEqual({ conversation: conversation('a'), head: 'first message of a' });
    slots.release();
    expect(slots.takeNext()).toEqual({ conversation: conversation('b'), head: 'first message of b' });
  });

  it('tells a waiting source when the line is shorter than its bound, and at once when it already is', async () => {
    const slots = new AnswerSlots(1);
    slots.tryTake();
    slots.wait(member('a'), conversation('a'));
    slots.wait(member('b'), conversation('b'));
    let roomForMore = false;
    const waiting = slots.whenFewerWaiting(2).then(() => {
      roomForMore = true;
    });
    await expect(slots.whenFewerWaiting(3)).resolves.toBeUndefined();
    await Promise.resolve();
    expect(roomForMore).toBe(false);
    slots.release();
    slots.takeNext();
    await waiting;
    expect(roomForMore).toBe(true);
  });

  it('forgets the whole line when the gateway stops, and frees everyone waiting for room', async () => {
    const slots = new AnswerSlots(1);
    slots.tryTake();
    slots.wait(member('a'), conversation('a'));
    const waiting = slots.whenFewerWaiting(1);
    slots.clearWaiting();
    await waiting;
    expect(slots.waitingCount).toBe(0);
    slots.release();
    expect(slots.takeNext()).toBeUndefined();
  });

  it('refuses a capacity below 1, naming the setting', () => {
    expect(() => new AnswerSlots(0)).toThrow(/gateway\.maxAnswersInFlight/);
    expect(() => new AnswerSlots(1.5)).toThrow(/whole number/);
  });

  it('refuses to give back a slot nobody took (a bookkeeping bug would otherwise raise the cap)', () => {
    expect(() => new AnswerSlots(1).release()).toThrow(/given back twice/);
  });

  it('gives a slot back to a hold that lent its own (a burst settling) before any conversation in line', async () => {
    const slots = new AnswerSlots(1);
    expect(slots.tryTake()).toBe(true);
    // The burst waits: its slot goes to the conversation in line.
    slots.release();
    slots.wait('b', conversation('b'));
    expect(slots.takeNext()?.conversation.id).toBe('b');
    slots.wait('c', conversation('c'));
    let reclaimed = false;
    const reclaim = slots.reclaim(new AbortController().signal).then(() => {
      reclaimed = true;
    });
    await Promise.resolve();
    expect(reclaimed).toBe(false);
    // b's answer ends: the slot passes to the burst, not to c, and the cap holds.
    slots.release();
    await reclaim;
    expect(reclaimed).toBe(true);
    expect(slots.inUse).toBe(1);
    expect(slots.takeNext()).toBeUndefined();
  });

  it('takes no slot for a reclaim given up (the turn cut off while it waited)', async () => {
    const slots = new AnswerSlots(1);
    expect(slots.tryTake()).toBe(true);
    const abort = new AbortController();
    const reclaim = slots.reclaim(abort.signal);
    abort.abort(new Error('stopping'));
    await expect(reclaim).rejects.toThrow('stopping');
    slots.release();
    expect(slots.inUse).toBe(0);
    expect(slots.tryTake()).toBe(true);
  });
});
