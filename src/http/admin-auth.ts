import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

/**
 * The token of `Authorization: Bearer <token>`. The scheme is case-insensitive
 * (RFC 9110 §11.1: `bearer`, `BEARER` …); the token is everything after it, as
 * configured (ADMIN_TOKEN is not required to be token68).
 */
export function bearerToken(header: string | undefined): string | null {
  const match = /^bearer[ \t]+(.+)$/is.exec(header ?? '');
  return match ? match[1]! : null;
}

export interface AdminTokenOptions {
  /** Where a browser opens the same page without the token (the inbox), for the 401's words. */
  browserHint?: string;
  /** What is off without a token, for the 404. */
  what?: string;
}

/**
 * Whether `given` is the secret `expected`, in constant time: both are compared as SHA-256
 * digests, equal in length whatever was sent, so neither the content nor the length leaks.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Bearer-token guard of /admin (and of admin-only adapter pages); without a configured token they are off (404, not 401). */
export function requireAdminToken(token: string | undefined, options: AdminTokenOptions = {}): RequestHandler {
  return (req, res, next) => {
    if (!token) {
      res
        .status(404)
        .json({ error: `${options.what ?? 'The admin API'} is disabled; set ADMIN_TOKEN (admin.token) to enable it.` });
      return;
    }
    // Never from the query string: URLs end up in proxy logs and browser history.
    if (!sameSecret(bearerToken(req.get('authorization')) ?? '', token)) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer')
        .json({
          error: `Missing or wrong bearer token (ADMIN_TOKEN)${options.browserHint ? `; in a browser, ${options.browserHint}` : ''}.`,
        });
      return;
    }
    next();
  };
}
