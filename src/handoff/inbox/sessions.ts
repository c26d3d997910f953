/**
 * Signed-in operators: a session is a random id in the `cb_inbox` cookie and, in the state store under the id's
 * digest, how it signed in and its CSRF token. Three kinds:
 *
 * - **account**: an operator account signed in by an e-mail link. Who they are, their role and their chatbots are read
 *   from the account at every request, so a change is effective at once; a session made before a change that took
 *   something away (the account's epoch) or of a removed account is refused and deleted.
 * - **token**: the admin token, the break-glass key (inbox.tokenSignIn): an admin of every chatbot, with a typed name.
 * - **link**: a handoff e-mail's link opened by someone who is no operator account: that chatbot's conversations only.
 *
 * Any gateway process sharing the store knows each of them.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { StateStore } from '../../state/index.js';
import { inboxKeys } from '../keys.js';
import type { InboxViewer } from '../pause/index.js';
import { visibleBots, type OperatorAccount, type OperatorAccounts, type OperatorRole } from '../operators/index.js';

/** 256 bits: a session id cannot be guessed. */
const SESSION_ID_BYTES = 32;
const CSRF_TOKEN_BYTES = 32;
const HOUR_MS = 60 * 60_000;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export type SignedInBy = 'account' | 'token' | 'link';

export interface InboxSession {
  id: string;
  by: SignedInBy;
  viewer: InboxViewer;
  /** The operator's display name, kept with each message they send (an account's as it is now). */
  operator: string;
  /** An admin manages operators and opens the platforms' pages; the admin token's sessions are admins. */
  role: OperatorRole;
  /** The account of an `account` session. */
  account?: { id: string; email: string };
  /** The token every state-changing request of this session carries (`_csrf`, `X-CSRF-Token`). */
  csrf: string;
  expiresAt: number;
}

/** Where a session was opened from, for its account's session list. */
export interface SessionOrigin {
  userAgent: string;
  address: string;
}

/** What a new session is. */
export type NewSession =
  /** `only`: a handoff e-mail's link signed them in for that chatbot alone, as an operator whatever their role. */
  | { by: 'account'; account: OperatorAccount; only?: readonly string[] }
  | { by: 'token'; operator: string }
  | { by: 'link'; operator: string; bots: readonly string[] };

/** The record in the store (the id is the key's digest). */
interface StoredSession {
  by: SignedInBy;
  csrf: string;
  expiresAt: number;
  /** token and link sessions: the name typed and what they see. */
  operator?: string;
  bots?: 'all' | string[];
  /** account sessions. */
  account?: { id: string; email: string; epoch: number; only?: string[] };
}

export class InboxSessions {
  constructor(
    private readonly state: StateStore,
    private readonly hours: number,
    private readonly accounts: OperatorAccounts,
  ) {}

  /** How long a new session lasts, in ms (the cookie's Max-Age too). */
  get lifetimeMs(): number {
    return Math.max(1, Math.round(this.hours * HOUR_MS));
  }

  async create(what: NewSession, origin: SessionOrigin, now = Date.now()): Promise<InboxSession> {
    const id = randomBytes(SESSION_ID_BYTES).toString('base64url');
    const stored: StoredSession = {
      by: what.by,
      csrf: randomBytes(CSRF_TOKEN_BYTES).toString('base64url'),
      expiresAt: now + this.lifetimeMs,
      ...(what.by === 'account'
        ? {
            account: {
              id: what.account.id,
              email: what.account.email,
              epoch: what.account.epoch,
              ...(what.only ? { only: [...what.only] } : {}),
            },
          }
        : { operator: what.operator, bots: what.by === 'token' ? 'all' : [...what.bots] }),
    };
    await this.state.set(inboxKeys.session(digest(id)), JSON.stringify(stored), { ttlMs: this.lifetimeMs });
    if (what.by === 'account') await this.index(what.account.id, digest(id), stored.expiresAt, origin, now);
    const session = sessionOf(id, stored, what.by === 'account' ? what.account : null);
    if (!session) throw new Error('a new inbox session could not be read back');
    return session;
  }

  /**
   * The live session of this id, or null (unknown, expired, not a session id at all, or of an account that was removed
   * or changed since). An account session is read with its account as it is now.
   */
  async read(id: string, now = Date.now()): Promise<InboxSession | null> {
    if (!SESSION_ID.test(id)) return null;
    const key = inboxKeys.session(digest(id));
    const raw = await this.state.get(key);
    const stored = raw === null ? null : decode(raw);
    if (!stored || stored.expiresAt <= now) return null;
    if (!stored.account) return sessionOf(id, stored, null);
    const account = await this.accounts.byEmail(stored.account.email);
    const session = sessionOf(id, stored, account);
    if (!session) {
      // Removed, or changed since: the session ends here too, should the removal's own ending have missed it.
      await this.state.del(key);
      await this.state.hashDel(inboxKeys.accountSessions(stored.account.id), digest(id));
    }
    return session;
  }

  /** Deletes a session (its streams are ended by the caller, inbox-requests.ts). */
  async delete(id: string): Promise<void> {
    const key = inboxKeys.session(digest(id));
    const raw = await this.state.get(key);
    const account = raw === null ? undefined : decode(raw)?.account;
    await this.state.del(key);
    if (account) await this.state.hashDel(inboxKeys.accountSessions(account.id), digest(id));
  }

  /** Notes an account session in its account's list, for the admin's view and for ending them all. */
  private async index(accountId: string, idDigest: string, expiresAt: number, origin: SessionOrigin, now: number) {
    const key = inboxKeys.accountSessions(accountId);
    const info = {
      device: origin.userAgent.slice(0, 300),
      address: origin.address,
      signedInAt: now,
      lastSeenAt: now,
      expiresAt,
    };
    await this.state.hashSet(key, { [idDigest]: JSON.stringify(info) });
    // The list lives as long as its newest session: each sign-in pushes it out.
    await this.state.expire(key, this.lifetimeMs);
  }
}

/** The store keeps the id's digest only: a copy of Redis holds no usable session. Its end is told by it too. */
export function sessionDigest(id: string): string {
  return digest(id);
}

function digest(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/** The session a record makes, with its account as it is now; null when that account no longer allows it. */
function sessionOf(id: string, stored: StoredSession, account: OperatorAccount | null): InboxSession | null {
  const base = { id, by: stored.by, csrf: stored.csrf, expiresAt: stored.expiresAt };
  if (stored.account) {
    if (!account || account.id !== stored.account.id || account.epoch !== stored.account.epoch) return null;
    const { only } = stored.account;
    const bots = visibleBots(account);
    return {
      ...base,
      viewer: { bots: only ? only.filter((bot) => bots === 'all' || bots.includes(bot)) : bots },
      operator: account.name,
      role: only ? 'operator' : account.role,
      account: { id: account.id, email: account.email },
    };
  }
  return {
    ...base,
    viewer: { bots: stored.bots ?? [] },
    operator: stored.operator ?? '',
    role: stored.by === 'token' ? 'admin' : 'operator',
  };
}

function decode(raw: string): StoredSession | null {
  try {
    const parsed = JSON.parse(raw) as Partial<StoredSession> & { viewer?: InboxViewer };
    if (typeof parsed.csrf !== 'string' || typeof parsed.expiresAt !== 'number') return null;
    if (parsed.account) {
      const { id, email, epoch, only } = parsed.account;
      if (typeof id !== 'string' || typeof email !== 'string' || typeof epoch !== 'number') return null;
      const scoped = Array.isArray(only) ? { only: only.filter((bot) => typeof bot === 'string') } : {};
      return {
        by: 'account',
        csrf: parsed.csrf,
        expiresAt: parsed.expiresAt,
        account: { id, email, epoch, ...scoped },
      };
    }
    // A session written before accounts existed holds `viewer`: all bots was the token's, a list the link's.
    const bots = parsed.bots ?? parsed.viewer?.bots;
    const botsOk = bots === 'all' || (Array.isArray(bots) && bots.every((bot) => typeof bot === 'string'));
    if (!botsOk || typeof parsed.operator !== 'string') return null;
    const by: SignedInBy = parsed.by ?? (bots === 'all' ? 'token' : 'link');
    return {
      by,
      csrf: parsed.csrf,
      expiresAt: parsed.expiresAt,
      operator: parsed.operator,
      bots: bots === 'all' ? 'all' : [...(bots as string[])],
    };
  } catch {
    return null;
  }
}
