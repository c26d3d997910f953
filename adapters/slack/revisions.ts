/**
 * A user's message changed after it was sent → the core's `InboundRevision`: edited
 * (`message_changed`: the message as it reads now, under its own ts) or deleted
 * (`message_deleted`: its `deleted_ts`). Only a user's messages of a conversation the bot
 * serves, placed as they were when they arrived (inbound.ts, dispatch.ts): a DM or one of its
 * threads, a mention's thread, a thread the bot answers in. The bot's own edits (every update
 * of an answer being written is one) and Slack's changes that change nothing asked (a thread
 * reply counted on its root, a link preview added) are none.
 */
import type { InboundRevision } from '../../src/contract.js';
import { conversationId, type SlackPlace } from './conversation.js';
import type { SlackInnerMessage } from './events.js';
import {
  isUserMessage,
  mentionsBot,
  messageToInbound,
  sharedMessageOf,
  userOf,
  type InboundContext,
  type SlackIdentity,
  type SlackMessageEvent,
} from './inbound.js';
import type { ThreadMemory } from './threads.js';

/** The changed message as a `message` event of its channel, as it arrived (or would have). */
function asEvent(change: SlackMessageEvent, message: SlackInnerMessage): SlackMessageEvent {
  return {
    ...message,
    type: 'message',
    channel: change.channel,
    channel_type: change.channel_type,
    message: undefined,
    previous_message: undefined,
    deleted_ts: undefined,
  };
}

/**
 * Where a user's message was answered: its DM (the top level, or the thread it is in), a mention's
 * thread, or a channel thread the bot answers in; undefined where the bot answers nothing. A thread's
 * root carries its own ts as thread_ts once replied to, and is still where it was.
 */
async function placeOf(
  message: SlackMessageEvent,
  mentioned: boolean,
  identity: SlackIdentity,
  threads: ThreadMemory,
): Promise<SlackPlace | undefined> {
  const { channel } = message;
  const threadTs = message.thread_ts !== message.ts ? message.thread_ts : undefined;
  if (message.channel_type === 'im') return threadTs ? { channel, threadTs } : { channel };
  if (mentioned) return { channel, threadTs: threadTs ?? message.ts };
  if (threadTs && (await threads.isOurs(channel, threadTs, identity))) return { channel, threadTs };
  return undefined;
}

/** Whether the core would see another message: its text or what it shares changed. */
function changedForTheCore(now: SlackInnerMessage, before: SlackInnerMessage | undefined, identity: SlackIdentity) {
  if (!before) return now.edited !== undefined;
  const shared = (message: SlackInnerMessage) => JSON.stringify(sharedMessageOf(message.attachments, identity) ?? null);
  return (now.text ?? '') !== (before.text ?? '') || shared(now) !== shared(before);
}

export async function editToRevision(
  change: SlackMessageEvent,
  context: InboundContext,
  threads: ThreadMemory,
): Promise<InboundRevision | undefined> {
  const { identity } = context;
  if (!change.message) return undefined;
  const message = asEvent(change, change.message);
  const before = change.previous_message && asEvent(change, change.previous_message);
  if (!isUserMessage(message, identity) || !changedForTheCore(change.message, change.previous_message, identity))
    return undefined;
  // A mention added or taken away by the edit: the message was (or would have been) a mention's.
  const mentioned = mentionsBot(message, identity) || (before !== undefined && mentionsBot(before, identity));
  const place = await placeOf(message, mentioned, identity, threads);
  return place && { kind: 'edited', message: messageToInbound(message, place, context) };
}

export async function deleteToRevision(
  change: SlackMessageEvent,
  context: InboundContext,
  threads: ThreadMemory,
): Promise<InboundRevision | undefined> {
  const { identity } = context;
  // Without the deleted message Slack does not say whose it was, nor in which thread.
  if (!change.previous_message) return undefined;
  const message = asEvent(change, change.previous_message);
  if (!isUserMessage(message, identity)) return undefined;
  const place = await placeOf(message, mentionsBot(message, identity), identity, threads);
  if (!place) return undefined;
  return {
    kind: 'deleted',
    conversation: { bot: context.bot, platform: 'slack', id: conversationId(place) },
    user: userOf(message, context.teamId),
    platformMessageId: change.deleted_ts ?? message.ts,
  };
}
