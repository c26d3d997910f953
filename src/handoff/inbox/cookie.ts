/**
 * The session cookie `cb_inbox`: HttpOnly (no script reads it), SameSite=Lax set explicitly
 * (a link from the e-mail still opens a signed-in page; a cross-site POST carries no cookie, and
 * the CSRF token guards it anyway), Path=<the inbox's path as the browser sees it> (/inbox, or /support/inbox
 * behind a proxy that mounts the gateway under PUBLIC_URL's path: nothing else of the gateway receives it), and
 * Secure when the request came over HTTPS: req.secure, which believes X-Forwarded-Proto only
 * when http.trustProxy says so. A few lines instead of a dependency: one cookie, one shape.
 */
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'cb_inbox';

/** The session id the request carries, or null. */
export function sessionCookie(req: Request): string | null {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return value === '' ? null : value;
  }
  return null;
}

export function setSessionCookie(req: Request, res: Response, path: string, id: string, maxAgeMs: number): void {
  res.append('Set-Cookie', cookie(req, path, id, Math.floor(maxAgeMs / 1000)));
}

export function clearSessionCookie(req: Request, res: Response, path: string): void {
  res.append('Set-Cookie', cookie(req, path, '', 0));
}

function cookie(req: Request, path: string, value: string, maxAgeSeconds: number): string {
  // The id is base64url: nothing in it needs encoding.
  return [
    `${SESSION_COOKIE}=${value}`,
    `Path=${path}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(req.secure ? ['Secure'] : []),
  ].join('; ');
}
