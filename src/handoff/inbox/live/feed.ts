/**
 * The inbox feed: one subscription per process to the changes every process publishes (a channel
 * of the state store: Redis pub/sub, so also on a Cluster), fanned out to this process's listeners
 * (the open SSE streams). An open inbox page costs a listener, never a Redis connection. A second channel tells
 * every process which session ended, so that its streams end wherever they are served.
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
/** Where a session's end is told to every process (its id's digest, as the store keeps it): `cb:inbox:session-ended`. */
export const SESSION_ENDED_CHANNEL = 'inbox:session-ended';
/** A session id's digest: SHA-256 in base64url (sessions.ts). */
const SESSION_DIGEST = /^[A-Za-z0-9_-]{43}$/;

/** What the feed tells the streams besides changes: it closed, it may have missed changes, a session ended. */
interface FeedHooks {
  close: Set<() => void>;
  resync: Set<() => void>;
  sessionEnded: Set<(digest: string) => void>;
  /** Tells every process that the session of `digest` ended. */
  endSession(digest: string): Promise<void>;
}
const feedHooks = new WeakMap<InboxFeed, FeedHooks>();
const closedFeeds = new WeakSet<InboxFeed>();

function hook(feed: InboxFeed, kind: 'close' | 'resync', callback: () => void): () => void {
  const hooks = feedHooks.get(feed)?.[kind];
  if (!hooks) return () => {};
  hooks.add(callback);
  return () => void hooks.delete(callback);
}

/** Runs `callback` with a session's digest when that session ends (signed out, replaced), in whichever process. */
export function onSessionEnded(feed: InboxFeed, callback: (digest: string) => void): () => void {
  const hooks = feedHooks.get(feed)?.sessionEnded;
  if (!hooks) return () => {};
  hooks.add(callback);
  return () => void hooks.delete(callback);
}

/**
 * Ends the open streams of the session of `digest` in every process sharing the store (published on its channel; when
 * that fails, at least this process's). Never throws: the session itself is already gone from the store.
 */
export async function endSessionStreams(feed: InboxFeed, digest: string): Promise<void> {
  await feedHooks.get(feed)?.endSession(digest);
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
  const sessionEnded = new Set<(digest: string) => void>();
  const endLocally = (digest: string): void => {
    for (const callback of [...sessionEnded]) {
      try {
        callback(digest);
      } catch (error) {
        logger.warn({ err: error }, 'An inbox stream failed on the end of its session');
      }
    }
  };
  const hooks: FeedHooks = {
    close: new Set(),
    resync: new Set(),
    sessionEnded,
    async endSession(digest) {
      try {
        // This process hears it back through its own subscription, like every other process.
        await state.publish(SESSION_ENDED_CHANNEL, digest);
      } catch (error) {
        logger.warn(
          { err: error },
          "Could not tell the other gateway processes that an inbox session ended; their streams of it end at the session's expiry",
        );
        endLocally(digest);
      }
    },
  };
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

  const unsubscribeEnds = await state.subscribe(SESSION_ENDED_CHANNEL, (message) => {
    if (SESSION_DIGEST.test(message)) endLocally(message);
    else
      logger.warn({ channel: SESSION_ENDED_CHANNEL }, 'Ignored a message on the inbox channel that is not a session');
  });

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
      sessionEnded.clear();
      await Promise.all(
        [unsubscribe, unsubscribeEnds].map((stop) =>
          stop().catch((error: unknown) =>
            logger.debug({ err: error }, 'Unsubscribing the inbox feed failed (the store is closing)'),
          ),
        ),
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
