/**
 * An operator account's sessions, as an admin sees and ends them (the roster's AccountSessionsPort): the account's
 * list in the store (inboxKeys.accountSessions, written by InboxSessions at sign-in), when each was last seen, and
 * the ending of one or all, which also ends their pages' live streams in every process.
 */
import type { StateStore } from '../../state/index.js';
import { inboxKeys } from '../keys.js';
import type { AccountSessionInfo, AccountSessionsPort } from '../operators/index.js';
import type { InboxFeed } from '../pause/index.js';
import { endSessionStreams } from './live/index.js';

/** A session's "last seen" is written at most this often per process: a page's every request would be a write. */
const LAST_SEEN_EVERY_MS = 60_000;
/** Sessions whose last write this process remembers; past it, it forgets them all. */
const REMEMBERED = 10_000;

export class AccountSessions implements AccountSessionsPort {
  private readonly seenWritten = new Map<string, number>();

  constructor(
    private readonly state: StateStore,
    private readonly feed: InboxFeed,
  ) {}

  async list(accountId: string, now = Date.now()): Promise<AccountSessionInfo[]> {
    const all = await this.state.hashGetAll(inboxKeys.accountSessions(accountId));
    return Object.entries(all)
      .flatMap(([id, raw]) => {
        const info = decode(id, raw);
        return info && info.expiresAt > now ? [info] : [];
      })
      .sort((a, b) => b.lastSeenAt - a.lastSeenAt);
  }

  async end(accountId: string, sessionId: string): Promise<boolean> {
    const removed = await this.state.hashDel(inboxKeys.accountSessions(accountId), sessionId);
    const deleted = await this.state.del(inboxKeys.session(sessionId));
    await endSessionStreams(this.feed, sessionId);
    return removed + deleted > 0;
  }

  async endAll(accountId: string): Promise<number> {
    const key = inboxKeys.accountSessions(accountId);
    const ids = Object.keys(await this.state.hashGetAll(key));
    if (ids.length > 0) await this.state.del(key, ...ids.map((id) => inboxKeys.session(id)));
    for (const id of ids) await endSessionStreams(this.feed, id);
    return ids.length;
  }

  /** Notes that the session of `sessionId` (a digest) was used now, at most once a minute per process. */
  async seen(accountId: string, sessionId: string, now = Date.now()): Promise<void> {
    const written = this.seenWritten.get(sessionId);
    if (written !== undefined && now - written < LAST_SEEN_EVERY_MS) return;
    if (this.seenWritten.size >= REMEMBERED) this.seenWritten.clear();
    this.seenWritten.set(sessionId, now);
    const key = inboxKeys.accountSessions(accountId);
    const raw = await this.state.hashGet(key, sessionId);
    const info = raw === null ? null : decode(sessionId, raw);
    // Gone: ended meanwhile; nothing to note (the session is refused at its next read).
    if (!info) return;
    const { id: _id, ...stored } = { ...info, lastSeenAt: now };
    await this.state.hashSet(key, { [sessionId]: JSON.stringify(stored) });
  }
}

function decode(id: string, raw: string): AccountSessionInfo | null {
  try {
    const parsed = JSON.parse(raw) as Partial<AccountSessionInfo>;
    if (typeof parsed.signedInAt !== 'number' || typeof parsed.expiresAt !== 'number') return null;
    return {
      id,
      device: typeof parsed.device === 'string' ? parsed.device : '',
      address: typeof parsed.address === 'string' ? parsed.address : '',
      signedInAt: parsed.signedInAt,
      lastSeenAt: typeof parsed.lastSeenAt === 'number' ? parsed.lastSeenAt : parsed.signedInAt,
      expiresAt: parsed.expiresAt,
    };
  } catch {
    return null;
  }
}
