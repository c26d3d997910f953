/**
 * GET /inbox/events: the Server-Sent Events stream of an inbox page. Every open page of this
 * process shares one listener on the feed and one heartbeat timer (a hub per feed); a stream
 * costs its socket and a few small objects, and a client that stops reading costs at most
 * one held-back change (never a growing buffer).
 */
import type { Request, Response } from 'express';
import { feedClosed, onFeedClose, onFeedResync, onSessionEnded } from './feed.js';
import type { InboxChange, InboxFeed, InboxViewer } from '../../pause/index.js';

/** A comment line this often keeps proxies (and the browser) from closing an idle stream. */
export const HEARTBEAT_MS = 25_000;
/** Past this many unsent bytes on a socket, a client is not reading: changes wait, coalesced into the last. */
const BACKLOG_LIMIT_BYTES = 16 * 1024;
/** What EventSource waits before reconnecting after the stream ends (e.g. a replica stopped). */
const RECONNECT_MS = 2_000;
/** setTimeout's longest delay (about 24.8 days); a later expiry is checked again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The session a stream is served to: it ends when the session does (signed out anywhere, or expired). */
export interface StreamSession {
  /** The session id's digest, as the store keeps it and as its end is told (feed.ts endSessionStreams). */
  digest: string;
  /** ms since epoch. */
  expiresAt: number;
}

interface Stream {
  res: Response;
  viewer: InboxViewer;
  /** Only this conversation's changes (a conversation page), or every one the viewer may see (the list). */
  conversation: string | undefined;
  /**
   * The newest event held back while the client was not reading, sent on 'drain'. One is enough:
   * whatever the event, the page reads its regions again, and then sees every change before it.
   */
  held: string | undefined;
  session: StreamSession | undefined;
  /** Ends the stream at its session's expiry. */
  expiry: NodeJS.Timeout | undefined;
}

class StreamHub {
  readonly streams = new Set<Stream>();
  private readonly unsubscribe: () => void;
  private readonly unhookClose: () => void;
  private readonly unhookResync: () => void;
  private readonly unhookSessionEnded: () => void;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    feed: InboxFeed,
    private readonly onEmpty: () => void,
  ) {
    this.unsubscribe = feed.subscribe((change) => this.tell(change));
    this.unhookClose = onFeedClose(feed, () => this.endAll());
    // Changes may have been missed while Redis was away: every page reads its regions again.
    this.unhookResync = onFeedResync(feed, () => {
      for (const stream of this.streams) write(stream, 'event: resync\ndata: {}\n\n');
    });
    // Signed out (in any process): its streams say nothing more.
    this.unhookSessionEnded = onSessionEnded(feed, (digest) => {
      for (const stream of [...this.streams]) if (stream.session?.digest === digest) this.end(stream);
    });
    this.heartbeat = setInterval(() => {
      for (const stream of this.streams)
        if (stream.res.writableLength < BACKLOG_LIMIT_BYTES) stream.res.write(': heartbeat\n\n');
    }, HEARTBEAT_MS);
    // The heartbeat alone never keeps a stopping process alive.
    this.heartbeat.unref();
  }

  add(stream: Stream): void {
    this.streams.add(stream);
    if (stream.session) this.endAtExpiry(stream, stream.session.expiresAt);
    const remove = (): void => this.remove(stream);
    stream.res.on('close', remove);
    stream.res.on('drain', () => {
      const held = stream.held;
      stream.held = undefined;
      if (held) write(stream, held);
    });
  }

  private endAtExpiry(stream: Stream, expiresAt: number): void {
    const left = expiresAt - Date.now();
    if (left <= 0) return this.end(stream);
    stream.expiry = setTimeout(() => this.endAtExpiry(stream, expiresAt), Math.min(left, LONGEST_TIMER_MS));
    stream.expiry.unref();
  }

  /** Ends one stream: nothing more is written to it (EventSource comes back, and is refused without a session). */
  private end(stream: Stream): void {
    this.remove(stream);
    stream.res.end();
  }

  private remove(stream: Stream): void {
    clearTimeout(stream.expiry);
    if (!this.streams.delete(stream)) return;
    if (this.streams.size === 0) this.dispose();
  }

  private tell(change: InboxChange): void {
    for (const stream of this.streams) {
      if (visible(change, stream)) write(stream, `event: change\ndata: ${JSON.stringify(change)}\n\n`);
    }
  }

  private endAll(): void {
    for (const stream of [...this.streams]) {
      clearTimeout(stream.expiry);
      stream.res.end();
    }
    this.dispose();
  }

  private dispose(): void {
    for (const stream of this.streams) clearTimeout(stream.expiry);
    this.streams.clear();
    clearInterval(this.heartbeat);
    this.unsubscribe();
    this.unhookClose();
    this.unhookResync();
    this.unhookSessionEnded();
    this.onEmpty();
  }
}

const hubs = new WeakMap<InboxFeed, StreamHub>();

function write(stream: Stream, event: string): void {
  if (stream.res.writableLength >= BACKLOG_LIMIT_BYTES) stream.held = event;
  else stream.res.write(event);
}

function visible(change: InboxChange, stream: Stream): boolean {
  if (stream.conversation !== undefined && change.conversation !== stream.conversation) return false;
  return stream.viewer.bots === 'all' || stream.viewer.bots.includes(change.bot);
}

/**
 * GET /inbox/events[?conversation=<formatted id>]: an SSE stream of the changes `viewer` may see
 * (`event: change`, `data: <InboxChange JSON>`), a comment heartbeat every 25 s, ended by feed.close().
 * Also `event: resync` when changes may have been missed (the feed's Redis subscription came back).
 * The caller has checked the session; a conversation the viewer may not see simply never sends. With `session`, the
 * stream ends when that session does: signed out in any process (feed.ts endSessionStreams), or at its expiry.
 */
export function serveInboxEvents(
  feed: InboxFeed,
  req: Request,
  res: Response,
  viewer: InboxViewer,
  session?: StreamSession,
): void {
  const param = req.query.conversation;
  if (param !== undefined && typeof param !== 'string') {
    res.status(400).type('text/plain').send('conversation must be given once, as <bot>:<platform>:<id>.');
    return;
  }
  if (feedClosed(feed)) {
    // The process is stopping: the browser's EventSource tries again (another replica, or this one restarted).
    res
      .status(503)
      .set('Retry-After', String(RECONNECT_MS / 1000))
      .type('text/plain')
      .send('The gateway is stopping.');
    return;
  }
  let hub = hubs.get(feed);
  if (!hub) {
    const created: StreamHub = new StreamHub(feed, () => {
      if (hubs.get(feed) === created) hubs.delete(feed);
    });
    hub = created;
    hubs.set(feed, hub);
  }
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    // nginx and similar proxies buffer responses unless told not to: events would arrive in bursts.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  // Small events should leave at once rather than wait for Nagle's algorithm.
  req.socket.setNoDelay(true);
  res.write(`retry: ${RECONNECT_MS}\n\n`);
  hub.add({ res, viewer, conversation: param === '' ? undefined : param, held: undefined, session, expiry: undefined });
}
