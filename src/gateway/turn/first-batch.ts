/**
 * The turn's one read of Redis before its steps run: one batch for every concern rather than a
 * round trip each (two parts sent at once, one per kind of key: see startTurn):
 *   - counts the turn's attempt (turn/poison-limit.ts), when turns of its message may have been cut off before;
 *   - reserves the month's allowance and the user's rate window (allowance-step.ts checks
 *     them at its position, and they are given back when that step is not reached);
 *   - reads the conversation's session and renews its idle lifetime;
 *   - lists answers a previous holder left half-shown (recovered before answering), in the same case;
 *   - reads the queue's first entries: the head as it is now (edited, or deleted, since it was queued) and,
 *     with bursts on, the messages after it that may be answered with it (turn/burst.ts);
 *   - runs the reads features added (the handoff's pause), whose results their
 *     steps take from the turn instead of asking Redis again.
 */
import {
  NamedBatch,
  type AtomicCommand,
  type AtomicResult,
  type BatchResults,
  type HeadClaim,
} from '../../state/index.js';
import type { TurnContext } from './turn-context.js';
import { gatewayKeys } from '../state-keys.js';
import type { Reservation } from './allowance.js';
import { monthlyLimit, monthOf, rateWindow } from './allowance-step.js';
import { MONTHLY_COUNTER_TTL_MS } from '../stores/index.js';
import { ATTEMPTS_TTL_MS, forgetWhenLeaving } from './poison-limit.js';
import { inflightConversationKey } from '../relay/index.js';
import type { HeadOrigin, RidingClaim } from '../drain/index.js';
import { BURST_READ_MAX } from './burst.js';

/** A read a feature adds to every turn's first batch, with its result decoded. */
export interface TurnRead<T> {
  /** Its decoded result in `ctx`'s batch; undefined for a turn that started before the read was added. */
  of(ctx: TurnContext): T | undefined;
  remove(): void;
}

/** What the gateway exposes: adding a read to every turn's first batch. */
export interface TurnReadSource {
  /**
   * The read must be of a key of the turn's conversation (under its shard tag, gateway/state-keys.ts):
   * it runs in the conversation's MULTI, which touches one Redis Cluster slot. `decode` turns the
   * command's result (typed by its op) into what the feature's steps read with `of(ctx)`.
   */
  add<C extends AtomicCommand, T>(
    command: (ctx: TurnContext) => C,
    decode: (result: AtomicResult<C>, ctx: TurnContext) => T,
  ): TurnRead<T>;
}

/** A feature's read as the batch runs it: its command, and where its decoded result goes. */
interface FeatureRead {
  add(batch: NamedBatch, ctx: TurnContext): (results: BatchResults) => void;
}

export class TurnReads implements TurnReadSource {
  /**
   * @param claim the claim of the conversation's lock (the drain's hold), when it rides on this
   *   turn's batch; the features' reads are shared with the gateway's TurnReads.
   */
  constructor(
    private readonly reads = new Set<FeatureRead>(),
    readonly claim?: RidingClaim,
  ) {}

  /** The same reads, for one turn whose batch also claims the conversation's lock. */
  claiming(claim: RidingClaim): TurnReads {
    return new TurnReads(this.reads, claim);
  }

  add<C extends AtomicCommand, T>(
    command: (ctx: TurnContext) => C,
    decode: (result: AtomicResult<C>, ctx: TurnContext) => T,
  ): TurnRead<T> {
    const decoded = new WeakMap<TurnContext, T>();
    const read: FeatureRead = {
      add: (batch, ctx) => {
        const handle = batch.add(command(ctx));
        return (results) => decoded.set(ctx, decode(results.of(handle), ctx));
      },
    };
    this.reads.add(read);
    return {
      of: (ctx) => decoded.get(ctx),
      remove: () => {
        this.reads.delete(read);
      },
    };
  }

  all(): FeatureRead[] {
    return [...this.reads];
  }
}

export interface TurnStart {
  /** Turns started for this message, this one included (turn/poison-limit.ts). */
  attempt: number;
  /** Ids of answers recorded in this conversation that no live turn of it is writing. */
  leftovers: string[];
}

/**
 * The lock claim that rode on the turn's batch did not give this turn the conversation with
 * its head: nothing of the turn may run. What the batch reserved was given back.
 */
export class HeadClaimMissedError extends Error {
  constructor(readonly claim: Exclude<HeadClaim, { outcome: 'claimed' }>) {
    super(
      claim.outcome === 'taken'
        ? 'the conversation is answered elsewhere'
        : claim.outcome === 'empty'
          ? 'the conversation has nothing queued any more'
          : 'the head of the conversation was answered elsewhere; another message is first now',
    );
    this.name = 'HeadClaimMissedError';
  }
}

/**
 * Runs the batch and files its results on the turn (`ctx.prefetched`). One round trip of two
 * parts (src/state/slots.ts: one MULTI touches one slot): the conversation's part under its shard
 * tag (the claim, the attempt, the session, the answers left half-shown, the features' reads), and
 * the untagged counters of the user and the chatbot (rate, monthly), which need no atomicity with
 * the conversation's keys, only to be given back when nothing is answered. With `reads.claim` (origin
 * `line`) the conversation's part first claims the lock, atomically with the rest (a `batch()`), and the
 * claim (the drain's hold) is told what it found; if that misses, the reservations are given back and
 * HeadClaimMissedError is thrown before anything shows. Without a claim nothing needs a unit: the
 * commands go as a `pipeline()`, and Redis runs no MULTI/EXEC around them.
 *
 * What earlier turns of the message left is looked for by its origin (drain/drains.ts), not on every
 * turn: that would cost each answer three commands more (the count's SET NX and INCRBY, and SMEMBERS).
 * The count of turns (poison-limit.ts) is kept only once a turn may have been cut off before: a key
 * absent means at most one turn started. A `new` head has had none (attempt 1, nothing written, and
 * so nothing to delete when it leaves: if this turn is cut off, whoever takes the message over counts
 * it). An `again` head counts from 1 (as if one turn had been cut off, which a takeover cannot tell
 * from none) and reads what was left. A `line` head went in line never started: absent, it is the
 * first turn (nothing written, nothing to delete); present, a claim elsewhere started it meanwhile,
 * and the count and what was left are taken in one more round trip. The turn that counted (or found
 * a count) is the one that has it deleted when its message leaves the queue (forgetWhenLeaving, with
 * the turn's other writes; and past the limit too: the message leaves with the poison reply), so the
 * common answer, of a `new` head, runs no DEL for it; a wait for the service (poison-limit.ts
 * resetTurnAttempts) writes a count of 0, and that turn has it deleted the same way.
 */
export async function startTurn(ctx: TurnContext, reads: TurnReads, origin: HeadOrigin): Promise<TurnStart> {
  const settings = await ctx.settings();
  const rate = rateWindow(settings);
  const sessionKey = gatewayKeys.session(ctx.conversation);
  const monthlyKey = gatewayKeys.monthly(ctx.bot.serialNumber, monthOf(new Date(), settings.TimeZone));
  const rateKey = gatewayKeys.rate(ctx.conversation, ctx.inbound.user.id);
  const attemptsKey = gatewayKeys.attempts(ctx.conversation, ctx.inbound.platformMessageId);
  const batch = new NamedBatch();
  // The conversation's part, under its shard tag. The claim first: within the MULTI its result decides whether the rest counts.
  const riding = reads.claim;
  const claimed = riding && batch.add(riding.command);
  const again = origin === 'again' && !riding;
  const counted = again ? batch.add({ op: 'incr', key: attemptsKey, ttlMs: ATTEMPTS_TTL_MS, from: 1 }) : undefined;
  const countSoFar = riding ? batch.add({ op: 'get', key: attemptsKey }) : undefined;
  // Renewed on use (read and renewed in one command): a conversation idle for sessionIdleTtlMs starts a new session (stores/session-map.ts).
  const session = batch.add({ op: 'get', key: sessionKey, ttlMs: ctx.services.policy.sessionIdleTtlMs });
  const leftovers = again ? batch.add({ op: 'setMembers', key: inflightConversationKey(ctx.conversation) }) : undefined;
  const queueKey = gatewayKeys.queue(ctx.conversation);
  const queued = batch.add({
    op: 'listRange',
    key: queueKey,
    start: 0,
    stop: ctx.services.policy.burstMs > 0 ? BURST_READ_MAX - 1 : 0,
  });
  // A feature's read is of the conversation's keys (its tag), or the MULTI fails its slot check.
  const features = reads.all().map((read) => read.add(batch, ctx));
  // The counters, untagged. Reserved now, given back when nothing is answered: concurrent conversations cannot overshoot the cap.
  // The month's key is named by its month: its expiry only clears it away later, so it is given after the count (below).
  // With no cap nothing is checked against the month's count: an answer adds to it later (month-tally.ts).
  const cap = monthlyLimit(settings);
  const reserved = cap !== null ? batch.add({ op: 'incr', key: monthlyKey }) : undefined;
  const used = rate ? batch.add({ op: 'incr', key: rateKey, ttlMs: rate.windowMs }) : undefined;
  // One round trip: with a claim, the conversation's part is one MULTI (its slot) and the counters ride along (one
  // MULTI with it on a single Redis, their own slots' sent at once on a cluster); without, a pipeline. If it fails
  // the turn fails; on a cluster a counter applied while the conversation's part failed stays counted (one message's
  // worth), and a lock a claim took while the counters failed expires, after which the sweep answers the head again.
  const results = await batch.run(ctx.services.state, riding ? 'batch' : 'pipeline');
  if (reserved) giveMonthItsExpiry(ctx, monthlyKey, results.of(reserved));
  const reservation: Reservation = {
    monthlyKey,
    reserved: reserved ? results.of(reserved) : 0,
    cap,
    rate,
    rateKey,
    used: used ? results.of(used) : 0,
    checked: false,
  };
  if (riding && claimed) {
    const claim = results.of(claimed);
    riding.found(claim);
    if (claim.outcome !== 'claimed') {
      // The count was only read: what goes back is the allowance.
      await giveBack(ctx, reservation, 'could not give back what an unclaimed turn reserved');
      throw new HeadClaimMissedError(claim);
    }
  }
  // Counted here: whatever this turn ends with, once its writes are committed the message is off the queue, and the count with it.
  if (counted) forgetWhenLeaving(ctx);
  ctx.prefetched.session = results.of(session);
  ctx.prefetched.queued = results.of(queued);
  ctx.prefetched.reservation = reservation;
  for (const file of features) file(results);
  if (counted && leftovers) return { attempt: results.of(counted), leftovers: results.of(leftovers) };
  const soFar = countSoFar && results.of(countSoFar);
  if (soFar === undefined || soFar === null) return { attempt: 1, leftovers: [] };
  // Started elsewhere since it went in line (or it waited for the service: poison-limit.ts): counted on from there.
  forgetWhenLeaving(ctx);
  const [attempt, left] = (await ctx.services.state.batch([
    { op: 'incr', key: attemptsKey, ttlMs: ATTEMPTS_TTL_MS },
    { op: 'setMembers', key: inflightConversationKey(ctx.conversation) },
  ])) as [number, string[]];
  return { attempt, leftovers: left };
}

/**
 * The month's counter is created by the first message of the month (count 1; or 1 again after
 * reservations given back to 0, when renewing does no harm): its expiry is given then, in a round trip
 * of its own, instead of a SET NX before every count. Should that one be lost (the process dies in
 * between), the month's key outlives its month: a few bytes, never read again (the next month has its own).
 */
function giveMonthItsExpiry(ctx: TurnContext, monthlyKey: string, count: number): void {
  if (count !== 1) return;
  ctx.services.state
    .expire(monthlyKey, MONTHLY_COUNTER_TTL_MS)
    .catch((error: unknown) =>
      ctx.logger.warn({ err: error, key: monthlyKey }, "could not give the month's message counter its expiry"),
    );
}

async function giveBack(ctx: TurnContext, reservation: GivenBack, warning: string): Promise<void> {
  const commands = releaseCommands(reservation);
  if (commands.length === 0) return;
  await ctx.services.state.batch(commands).catch((error: unknown) => ctx.logger.warn({ err: error }, warning));
}

/**
 * The turn ended before the limits step checked the allowance (a command, a paused
 * conversation, the poison reply): what was reserved goes back. Written with the
 * queue advance; a turn cut off drops those writes, so the month's is given back now.
 */
export async function releaseUnchecked(ctx: TurnContext, cutOff: boolean): Promise<void> {
  const reservation = ctx.prefetched.reservation;
  if (!reservation || reservation.checked) return;
  if (!cutOff) {
    // Untagged keys: the queue's advance writes them beside its MULTI, not in it (drain/conversation-queue.ts).
    ctx.later(...releaseCommands(reservation));
    return;
  }
  await giveBack(ctx, reservation, 'could not give back the allowance reserved by a cut-off turn');
}

/**
 * With their windows: a counter that expired while the turn ran comes back for one
 * window at -1 (one message more then), never as a key without expiry.
 */
type GivenBack = Pick<Reservation, 'monthlyKey' | 'cap' | 'rate' | 'rateKey'>;

function releaseCommands(reservation: GivenBack): AtomicCommand[] {
  return [
    ...(reservation.cap !== null
      ? [{ op: 'incr', key: reservation.monthlyKey, by: -1, ttlMs: MONTHLY_COUNTER_TTL_MS } as const]
      : []),
    ...(reservation.rate
      ? [{ op: 'incr', key: reservation.rateKey, by: -1, ttlMs: reservation.rate.windowMs } as const]
      : []),
  ];
}
