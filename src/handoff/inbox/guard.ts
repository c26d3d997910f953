/**
 * What protects the inbox's requests: the headers of every page, and the cross-site checks of
 * every POST. SameSite alone is not trusted (older browsers, same-site subdomains): a POST needs
 * the session's CSRF token, and when the browser names the page it came from (Origin), that page
 * must be one of the inbox's.
 */
import type { Request, Response } from 'express';
import { sameSecret } from '../../http/admin-auth.js';
import type { InboxSession } from './sessions.js';

/** No inline script or style anywhere; the page's own script, style and images, and nothing else. */
export const INBOX_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': INBOX_CSP,
  'Cache-Control': 'no-store',
  // same-origin, not no-referrer: under no-referrer Chromium sends `Origin: null` with every form POST, which the
  // Origin check must refuse (sandboxes send it too). same-origin still keeps the link page's token from other sites.
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The cross-site checks of POSTs. A page of this inbox is on the request's own origin (scheme from
 * req.protocol, host from req.host: X-Forwarded-Proto/-Host only with http.trustProxy) or, behind a
 * proxy that rewrites them, on admin.publicUrl (PUBLIC_URL), the address the operator declared.
 */
export class RequestGuard {
  private readonly publicOrigin: string | undefined;

  constructor(publicUrl: string | undefined) {
    this.publicOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  }

  /**
   * Why this request looks cross-site, or null: an Origin that is not ours (a browser sends
   * "null" from sandboxes and privacy-sensitive contexts: refused too), or, without Origin, a
   * browser that says the request came from another site.
   */
  crossSiteProblem(req: Request): string | null {
    const origin = req.get('origin');
    if (origin === undefined)
      return req.get('sec-fetch-site') === 'cross-site' ? 'the request came from another site' : null;
    if (origin === ownOrigin(req) || origin === this.publicOrigin) return null;
    return (
      `the request came from ${origin}, not from this inbox (${ownOrigin(req)}${this.publicOrigin ? ` or ${this.publicOrigin}` : ''}; ` +
      'behind a proxy, set PUBLIC_URL to the address operators open, or TRUST_PROXY)'
    );
  }

  /** Why a signed-in POST is refused, or null: cross-site, or without the session's token. */
  csrfProblem(req: Request, session: InboxSession): string | null {
    const crossSite = this.crossSiteProblem(req);
    if (crossSite) return crossSite;
    const field = (req.body as { _csrf?: unknown } | undefined)?._csrf;
    const given = typeof field === 'string' ? field : (req.get('x-csrf-token') ?? '');
    return given !== '' && sameSecret(given, session.csrf)
      ? null
      : 'the form was not sent by this inbox page (its security token is missing or old)';
  }
}

/** This server's origin as the browser sees it. */
function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.host ?? ''}`;
}

export function setPageHeaders(res: Response): void {
  res.set(PAGE_HEADERS);
}
