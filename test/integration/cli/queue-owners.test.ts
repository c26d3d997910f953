/**
 * The last step of `chatbridge migrate-state` (src/cli/queue-owners.ts) on real Redis: the layout of the conversation
 * locks before owner fields (a lock string per conversation, a pending set per shard) is ended only once no replica of
 * such a version answers a conversation. The end-to-end run with both versions as processes is
 * test/e2e/gateway/rolling-upgrade.test.ts; here each case is written as the versions leave it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adoptOwnerFields, EarlierReplicaRunningError } from '../../../src/cli/queue-owners.js';
import type { ConversationRef } from '../../../src/contract.js';
import { conversationMember, gatewayKeys, OWNER_FIELDS_ONLY, QUEUE_LAYOUT_KEY } from '../../../src/gateway/index.js';
import { queueKeys } from '../../../src/gateway/state-keys.js';
import { allShardTags } from '../../../src/state/slots.js';
import { isolatedRedisStore } from '../../support/redis.js';

const LOCK_TTL_MS = 60_000;
const answeredByEarlier: ConversationRef = { bot: 'main', platform: 'telegram', id: '7001' };
const answeredByCurrent: ConversationRef = { bot: 'main', platform: 'telegram', id: '7002' };
const queuedByEarlier: ConversationRef = { bot: 'main', platform: 'slack', id: 'C42:1712.5' };
const entry = (text: string) => JSON.stringify({ text });

describe('chatbridge migrate-state: the conversation locks as owner fields only', () => {
  let store: ReturnType<typeof isolatedRedisStore>;
  afterEach(async () => store.cleanup());

  /** What a replica of a version before owner fields writes: its queue, its pending set, and its lock while answering. */
  const earlierReplicaQueues = async (conversation: ConversationRef, lockToken: string | null) => {
    await store.listPush(gatewayKeys.queue(conversation), [entry(`from ${conversation.id}`)]);
    await store.setAdd(gatewayKeys.pending(conversation), conversationMember(conversation));
    if (lockToken) await store.set(gatewayKeys.lock(conversation), lockToken, { ttlMs: LOCK_TTL_MS });
  };
  /** A replica of this version keeping the earlier layout beside (queue-layout.ts) takes the conversation and renews it. */
  const currentReplicaAnswers = async (conversation: ConversationRef) => {
    const keys = queueKeys(conversation, true);
    const offered = await store.queueOffer(keys, entry(`from ${conversation.id}`), {
      dedupeKey: gatewayKeys.dedupe(conversation, '1'),
      dedupeTtlMs: LOCK_TTL_MS,
      maxLength: 10,
      lockTtlMs: LOCK_TTL_MS,
    });
    const token = offered.outcome === 'queued' ? offered.claim?.token : undefined;
    expect(token).toBeDefined();
    expect(await store.queueRenew(keys, token!, LOCK_TTL_MS)).toBe(true);
    return token!;
  };
  const owners = (conversation: ConversationRef) => store.hashGetAll(gatewayKeys.owners(conversation));
  const pendingSets = async () =>
    (await Promise.all(allShardTags().map((tag) => store.setMembers(gatewayKeys.pendingOfShard(tag))))).flat();

  it('refuses while a replica of the earlier version answers a conversation, naming it, and changes nothing', async () => {
    store = isolatedRedisStore('queue-owners', { checkSlots: true });
    await earlierReplicaQueues(answeredByEarlier, 'earlier-replica-token');
    await currentReplicaAnswers(answeredByCurrent);

    const refusal = await adoptOwnerFields(store).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(EarlierReplicaRunningError);
    // The lock a replica of this version holds is carried by its owner field: not named.
    expect((refusal as EarlierReplicaRunningError).conversations).toEqual([conversationMember(answeredByEarlier)]);
    expect((refusal as Error).message).toContain(conversationMember(answeredByEarlier));
    expect(await store.get(QUEUE_LAYOUT_KEY)).toBeNull();
    expect((await pendingSets()).sort()).toEqual(
      [conversationMember(answeredByEarlier), conversationMember(answeredByCurrent)].sort(),
    );
    expect(await owners(answeredByEarlier)).toEqual({});
  });

  it('once none answers: indexes what is queued in the earlier layout only, owned by nobody, then deletes the pending sets and writes the marker', async () => {
    store = isolatedRedisStore('queue-owners', { checkSlots: true });
    // Its replica stopped: the lock went with it, the queue and the pending set stay.
    await earlierReplicaQueues(queuedByEarlier, null);
    const token = await currentReplicaAnswers(answeredByCurrent);

    expect(await adoptOwnerFields(store)).toEqual({ indexed: 1, alreadyDone: false });

    expect(await owners(queuedByEarlier)).toEqual({ [conversationMember(queuedByEarlier)]: '' });
    // The replica answering keeps its conversation: its owner field is as it renewed it.
    expect((await owners(answeredByCurrent))[conversationMember(answeredByCurrent)]).toMatch(new RegExp(`^${token}#`));
    expect(await pendingSets()).toEqual([]);
    expect(await store.get(QUEUE_LAYOUT_KEY)).toBe(OWNER_FIELDS_ONLY);
    // A second run finds it done.
    expect(await adoptOwnerFields(store)).toEqual({ indexed: 0, alreadyDone: true });
  });
});
