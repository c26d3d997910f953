/**
 * The last step of an upgrade from a version before owner fields (`chatbridge migrate-state`), run once no replica of
 * such a version runs: the gateways of this version may keep running. Conversations queued only in the earlier
 * layout's pending sets are indexed in their shard's owners hash (owned by nobody, so a sweep answers them), the sets
 * are deleted, and the marker `state:queue-layout` is written: every gateway stops keeping the earlier layout at its
 * next sweep (src/gateway/drain/queue-layout.ts). A conversation whose earlier-layout lock belongs to no owner field
 * is being answered by a replica of an earlier version: nothing is changed then, and the error names it.
 */
import { allShardTags } from '../state/slots.js';
import type { StateStore } from '../state/index.js';
import {
  gatewayKeys,
  OWNER_FIELDS_ONLY,
  parseConversationMember,
  QUEUE_LAYOUT_KEY,
  queueOwners,
} from '../gateway/index.js';

export interface OwnerFieldsReport {
  /** Conversations found only in the earlier layout's index, now in their owners hash. */
  indexed: number;
  /** Whether the marker was there already (a store this version started on, or a second run). */
  alreadyDone: boolean;
}

/** A replica of an earlier version still answers a conversation: the earlier layout must be kept. */
export class EarlierReplicaRunningError extends Error {
  constructor(readonly conversations: string[]) {
    super(
      `A gateway of a version before owner fields is still answering ${conversations.length} conversation(s) ` +
        `(${conversations.slice(0, 3).join(', ')}${conversations.length > 3 ? ', …' : ''}): stop every replica of ` +
        'that version, then run `chatbridge migrate-state` again. Nothing was changed.',
    );
    this.name = 'EarlierReplicaRunningError';
  }
}

export async function adoptOwnerFields(state: StateStore): Promise<OwnerFieldsReport> {
  const alreadyDone = (await state.get(QUEUE_LAYOUT_KEY)) === OWNER_FIELDS_ONLY;
  // Every queued conversation, with its owner field (null: indexed only in an earlier-layout pending set).
  const owners = await queueOwners(state, true);
  const conversations = [...owners].flatMap(([member, owner]) => {
    const conversation = parseConversationMember(member);
    return conversation ? [{ member, owner, conversation }] : [];
  });
  const locks = await state.getMany(conversations.map(({ conversation }) => gatewayKeys.lock(conversation)));
  // A lock whose token no owner field carries was taken by a replica that writes no owner fields.
  const earlier = conversations.filter(({ owner }, at) => {
    const lock = locks[at];
    return lock != null && !(owner === lock || owner?.startsWith(`${lock}#`));
  });
  if (earlier.length > 0) throw new EarlierReplicaRunningError(earlier.map(({ member }) => member));
  let indexed = 0;
  for (const { member, owner, conversation } of conversations) {
    if (owner !== null) continue;
    const index = await state.hashCompareAndRun(gatewayKeys.owners(conversation), { [member]: null }, [
      { op: 'hashSet', key: gatewayKeys.owners(conversation), fields: { [member]: '' } },
    ]);
    if (index.applied) indexed++;
  }
  await state.set(QUEUE_LAYOUT_KEY, OWNER_FIELDS_ONLY);
  for (const tag of allShardTags()) await state.del(gatewayKeys.pendingOfShard(tag));
  return { indexed, alreadyDone };
}
