/**
 * The inbox feed: one subscription per process to the changes every process publishes (a channel
 * of the state store: Redis pub/sub, so also on a Cluster), fanned out to this process's listeners
 * (the open SSE streams). An open inbox page costs a listener, never a Redis connection.
 * Changes may arrive out of order (on a Cluster each PUBLISH may enter at another node); nothing
 * depends on their order: a page told of any change reads its regions again.
 */
import { formatConversationId } from '../../conversation-id.js';
import type { ConversationRef } from '../../../contract.js';
import type { Logger } from '../../../logger.js';
import type { StateStore } from '../../../state/index.js';
import { INBOX_CHANGE_KINDS, type InboxChange, type InboxChangeKind, type InboxFeed } from '../../pause/index.js';

/** The channel, under the store's prefix: `cb:inbox:changes`. */
export const INBOX_CHANNEL = 'inbox:changes';

/** What the feed tells the streams besides changes: it closed, or it may have missed changes. */
interface FeedHooks {
  close: Set<() => void>;
  resync: Set<() => void>;
}
const feedHooks = new WeakMap<InboxFeed, FeedHooks>();
const closedFeeds = new WeakSet<InboxFeed>();

function hook(feed: InboxFeed, kind: keyof FeedHooks, callback: () => void): () => void {
  const hooks = feedHooks.get(feed)?.[kind];
  if (!hooks) return () => {};
  hooks.add(callback);
  return () => void hooks.delete(callback);
}

/** Runs `callback` when `feed` closes; returns its removal. A feed not made by startInboxFeed never tells. */
export function onFeedClose(feed: InboxFeed, callback: () => void): () => void {
  return hook(feed, 'close', callback);
}

/**
 * Runs `callback` when changes may have been missed (the subscription came back after its Redis
 * connection was lost): the pages should read the state again.
 */
export function onFeedResync(feed: InboxFeed, callback: () => void): () => void {
  return hook(feed, 'resync', callback);
}

/** Whether close() was called on a feed made by startInboxFeed. */
export function feedClosed(feed: InboxFeed): boolean {
  return closedFeeds.has(feed);
}

export async function startInboxFeed(options: { state: StateStore; logger: Logger }): Promise<InboxFeed> {
  const { state, logger } = options;
  const listeners = new Set<(change: InboxChange) => void>();
  const hooks: FeedHooks = { close: new Set(), resync: new Set() };
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
  const run = (callbacks: Set<() => void>, what: string): void => {
    for (const callback of [...callbacks]) {
      try {
        callback();
      } catch (error) {
        logger.warn({ err: error }, `An inbox stream failed on ${what}`);
      }
    }
  };

  const unsubscribe = await state.subscribe(
    INBOX_CHANNEL,
    (message) => {
      const change = parseInboxChange(message);
      if (change) deliver(change);
      else
        logger.warn(
          { channel: INBOX_CHANNEL, message: message.slice(0, 200) },
          'Ignored a message on the inbox channel that is not an inbox change',
        );
    },
    {
      onResubscribed: () => {
        logger.info('The inbox feed is subscribed again after a Redis outage; open inbox pages refresh');
        run(hooks.resync, 'resync');
      },
    },
  );

  const feed: InboxFeed = {
    async publish({ conversation, kind }: { conversation: ConversationRef; kind: InboxChangeKind }): Promise<void> {
      if (closed) return;
      const change: InboxChange = {
        conversation: formatConversationId(conversation),
        bot: conversation.bot,
        kind,
        at: Date.now(),
      };
      try {
        // This process hears it back through its own subscription, like every other process.
        await state.publish(INBOX_CHANNEL, JSON.stringify(change));
      } catch (error) {
        logger.warn(
          { err: error, conversation: change.conversation, kind },
          'Could not tell the other gateway processes about an inbox change; their open pages show it at the next change',
        );
        // The pages of this process can still be told.
        deliver(change);
      }
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
      run(hooks.close, 'close');
      hooks.close.clear();
      hooks.resync.clear();
      await unsubscribe().catch((error: unknown) =>
        logger.debug({ err: error }, 'Unsubscribing the inbox feed failed (the store is closing)'),
      );
    },
  };
  feedHooks.set(feed, hooks);
  return feed;
}

/** A change as another process published it, or null when the message is not one. */
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
