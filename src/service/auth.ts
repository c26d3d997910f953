import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ServiceError } from './envelope.js';

/** Which credential an endpoint accepts (spec, Authentication rules 1–3). */
export type Credential = 'secret' | 'session' | 'either';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Constant-time: both sides are hashed to the same length before comparing. */
export function sameKey(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The key is sent raw per the docs; a `Bearer ` prefix is tolerated because HTTP tools add it by habit. */
function authorizationKey(req: Request): string | undefined {
  const raw = req.get('authorization')?.trim();
  if (!raw) return undefined;
  return raw.replace(/^Bearer\s+/i, '');
}

export function checkCredential(
  req: Request,
  credential: Credential,
  keys: { secretKey: string; sessionKey: string },
): void {
  const secret = authorizationKey(req);
  const session = req.get('chatrobot-sessionkey')?.trim() || undefined;
  const secretOk = secret !== undefined && sameKey(secret, keys.secretKey);
  const sessionOk = session !== undefined && sameKey(session, keys.sessionKey);

  if (credential === 'secret') {
    if (secretOk) return;
    throw new ServiceError(
      401,
      secret === undefined
        ? 'Missing Authorization header: send the secret key as "Authorization: <SECRET_KEY>".'
        : 'The Authorization header does not match the secret key; check SERVICE_SECRET_KEY / UPSTREAM_SECRET_KEY.',
    );
  }
  if (credential === 'session') {
    if (sessionOk) return;
    throw new ServiceError(
      401,
      session === undefined
        ? 'Missing chatrobot-sessionkey header: send the session key as "chatrobot-sessionkey: <SESSION_KEY>".'
        : 'The chatrobot-sessionkey header does not match the session key; check SERVICE_SESSION_KEY / UPSTREAM_SESSION_KEY.',
    );
  }
  if (secretOk || sessionOk) return;
  throw new ServiceError(
    401,
    secret === undefined && session === undefined
      ? 'Missing credentials: send "Authorization: <SECRET_KEY>" or "chatrobot-sessionkey: <SESSION_KEY>".'
      : 'Neither the Authorization header nor the chatrobot-sessionkey header matches a key of this service.',
  );
}
