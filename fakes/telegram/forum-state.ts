/**
 * Supergroups with topics (forums) as the fake knows them: the group's own description
 * (getChat), the bot's membership and rights in it (getChatMember), and its topics with
 * their state. A topic deleted by hand stays known as deleted, so that later calls naming
 * its message_thread_id fail as Telegram's do.
 */
import type { Chat } from 'grammy/types';

export interface ForumSetup {
  id: number;
  title?: string;
  /** A public group: t.me/<username>/<topic>. */
  username?: string;
  /** Topics turned on in the group's settings (default true). */
  isForum?: boolean;
  /** The bot's membership (default administrator). */
  botStatus?: 'administrator' | 'member' | 'left';
  /** As an administrator, the right to create, rename, close and reopen topics (default true). */
  canManageTopics?: boolean;
}

export interface TopicState {
  message_thread_id: number;
  name: string;
  icon_color: number;
  closed: boolean;
  /** Deleted by a person in the app: every later call naming it fails. */
  deleted: boolean;
}

export interface ForumState {
  id: number;
  title: string;
  username?: string;
  isForum: boolean;
  botStatus: 'administrator' | 'member' | 'left';
  canManageTopics: boolean;
  topics: Map<number, TopicState>;
}

/** Telegram's topic icon colours; the fake gives each new topic the first. */
export const TOPIC_ICON_COLOR = 0x6fb9f0;

export function forumState(setup: ForumSetup): ForumState {
  return {
    id: setup.id,
    title: setup.title ?? `Forum ${-setup.id}`,
    ...(setup.username ? { username: setup.username } : {}),
    isForum: setup.isForum ?? true,
    botStatus: setup.botStatus ?? 'administrator',
    canManageTopics: setup.canManageTopics ?? true,
    topics: new Map(),
  };
}

/** The group as it appears in a message's `chat`. */
export function forumChat(forum: ForumState): Chat {
  return {
    id: forum.id,
    type: 'supergroup',
    title: forum.title,
    ...(forum.username ? { username: forum.username } : {}),
    ...(forum.isForum ? { is_forum: true } : {}),
  } as Chat;
}

/** Whether the bot may manage topics (and so post in a closed one): an admin with can_manage_topics. */
export function botManagesTopics(forum: ForumState): boolean {
  return forum.botStatus === 'administrator' && forum.canManageTopics;
}
