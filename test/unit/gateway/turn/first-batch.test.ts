/**
 * A turn's first batch (src/gateway/turn/first-batch.ts) looks for what earlier turns of its
 * message left (the count of turns cut off, the answers left half-shown) only when there can be
 * some, by how the message came to be first in its queue (drain/drains.ts HeadOrigin), and has
 * deleted, when the message leaves, only what it counted or found. The poison-message limit
 * depends on the count; real Redis throughout.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationQueue } from '../../../../src/gateway/drain/conversation-queue.js';
import type { RidingClaim } from '../../../../src/gateway/drain/index.js';
import { resolvePolicy } from '../../../../src/gateway/gateway-policy.js';
import { inflightConversationKey } from '../../../../src/gateway/relay/index.js';
import { conversationMember, gatewayKeys } from '../../../../src/gateway/state-keys.js';
import { HeadClaimMissedError, startTurn, TurnReads } from '../../../../src/gateway/turn/first-batch.js';
import { monthOf } from '../../../../src/gateway/turn/allowance-step.js';
import { MONTHLY_COUNTER_TTL_MS } from '../../../../src/gateway/stores/index.js';
import { Turn, type GatewayServices } from '../../../../src/gateway/turn/turn-context.js';
import type { Capabilities, ConversationRef, Inbound, Outbound } from '../../../../src/contract.js';
import { silentLogger } from '../../../../src/logger.js';
import { RedisStateStore, type HeadClaim } from '../../../../src/state/index.js';
import type { ChatbotSettings } from '../../../../src/upstream/index.js';
import { testRedisUrl } from '../../../support/redis.js';

const prefix = `cbtest:first-batch:${randomUUID().slice(0, 8)}:`;
const state = new RedisStateStore({ url: testRedisUrl(), prefix, checkSlots: true });
afterAll(async () => {
  await state.deleteByPrefix();
  await state.close();
});

const policy = resolvePolicy({});
const queue = new ConversationQueue(state, policy);
const serialNumber = `first-batch-${randomUUID().slice(0, 8)}`;
let conversations = 0;

/** A turn of a new conversation's message, with only what the first batch reads wired (the state and the settings). */
function turnOf(platformMessageId = 'm1', chatbot: Partial<ChatbotSettings> = {}): Turn {
  const conversation: ConversationRef = { bot: 'main', platform: 'batchtest', id: `c${++conversations}` };
  const inbound: Inbound = {
    conversation,
    user: { id: 'u1', name: 'Ana' },
    text: 'Hello',
    attachments: [],
    isGroup: false,
    addressed: true,
    platformMessageId,
    sentAt: Date.now(),
  };
  const settings = { TimeZone: 'UTC', ...chatbot } as ChatbotSettings;
  // Only these parts are used before the turn's steps run; the rest would be a mistake to touch. The transcript only
  // to list the turn's writes (deletesWhenLeaving): it has no entries.
  const transcript = { turnAppend: () => ({ commands: [], written: () => undefined }) };
  const services = { state, policy, settings: { get: async () => settings }, transcript } as unknown as GatewayServices;
  return new Turn({
    inbound,
    bot: { id: 'main', serialNumber },
    outbound: {} as Outbound,
    capabilities: {} as Capabilities,
    logger: silentLogger(),
    signal: new AbortController().signal,
    services,
  });
}

const attemptsKey = (turn: Turn) => gatewayKeys.attempts(turn.conversation, turn.inbound.platformMessageId);
/** The keys the turn's writes delete when its message leaves the queue (the queue advance). */
const deletesWhenLeaving = (turn: Turn) =>
  turn
    .pendingWrites()
    .writes.filter((write) => write.op === 'del')
    .map((write) => write.key);
/** What a turn that counted (or found a count) has deleted with its message: the count, and a wait for the service. */
const countAndWait = (turn: Turn) => [attemptsKey(turn), gatewayKeys.upstreamWait(turn.conversation)];
const entryOf = (turn: Turn) => JSON.stringify({ id: randomUUID(), origin: 'o', acceptedAt: 0, inbound: turn.inbound });

/** Queues the turn's message without claiming (it waits in line), and the claim that rides on its first batch. */
async function inLine(turn: Turn): Promise<{ claim: RidingClaim; found: HeadClaim[] }> {
  const entry = entryOf(turn);
  await queue.offer(turn.conversation, turn.inbound.platformMessageId, entry, { claim: false });
  const found: HeadClaim[] = [];
  return {
    claim: { command: queue.headClaim(turn.conversation, randomUUID(), entry), found: (claim) => found.push(claim) },
    found,
  };
}

describe("a turn's first batch looks for what earlier turns left only where there can be some", () => {
  it('new (it became first under this claim): first attempt, nothing read or written for the count, no half-shown answers looked for', async () => {
    const turn = turnOf();
    // Even a record left here is not looked for: a new head has no earlier turn (a stale record is the periodic recovery's).
    await state.setAdd(inflightConversationKey(turn.conversation), 'stale');
    expect(await startTurn(turn, new TurnReads(), 'new')).toEqual({ attempt: 1, leftovers: [] });
    expect(await state.get(attemptsKey(turn))).toBeNull();
    // Nothing written, nothing to delete: the common answer runs no DEL.
    expect(deletesWhenLeaving(turn)).toEqual([]);
  });

  it('again (a takeover): the second attempt when nothing was counted (the first, new, counts nothing), and the half-shown answers are read', async () => {
    const turn = turnOf();
    await state.setAdd(inflightConversationKey(turn.conversation), 'answer-1');
    expect(await startTurn(turn, new TurnReads(), 'again')).toEqual({ attempt: 2, leftovers: ['answer-1'] });
    expect(await state.get(attemptsKey(turn))).toBe('2');
    // The turn that counted deletes the count when its message leaves, once.
    expect(deletesWhenLeaving(turn)).toEqual(countAndWait(turn));
    const next = turnWithSameMessage(turn);
    expect(await startTurn(next, new TurnReads(), 'again')).toMatchObject({ attempt: 3 });
    expect(deletesWhenLeaving(next)).toEqual(countAndWait(next));
  });

  it('again after a wait for the service reset the count: the first attempt once more (waiting is not failing)', async () => {
    const turn = turnOf();
    await state.set(attemptsKey(turn), '0');
    expect(await startTurn(turn, new TurnReads(), 'again')).toEqual({ attempt: 1, leftovers: [] });
    expect(deletesWhenLeaving(turn)).toEqual(countAndWait(turn));
  });

  it('line (went in line never started): the first attempt, its claim riding on the batch, nothing written for the count', async () => {
    const turn = turnOf();
    const { claim, found } = await inLine(turn);
    await state.setAdd(inflightConversationKey(turn.conversation), 'stale');
    expect(await startTurn(turn, new TurnReads().claiming(claim), 'line')).toEqual({ attempt: 1, leftovers: [] });
    expect(found).toEqual([{ outcome: 'claimed' }]);
    expect(await state.get(attemptsKey(turn))).toBeNull();
    expect(deletesWhenLeaving(turn)).toEqual([]);
  });

  it('line, but started elsewhere meanwhile (that claim counted it): counted on from there, and what it left half-shown is read', async () => {
    const turn = turnOf();
    const { claim } = await inLine(turn);
    await state.set(attemptsKey(turn), '2');
    await state.setAdd(inflightConversationKey(turn.conversation), 'answer-1');
    expect(await startTurn(turn, new TurnReads().claiming(claim), 'line')).toEqual({
      attempt: 3,
      leftovers: ['answer-1'],
    });
    expect(await state.get(attemptsKey(turn))).toBe('3');
    expect(deletesWhenLeaving(turn)).toEqual(countAndWait(turn));
  });

  it('line, the conversation held elsewhere: nothing of the turn runs, the count is untouched and the month reserved is given back', async () => {
    const turn = turnOf('m1', { MessageLimit: 1_000 });
    const { claim, found } = await inLine(turn);
    await state.hashSet(gatewayKeys.owners(turn.conversation), {
      [conversationMember(turn.conversation)]: 'someone-else',
    });
    const monthlyKey = gatewayKeys.monthly(serialNumber, monthOf(new Date(), 'UTC'));
    const before = Number((await state.get(monthlyKey)) ?? 0);
    await expect(startTurn(turn, new TurnReads().claiming(claim), 'line')).rejects.toBeInstanceOf(HeadClaimMissedError);
    expect(found).toEqual([{ outcome: 'taken' }]);
    expect(await state.get(attemptsKey(turn))).toBeNull();
    expect(deletesWhenLeaving(turn)).toEqual([]);
    expect(Number(await state.get(monthlyKey))).toBe(before);
  });

  it("with a MessageLimit, reserves the month's message and gives its counter its expiry when the month's first message creates it", async () => {
    const turn = turnOf('m1', { MessageLimit: 1_000 });
    const monthlyKey = gatewayKeys.monthly(serialNumber, monthOf(new Date(), 'UTC'));
    await state.del(monthlyKey);
    await startTurn(turn, new TurnReads(), 'new');
    expect(turn.prefetched.reservation).toMatchObject({ reserved: 1, cap: 1_000 });
    await expect.poll(() => state.ttlMs(monthlyKey)).toBeGreaterThan(MONTHLY_COUNTER_TTL_MS - 60_000);
  });

  it("with no MessageLimit, leaves the month's counter alone: an answer is counted afterwards (month-tally.ts)", async () => {
    const turn = turnOf();
    const monthlyKey = gatewayKeys.monthly(serialNumber, monthOf(new Date(), 'UTC'));
    await state.del(monthlyKey);
    await startTurn(turn, new TurnReads(), 'new');
    expect(turn.prefetched.reservation).toMatchObject({ reserved: 0, cap: null });
    expect(await state.get(monthlyKey)).toBeNull();
  });
});

/** Another turn of the same message (the next takeover of it). */
function turnWithSameMessage(turn: Turn): Turn {
  return new Turn({
    inbound: turn.inbound,
    bot: turn.bot,
    outbound: turn.outbound,
    capabilities: turn.capabilities,
    logger: turn.logger,
    signal: new AbortController().signal,
    services: turn.services,
  });
}
