/**
 * The fake's chat and topic methods: getChat, getChatMember, createForumTopic,
 * editForumTopic, closeForumTopic, reopenForumTopic, deleteForumTopic, with the Bot API's
 * answers and error wording, and the service messages a topic's changes leave in it (which
 * Telegram delivers to a bot that is an admin of the group, as updates). Also the check every
 * send makes of its message_thread_id.
 */
import type { Message } from 'grammy/types';
import type { MethodContext, MethodHandler } from './context.js';
import { botManagesTopics, forumChat, TOPIC_ICON_COLOR, type ForumState, type TopicState } from './forum-state.js';
import { BadRequest, type Params } from './params.js';

/** Telegram's limit on a topic's name. */
export const MAX_TOPIC_NAME_LENGTH = 128;

/** A deleted or never created topic, in the words of the send methods. */
export const THREAD_NOT_FOUND = 'message thread not found';

/** chat_id as a number, or a public group's @username resolved to its id. */
export function resolveChatId(ctx: MethodContext, params: Params): number {
  const raw = params.optionalString('chat_id');
  if (raw?.startsWith('@')) {
    const name = raw.slice(1).toLowerCase();
    const forum = [...ctx.world.forums.values()].find((f) => f.username?.toLowerCase() === name);
    if (!forum) throw new BadRequest('chat not found');
    return forum.id;
  }
  return params.chatId();
}

function forumOf(ctx: MethodContext, chatId: number): ForumState {
  const forum = ctx.world.forums.get(chatId);
  if (!forum || forum.botStatus === 'left') throw new BadRequest('chat not found');
  return forum;
}

function requireTopicRights(forum: ForumState, what: string): void {
  if (!forum.isForum) throw new BadRequest('the chat is not a forum');
  if (!botManagesTopics(forum)) throw new BadRequest(`not enough rights to ${what}`);
}

function liveTopic(forum: ForumState, params: Params): TopicState {
  const topic = forum.topics.get(params.number('message_thread_id'));
  if (!topic || topic.deleted) throw new BadRequest(THREAD_NOT_FOUND);
  return topic;
}

/**
 * Every send with a message_thread_id into a forum: the topic must exist, and a closed one
 * takes messages only from admins. Chats the fake has not set up as forums are not checked.
 */
export function checkThread(ctx: MethodContext, chatId: number, params: Params): void {
  const forum = ctx.world.forums.get(chatId);
  if (!forum || !params.has('message_thread_id')) return;
  const topic = forum.topics.get(params.number('message_thread_id'));
  if (!topic || topic.deleted) throw new BadRequest(THREAD_NOT_FOUND);
  if (topic.closed && forum.botStatus !== 'administrator') throw new BadRequest('TOPIC_CLOSED');
}

/** A service message the bot's action leaves in the topic, delivered as an update like any message. */
function serviceMessage(
  ctx: MethodContext,
  forum: ForumState,
  threadId: number | undefined,
  content: Record<string, unknown>,
): Message {
  const messageId = ctx.world.nextMessageId(forum.id);
  const message = {
    message_id: messageId,
    from: { id: ctx.botUser.id, is_bot: true, first_name: ctx.botUser.first_name, username: ctx.botUser.username },
    chat: forumChat(forum),
    date: Math.floor(ctx.world.now() / 1000),
    message_thread_id: threadId ?? messageId,
    is_topic_message: true,
    ...content,
  } as unknown as Message;
  ctx.world.storeMessage(message);
  ctx.queue.push({ message } as Parameters<typeof ctx.queue.push>[0]);
  return message;
}

function topicName(params: Params, required: boolean): string | undefined {
  const name = params.optionalString('name');
  if (name === undefined && !required) return undefined;
  if (!name) throw new BadRequest('TOPIC_TITLE_EMPTY');
  if ([...name].length > MAX_TOPIC_NAME_LENGTH) throw new BadRequest('TOPIC_TITLE_INVALID');
  return name;
}

const getChat: MethodHandler = (ctx, params) => {
  const chatId = resolveChatId(ctx, params);
  if (chatId > 0) return { result: { id: chatId, type: 'private', first_name: `User${chatId}` } };
  const forum = forumOf(ctx, chatId);
  return {
    result: {
      ...forumChat(forum),
      accent_color_id: 0,
      max_reaction_count: 11,
      accepted_gift_types: {
        unlimited_gifts: false,
        limited_gifts: false,
        unique_gifts: false,
        premium_subscription: false,
      },
    },
  };
};

const getChatMember: MethodHandler = (ctx, params) => {
  const forum = forumOf(ctx, resolveChatId(ctx, params));
  const userId = params.number('user_id');
  if (userId !== ctx.botUser.id) throw new BadRequest('PARTICIPANT_ID_INVALID');
  const user = { id: ctx.botUser.id, is_bot: true, first_name: ctx.botUser.first_name, username: ctx.botUser.username };
  if (forum.botStatus !== 'administrator') return { result: { status: forum.botStatus, user } };
  return {
    result: {
      status: 'administrator',
      user,
      can_be_edited: false,
      is_anonymous: false,
      can_manage_chat: true,
      can_delete_messages: true,
      can_manage_video_chats: false,
      can_restrict_members: false,
      can_promote_members: false,
      can_change_info: false,
      can_invite_users: true,
      can_post_stories: false,
      can_edit_stories: false,
      can_delete_stories: false,
      can_pin_messages: true,
      can_manage_topics: forum.canManageTopics,
      can_send_welcome_messages: false,
    },
  };
};

const createForumTopic: MethodHandler = (ctx, params) => {
  const forum = forumOf(ctx, resolveChatId(ctx, params));
  requireTopicRights(forum, 'create a topic');
  const name = topicName(params, true) ?? '';
  const created = serviceMessage(ctx, forum, undefined, {
    forum_topic_created: { name, icon_color: TOPIC_ICON_COLOR },
  });
  const topic: TopicState = {
    message_thread_id: created.message_id,
    name,
    icon_color: TOPIC_ICON_COLOR,
    closed: false,
    deleted: false,
  };
  forum.topics.set(topic.message_thread_id, topic);
  return {
    result: { message_thread_id: topic.message_thread_id, name, icon_color: topic.icon_color },
    messageId: created.message_id,
  };
};

const editForumTopic: MethodHandler = (ctx, params) => {
  const forum = forumOf(ctx, resolveChatId(ctx, params));
  requireTopicRights(forum, 'manage topics');
  const topic = liveTopic(forum, params);
  const name = topicName(params, false);
  if (name === undefined || name === topic.name) throw new BadRequest('TOPIC_NOT_MODIFIED');
  topic.name = name;
  serviceMessage(ctx, forum, topic.message_thread_id, { forum_topic_edited: { name } });
  return { result: true };
};

function setClosed(closed: boolean): MethodHandler {
  return (ctx, params) => {
    const forum = forumOf(ctx, resolveChatId(ctx, params));
    requireTopicRights(forum, 'manage topics');
    const topic = liveTopic(forum, params);
    if (topic.closed === closed) throw new BadRequest('TOPIC_NOT_MODIFIED');
    topic.closed = closed;
    serviceMessage(
      ctx,
      forum,
      topic.message_thread_id,
      closed ? { forum_topic_closed: {} } : { forum_topic_reopened: {} },
    );
    return { result: true };
  };
}

const deleteForumTopic: MethodHandler = (ctx, params) => {
  const forum = forumOf(ctx, resolveChatId(ctx, params));
  if (forum.botStatus !== 'administrator') throw new BadRequest('not enough rights to delete a topic');
  liveTopic(forum, params).deleted = true;
  return { result: true };
};

export const forumMethods: Record<string, MethodHandler> = {
  getChat,
  getChatMember,
  createForumTopic,
  editForumTopic,
  closeForumTopic: setClosed(true),
  reopenForumTopic: setClosed(false),
  deleteForumTopic,
};

/** For the world helpers: a forum the test set up, or an error naming the call. */
export function requireForum(forums: Map<number, ForumState>, chatId: number, call: string): ForumState {
  const forum = forums.get(chatId);
  if (!forum) throw new Error(`fake Telegram: ${call}: chat ${chatId} is not a forum set up with createForum`);
  return forum;
}
