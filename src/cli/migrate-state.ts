/**
 * `chatbridge migrate-state`: moves the keys of a Redis used by a version before the
 * conversation shards (src/state/slots.ts) to where this version reads them, on a single
 * Redis (the old layout could not run on a cluster). Run it once, with every gateway stopped.
 * Then, on any topology, ends the layout of the conversation locks before owner fields
 * (queue-owners.ts), which needs only that no replica of such a version runs.
 *
 * Moved: sessions, transcripts, queued messages, messages waiting for the service, handoff
 * pauses and follow-up states (RENAMENX, so a key this version already wrote is never
 * overwritten), the pending-queue and paused-conversation indexes (into their shards), and
 * the handoff e-mails waiting or dead (new ids naming their shard). Deleted: the counts of
 * upstream failures in a row (see DROPPED). Not moved: what lives minutes to days and cannot
 * be told apart by name (dedupe marks, locks, poison attempt counters, records of answers in flight).
 */
import type { Command } from 'commander';
import { Redis } from 'ioredis';
import type { ConversationRef } from '../contract.js';
import { handoffKeys, newMailId, parseConversationId, type OutboxMail } from '../handoff/index.js';
import { redisTopology } from '../config/index.js';
import { loadGatewayConfig } from '../runtime/platforms.js';
import { createStateStore } from '../state/index.js';
import { adoptOwnerFields } from './queue-owners.js';
import { conversationMember, conversationTag, gatewayKeys, parseConversationMember } from '../gateway/index.js';

export interface MigrationReport {
  /** Keys renamed to their shard's name. */
  renamed: number;
  /** Index entries written into their shard's index (pending queues, paused conversations). */
  indexed: number;
  /** Handoff e-mails moved (waiting and dead). */
  mails: number;
  /** Old keys deleted, not moved (DROPPED). */
  dropped: number;
  /** Old keys left where they are because the new one exists already (this version wrote it). */
  kept: string[];
}

/** Per-conversation keys `<kind><bot>:<platform>:<id>` and their new names; `type` when the kind's prefix is shared. */
const RENAMED: { kind: string; to: (c: ConversationRef) => string; type?: string }[] = [
  { kind: 'session:', to: gatewayKeys.session },
  { kind: 'transcript:', to: gatewayKeys.transcript },
  { kind: 'queue:', to: gatewayKeys.queue },
  { kind: 'upstream-wait:', to: gatewayKeys.upstreamWait },
  { kind: 'handoff:follow-up:', to: handoffKeys.followUp },
  // `handoff:` also starts the outbox, mails, the secret and follow-ups: a pause is the only hash.
  { kind: 'handoff:', to: handoffKeys.pause, type: 'hash' },
];

/**
 * Per-conversation kinds deleted instead of moved: `failures:<bot>:<platform>:<id>`, the upstream failures in a row. This
 * version counts them in the conversation's pause hash (src/handoff/pause/pause-store.ts), and a count moved there could
 * stand in the way of the pause renamed into that hash (RENAMENX keeps a target that exists). A count is worth little
 * (forgotten after a quiet day anyway): losing it only means a handoff for failures comes a few failures later.
 */
const DROPPED = ['failures:'];

/** Keys scanned per SCAN call. */
const SCAN_COUNT = 500;

/** Moves the old layout's keys under `prefix` (e.g. `cb:`) on `redis`; safe to run again (moved keys are skipped). */
export async function migrateStateKeys(redis: Redis, prefix: string): Promise<MigrationReport> {
  const report: MigrationReport = { renamed: 0, indexed: 0, mails: 0, dropped: 0, kept: [] };
  for (const { kind, to, type } of RENAMED) {
    for await (const key of scanKeys(redis, `${escapeGlob(prefix + kind)}*`)) {
      const rest = key.slice(prefix.length + kind.length);
      // Already moved (the tag follows the kind), or another kind sharing the prefix.
      if (rest.startsWith('{')) continue;
      const conversation = parseConversationId(rest);
      if (!conversation || (type && (await redis.type(key)) !== type)) continue;
      const target = prefix + to(conversation);
      if ((await redis.renamenx(key, target)) === 1) report.renamed++;
      else report.kept.push(key);
      // A moved queue is indexed in its shard's owners hash, owned by nobody, so a sweep answers it.
      if (kind === 'queue:')
        report.indexed += await redis.hsetnx(
          prefix + gatewayKeys.owners(conversation),
          conversationMember(conversation),
          '',
        );
    }
  }
  for (const kind of DROPPED) {
    for await (const key of scanKeys(redis, `${escapeGlob(prefix + kind)}*`)) {
      const rest = key.slice(prefix.length + kind.length);
      // A tagged key is this layout's (an earlier version's replica still counting during an upgrade): it expires by itself.
      if (!rest.startsWith('{') && parseConversationId(rest)) report.dropped += await redis.del(key);
    }
  }
  report.indexed += await movePendingIndex(redis, prefix);
  report.indexed += await movePausedIndex(redis, prefix);
  report.mails += await moveMails(redis, prefix, 'handoff:outbox', handoffKeys.outbox);
  report.mails += await moveMails(redis, prefix, 'handoff:dead', handoffKeys.dead);
  return report;
}

async function movePendingIndex(redis: Redis, prefix: string): Promise<number> {
  const old = `${prefix}queues:pending`;
  if ((await redis.type(old)) !== 'set') return 0;
  let indexed = 0;
  for (const member of await redis.smembers(old)) {
    const conversation = parseConversationMember(member);
    if (conversation) indexed += await redis.hsetnx(prefix + gatewayKeys.owners(conversation), member, '');
  }
  await redis.del(old);
  return indexed;
}

async function movePausedIndex(redis: Redis, prefix: string): Promise<number> {
  const old = `${prefix}handoffs:paused`;
  if ((await redis.type(old)) !== 'zset') return 0;
  const entries = await redis.zrange(old, '0', '-1', 'WITHSCORES');
  let indexed = 0;
  for (let at = 0; at < entries.length; at += 2) {
    const member = entries[at]!;
    const conversation = parseConversationId(member);
    if (conversation)
      indexed += await redis.zadd(
        prefix + handoffKeys.paused(conversationTag(conversation)),
        Number(entries[at + 1]),
        member,
      );
  }
  await redis.del(old);
  return indexed;
}

/**
 * The mails of one old index (`handoff:outbox` or `handoff:dead`) into their conversation's shard,
 * each with a new id naming it. A follow-up state keeps the old id, so the next message of that
 * pause writes a new follow-up mail instead of updating the moved one.
 */
async function moveMails(
  redis: Redis,
  prefix: string,
  oldIndex: string,
  index: (tag: string) => string,
): Promise<number> {
  const old = prefix + oldIndex;
  if ((await redis.type(old)) !== 'zset') return 0;
  const entries = await redis.zrange(old, '0', '-1', 'WITHSCORES');
  let moved = 0;
  for (let at = 0; at < entries.length; at += 2) {
    const id = entries[at]!;
    const oldMail = `${prefix}handoff:mail:${id}`;
    const raw = await redis.get(oldMail);
    const mail = raw === null ? null : (JSON.parse(raw) as OutboxMail);
    const conversation = mail && parseConversationId(mail.conversation);
    if (!mail || !conversation) continue;
    const tag = conversationTag(conversation);
    const newId = newMailId(conversation);
    await redis
      .multi()
      .set(prefix + handoffKeys.mail(tag, newId), JSON.stringify({ ...mail, id: newId }))
      .zadd(prefix + index(tag), Number(entries[at + 1]), newId)
      .exec();
    await redis.del(oldMail);
    moved++;
  }
  await redis.del(old);
  return moved;
}

async function* scanKeys(redis: Redis, pattern: string): AsyncGenerator<string> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
    cursor = next;
    yield* keys;
  } while (cursor !== '0');
}

/** A key prefix taken literally in a SCAN MATCH pattern. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}

export function registerMigrateStateCommand(program: Command): void {
  program
    .command('migrate-state')
    .description(
      "bring a Redis an earlier version used to this version's layout: the keys of a version before Redis Cluster " +
        'support moved to their shards (single Redis, every gateway stopped), and the conversation locks of a version ' +
        'before owner fields left behind once no replica of it runs',
    )
    .action(async () => {
      const config = loadGatewayConfig();
      const topology = redisTopology(config);
      if (!topology) {
        throw new Error(
          'migrate-state works on the Redis the gateways share: set REDIS_URL (or REDIS_CLUSTER_NODES, REDIS_SENTINELS).',
        );
      }
      // The layout before shards could only run on a single Redis: there is nothing of it to move elsewhere.
      if (topology.kind === 'single') {
        const redis = new Redis(topology.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
        try {
          await redis.connect();
          const report = await migrateStateKeys(redis, config.keyPrefix);
          const entries = `${report.indexed} index entr${report.indexed === 1 ? 'y' : 'ies'}`;
          const keptShown = `${report.kept.slice(0, 10).join(', ')}${report.kept.length > 10 ? ', …' : ''}`;
          process.stdout.write(
            `Moved ${report.renamed} key(s), ${entries} and ${report.mails} handoff e-mail(s) under "${config.keyPrefix}"; ` +
              `deleted ${report.dropped} count(s) of upstream failures (kept elsewhere now).\n` +
              (report.kept.length > 0
                ? `Kept ${report.kept.length} old key(s) whose new key exists already (written by this version): ${keptShown}\n`
                : ''),
          );
        } finally {
          redis.disconnect();
        }
      }
      const state = createStateStore({ topology, prefix: config.keyPrefix });
      try {
        const owners = await adoptOwnerFields(state);
        process.stdout.write(
          owners.alreadyDone && owners.indexed === 0
            ? 'Conversation locks: owner fields only already.\n'
            : `Conversation locks: owner fields only from now on (${owners.indexed} queued conversation(s) of the earlier ` +
                'layout indexed); running gateways stop keeping the earlier layout at their next sweep.\n',
        );
      } finally {
        await state.close();
      }
    });
}
