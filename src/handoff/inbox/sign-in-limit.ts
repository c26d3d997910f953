/**
 * Sign-in guesses, limited twice, counted in the state store so that every replica counts together:
 *
 * - per client address (`signInAddress`): 10 attempts in 15 minutes. A locked address is refused whatever it sends,
 *   the right token too: were the token still compared, a locked guesser would learn from every guess and the lock would
 *   limit nothing.
 * - per account: the sign-in's secret is the admin token (the name beside it is not checked, so counting per name would
 *   bound nothing: a guesser picks a new name each time). Every address's attempts count against it together, 100 in 15
 *   minutes: the bound that holds when addresses cannot be told apart or are made up (X-Forwarded-For sent straight to
 *   the gateway's port). Only attempts the address limit let through count here, so that one address alone cannot
 *   reach it.
 *
 * Every attempt counts before the token is compared (parallel guesses cannot slip past a read-then-count), and a
 * successful one is given back to both: an operator who signs in often is never locked out.
 */
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { StateStore } from '../../state/index.js';
import { inboxKeys } from '../keys.js';

export const SIGN_IN_ATTEMPTS = 10;
export const ACCOUNT_SIGN_IN_ATTEMPTS = 100;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Sign-in links one e-mail address may be sent in a window, asked from anywhere: a mailbox is not to be flooded. */
export const LINKS_PER_EMAIL = 5;
/** The one account the sign-in form guards. */
const ADMIN_TOKEN_ACCOUNT = 'admin-token';
/** What of X-Forwarded-For's last entry is kept in a key: an address, never a long header. */
const FORWARDED_ADDRESS = /^[0-9A-Za-z.:[\]_-]{1,64}$/;

export type Attempt =
  { allowed: true } | { allowed: false; limited: 'address' | 'account' | 'email'; retryAfterSeconds: number };

export class SignInLimit {
  constructor(
    private readonly state: StateStore,
    private readonly attempts = SIGN_IN_ATTEMPTS,
    private readonly windowMs = SIGN_IN_WINDOW_MS,
    private readonly accountAttempts = ACCOUNT_SIGN_IN_ATTEMPTS,
  ) {}

  async attempt(address: string): Promise<Attempt> {
    const byAddress = await this.count(inboxKeys.signInAttempts(address), this.attempts);
    if (byAddress !== null) return { allowed: false, limited: 'address', retryAfterSeconds: byAddress };
    const byAccount = await this.count(inboxKeys.signInAccountAttempts(ADMIN_TOKEN_ACCOUNT), this.accountAttempts);
    if (byAccount !== null) return { allowed: false, limited: 'account', retryAfterSeconds: byAccount };
    return { allowed: true };
  }

  /**
   * A sign-in link asked for: counted per client address (with the token's attempts) and per e-mail address, known or
   * not (so that the limit tells nothing about who is an operator).
   */
  async linkRequest(address: string, email: string): Promise<Attempt> {
    const byAddress = await this.count(inboxKeys.signInAttempts(address), this.attempts);
    if (byAddress !== null) return { allowed: false, limited: 'address', retryAfterSeconds: byAddress };
    const emailDigest = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
    const byEmail = await this.count(inboxKeys.signInEmailAttempts(emailDigest), LINKS_PER_EMAIL);
    if (byEmail !== null) return { allowed: false, limited: 'email', retryAfterSeconds: byEmail };
    return { allowed: true };
  }

  /** A successful sign-in does not use up an attempt. */
  async succeeded(address: string): Promise<void> {
    // With the window's expiry: should a counter have expired meanwhile, the -1 this creates expires too.
    await this.state.pipeline([
      { op: 'incr', key: inboxKeys.signInAttempts(address), by: -1, ttlMs: this.windowMs },
      { op: 'incr', key: inboxKeys.signInAccountAttempts(ADMIN_TOKEN_ACCOUNT), by: -1, ttlMs: this.windowMs },
    ]);
  }

  /** Counts one attempt; null while within `limit`, else the seconds until the window ends. */
  private async count(key: string, limit: number): Promise<number | null> {
    if ((await this.state.incr(key, 1, this.windowMs)) <= limit) return null;
    const ttlMs = await this.state.ttlMs(key);
    return Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : this.windowMs) / 1000));
  }
}

/**
 * Whom a sign-in comes from, for its limit. With http.trustProxy, req.ip (the client the trusted proxies name). Without
 * it but with X-Forwarded-For (a proxy the gateway was not told to trust), the connection's address is the proxy's,
 * shared by every operator behind it: the address is then the connection's and the client the nearest proxy names (the
 * last entry, the one it appended; a client can only make up the ones before it), so one guesser's lock is theirs
 * alone. Made-up entries sent straight to the gateway's port are bounded by the account limit.
 */
export function signInAddress(req: Request): { address: string; untrustedProxy: boolean } {
  const connection = req.socket.remoteAddress ?? 'unknown';
  const forwarded = req.get('x-forwarded-for');
  if (forwarded === undefined || trustsProxy(req)) return { address: req.ip ?? connection, untrustedProxy: false };
  const last = forwarded.split(',').at(-1)?.trim() ?? '';
  return {
    address: `${connection} for ${FORWARDED_ADDRESS.test(last) ? last : 'an unreadable client'}`,
    untrustedProxy: true,
  };
}

/** Whether express was told to believe X-Forwarded-* (http.trustProxy, TRUST_PROXY): anything but false or 0 hops. */
export function trustsProxy(req: Request): boolean {
  const setting: unknown = req.app.get('trust proxy');
  return setting !== false && setting !== 0 && setting !== undefined && setting !== '';
}
