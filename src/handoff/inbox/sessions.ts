/**
 * Signed-in operators: a session is a random id in the `cb_inbox` cookie and, in the state store,
 * what it allows (the viewer), who it is (the operator's name), its CSRF token and its expiry.
 * Any gateway process sharing the store knows it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { StateStore } from '../../state/index.js';
import { inboxKeys } from '../keys.js';
import type { InboxViewer } from '../pause/index.js';

/** 256 bits: a session id cannot be guessed. */
const SESSION_ID_BYTES = 32;
const CSRF_TOKEN_BYTES = 32;
const HOUR_MS = 60 * 60_000;

export interface InboxSession {
  id: string;
  viewer: InboxViewer;
  /** The operator's display name, kept with each message they send. */
  operator: string;
  /** The token every state-changing request of this session carries (`_csrf`, `X-CSRF-Token`). */
  csrf: string;
  expiresAt: number;
}

export class InboxSessions {
  constructor(
    private readonly state: StateStore,
    private readonly hours: number,
  ) {}

  /** How long a new session lasts, in ms (the cookie's Max-Age too). */
  get lifetimeMs(): number {
    return Math.max(1, Math.round(this.hours * HOUR_MS));
  }

  async create(viewer: InboxViewer, operator: string, now = Date.now()): Promise<InboxSession> {
    const session: InboxSession = {
      id: randomBytes(SESSION_ID_BYTES).toString('base64url'),
      viewer,
      operator,
      csrf: randomBytes(CSRF_TOKEN_BYTES).toString('base64url'),
      expiresAt: now + this.lifetimeMs,
    };
    const { id: _id, ...stored } = session;
    await this.state.set(inboxKeys.session(digest(session.id)), JSON.stringify(stored), { ttlMs: this.lifetimeMs });
    return session;
  }

  /** The live session of this id, or null (unknown, expired, or not a session id at all). */
  async read(id: string, now = Date.now()): Promise<InboxSession | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const raw = await this.state.get(inboxKeys.session(digest(id)));
    const stored = raw === null ? null : decode(raw);
    return stored && stored.expiresAt > now ? { id, ...stored } : null;
  }

  async delete(id: string): Promise<void> {
    await this.state.del(inboxKeys.session(digest(id)));
  }
}

/** The store keeps the id's digest only: a copy of Redis holds no usable session. Its end is told by it too. */
export function sessionDigest(id: string): string {
  return digest(id);
}

function digest(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

function decode(raw: string): Omit<InboxSession, 'id'> | null {
  try {
    const parsed = JSON.parse(raw) as Partial<Omit<InboxSession, 'id'>>;
    const bots = parsed.viewer?.bots;
    const viewerOk = bots === 'all' || (Array.isArray(bots) && bots.every((bot) => typeof bot === 'string'));
    if (
      !viewerOk ||
      typeof parsed.operator !== 'string' ||
      typeof parsed.csrf !== 'string' ||
      typeof parsed.expiresAt !== 'number'
    )
      return null;
    return {
      viewer: { bots: bots === 'all' ? 'all' : [...(bots as string[])] },
      operator: parsed.operator,
      csrf: parsed.csrf,
      expiresAt: parsed.expiresAt,
    };
  } catch {
    return null;
  }
}
