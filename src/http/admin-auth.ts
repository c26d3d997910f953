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
  /**
   * Also accept `?token=<ADMIN_TOKEN>`: for a page an operator opens in a browser (the WhatsApp
   * QR page), which cannot send a header. Never for the admin API, whose URLs end up in logs.
   */
  queryToken?: boolean;
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
    const query = options.queryToken && typeof req.query.token === 'string' ? req.query.token : null;
    if (!sameSecret(bearerToken(req.get('authorization')) ?? query ?? '', token)) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer')
        .json({
          error: `Missing or wrong bearer token (ADMIN_TOKEN)${options.queryToken ? '; in a browser add ?token=<ADMIN_TOKEN> to the address' : ''}.`,
        });
      return;
    }
    next();
  };
}
