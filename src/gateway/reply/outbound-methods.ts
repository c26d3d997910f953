/**
 * What a platform can do in a conversation, read from its Outbound's optional
 * methods: the contract has no flag that repeats a method (src/contract.ts,
 * `Capabilities`), so the core asks here instead of checking a flag that could
 * say "can edit" on an outbound without `edit`.
 */
import type { Adapter, ConversationRef, Outbound } from '../../contract.js';

type With<K extends keyof Outbound> = Outbound & Required<Pick<Outbound, K>>;

/** It can edit a message it sent (an answer streams by edits, a final replaces the preview). */
export function canEdit(outbound: Outbound): outbound is With<'edit'> {
  return typeof outbound.edit === 'function';
}

/** It shows ephemeral drafts (Telegram's sendMessageDraft). */
export function canDraft(outbound: Outbound): outbound is With<'draft'> {
  return typeof outbound.draft === 'function';
}

/** It streams natively (Slack's chat.startStream). */
export function canStreamNatively(outbound: Outbound): outbound is With<'startStream'> {
  return typeof outbound.startStream === 'function';
}

/** It can end a native stream by its id, as a process taking over one a crashed process left open. */
export function canStopStream(outbound: Outbound): outbound is With<'stopStream'> {
  return typeof outbound.stopStream === 'function';
}

/**
 * The outbound to use in one conversation: the adapter's own, or the one it offers
 * there when some methods do not apply (Telegram groups have no drafts).
 */
export function outboundIn(
  adapter: Pick<Adapter, 'outbound' | 'outboundFor'>,
  conversation: ConversationRef,
  isGroup: boolean,
): Outbound {
  return adapter.outboundFor?.(conversation, isGroup) ?? adapter.outbound;
}
