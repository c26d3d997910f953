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
/**
 * The nonce of a browser that asked for a sign-in link by e-mail (`cb_inbox_pending`): the link works in that browser
 * only. Same flags as the session's.
 */
export const PENDING_COOKIE = 'cb_inbox_pending';

/** The session id the request carries, or null. */
export function sessionCookie(req: Request): string | null {
  return readCookie(req, SESSION_COOKIE);
}

/** The sign-in nonce the request carries, or null. */
export function pendingCookie(req: Request): string | null {
  return readCookie(req, PENDING_COOKIE);
}

function readCookie(req: Request, name: string): string | null {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value === '' ? null : value;
  }
  return null;
}

export function setSessionCookie(req: Request, res: Response, path: string, id: string, maxAgeMs: number): void {
  res.append('Set-Cookie', cookie(req, SESSION_COOKIE, path, id, Math.floor(maxAgeMs / 1000)));
}

export function clearSessionCookie(req: Request, res: Response, path: string): void {
  res.append('Set-Cookie', cookie(req, SESSION_COOKIE, path, '', 0));
}

export function setPendingCookie(req: Request, res: Response, path: string, nonce: string, maxAgeMs: number): void {
  res.append('Set-Cookie', cookie(req, PENDING_COOKIE, path, nonce, Math.floor(maxAgeMs / 1000)));
}

export function clearPendingCookie(req: Request, res: Response, path: string): void {
  res.append('Set-Cookie', cookie(req, PENDING_COOKIE, path, '', 0));
}

function cookie(req: Request, name: string, path: string, value: string, maxAgeSeconds: number): string {
  // The values are base64url: nothing in them needs encoding.
  return [
    `${name}=${value}`,
    `Path=${path}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(req.secure ? ['Secure'] : []),
  ].join('; ');
}
