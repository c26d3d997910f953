/** Reading a Web API call's parameters, and the conversation it names, as every fake method does. */
import { SlackApiError, type MethodContext, type MethodParams } from './context.js';
import type { ConversationInfo, VisibleMessage } from './world.js';

export function str(params: MethodParams, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : String(value);
}

export function required(params: MethodParams, name: string, error = 'invalid_arguments'): string {
  const value = str(params, name);
  if (value === undefined)
    throw new SlackApiError(error, { response_metadata: { messages: [`[ERROR] missing required field: ${name}`] } });
  return value;
}

export function conversationOf(ctx: MethodContext, id: string): ConversationInfo {
  const conversation = ctx.world.conversation(id);
  // A private channel the app is not in does not exist for it.
  if (!conversation || (conversation.is_group && conversation.is_member === false))
    throw new SlackApiError('channel_not_found');
  return conversation;
}

/** A channel the app posts in or reads: it must be a member (Slack answers `not_in_channel`). */
export function joinedConversation(ctx: MethodContext, id: string): ConversationInfo {
  const conversation = conversationOf(ctx, id);
  if (conversation.is_member === false) throw new SlackApiError('not_in_channel');
  return conversation;
}

export function newMessage(
  ctx: MethodContext,
  message: Omit<VisibleMessage, 'ts' | 'edits' | 'state' | 'otherChunks' | 'format'>,
): VisibleMessage {
  const stored: VisibleMessage = {
    ...message,
    ts: ctx.world.nextTs(),
    edits: 0,
    state: 'done',
    otherChunks: [],
    format: 'mrkdwn',
  };
  ctx.world.storeMessage(stored);
  return stored;
}
