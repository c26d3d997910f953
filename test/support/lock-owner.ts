import type { ConversationRef } from '../../src/contract.js';
import { conversationMember, gatewayKeys } from '../../src/gateway/index.js';
import type { StateStore } from '../../src/state/index.js';

/** Who holds a conversation's lock (its field in the shard's owners hash); null when nobody does ('' or absent). */
export async function lockOwner(
  state: Pick<StateStore, 'hashGetAll'>,
  conversation: ConversationRef,
): Promise<string | null> {
  return (await state.hashGetAll(gatewayKeys.owners(conversation)))[conversationMember(conversation)] || null;
}
