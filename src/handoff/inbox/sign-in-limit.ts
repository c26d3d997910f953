/**
 * Sign-in attempts per client address (req.ip: the connection's, or X-Forwarded-For's with
 * http.trustProxy), counted in the state store so that every replica counts together. Every
 * attempt counts before the token is compared (parallel guesses cannot slip past a read-then-count),
 * and a successful one is given back: an operator who signs in often is never locked out.
 */
import type { StateStore } from '../../state/index.js';
import { inboxKeys } from '../keys.js';

export const SIGN_IN_ATTEMPTS = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

export type Attempt = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class SignInLimit {
  constructor(
    private readonly state: StateStore,
    private readonly attempts = SIGN_IN_ATTEMPTS,
    private readonly windowMs = SIGN_IN_WINDOW_MS,
  ) {}

  async attempt(address: string): Promise<Attempt> {
    const key = inboxKeys.signInAttempts(address);
    const count = await this.state.incr(key, 1, this.windowMs);
    if (count <= this.attempts) return { allowed: true };
    const ttlMs = await this.state.ttlMs(key);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : this.windowMs) / 1000)) };
  }

  /** A successful sign-in does not use up an attempt. */
  async succeeded(address: string): Promise<void> {
    // With the window's expiry: should the counter have expired meanwhile, the -1 this creates expires too.
    await this.state.incr(inboxKeys.signInAttempts(address), -1, this.windowMs);
  }
}
