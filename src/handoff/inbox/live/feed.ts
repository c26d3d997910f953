/**
 * The inbox feed: one subscription per process to the changes every process publishes, fanned
 * out to this process's listeners (the open SSE streams). An open inbox page costs a listener,
 * never a Redis connection.
 */
import { formatConversationId } from '../../conversation-id.js';
import type { Logger } from '../../../logger.js';
import type { StateStore } from '../../../state/index.js';
import { INBOX_CHANGE_KINDS, type InboxChange, type InboxChangeKind, type InboxFeed } from './types.js';

/** Told when a feed closes, so that the streams it serves end and the HTTP server can stop. */
const closeHooks = new WeakMap<InboxFeed, Set<() => void>>();

const closedFeeds = new WeakSet<InboxFeed>();

/** Runs `hook` when `feed` closes; returns its removal. A feed not made by startInboxFeed never tells. */
export function onFeedClose(feed: InboxFeed, hook: () => void): () => void {
  const hooks = closeHooks.get(feed);
  if (!hooks) return () => {};
  hooks.add(hook);
  return () => void hooks.delete(hook);
}

/** Whether close() was called on a feed made by startInboxFeed. */
export function feedClosed(feed: InboxFeed): boolean {
  return closedFeeds.has(feed);
}

export async function startInboxFeed(options: { state: StateStore; logger: Logger }): Promise<InboxFeed> {
  const { logger } = options;
  const listeners = new Set<(change: InboxChange) => void>();
  const hooks = new Set<() => void>();
  let closed = false;

  const deliver = (change: InboxChange): void => {
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch (error) {
        logger.warn({ err: error, conversation: change.conversation }, 'An inbox listener failed on a change');
      }
    }
  };

  const feed: InboxFeed = {
    async publish({ conversation, kind }: { conversation: { bot: string; platform: string; id: string }; kind: InboxChangeKind }): Promise<void> {
      if (closed) return;
      const change: InboxChange = { conversation: formatConversationId(conversation), bot: conversation.bot, kind, at: Date.now() };
      deliver(change);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      closedFeeds.add(feed);
      listeners.clear();
      for (const hook of [...hooks]) hook();
      hooks.clear();
    },
  };
  closeHooks.set(feed, hooks);
  return feed;
}

/** A change as another process published it, or null when the message is not one (logged by the caller). */
export function parseInboxChange(message: string): InboxChange | null {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { conversation, bot, kind, at } = value as Record<string, unknown>;
  if (typeof conversation !== 'string' || typeof bot !== 'string' || typeof at !== 'number') return null;
  if (typeof kind !== 'string' || !INBOX_CHANGE_KINDS.has(kind as InboxChangeKind)) return null;
  return { conversation, bot, kind: kind as InboxChangeKind, at };
}
