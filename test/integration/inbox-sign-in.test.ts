/**
 * The inbox's front door, through the real HTTP server and real Redis: off without ADMIN_TOKEN,
 * the sign-in form, the admin token checked and its guesses limited, the session cookie's
 * attributes, sign-out, and the cross-site checks every POST passes.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inboxKeys } from '../../src/handoff/index.js';
import { SIGN_IN_ATTEMPTS } from '../../src/handoff/inbox/sign-in-limit.js';
import { isolatedRedisStore } from '../support/redis.js';
import { startHandoffStack, type HandoffStack } from './handoff/stack.js';
import {
  ADMIN_TOKEN,
  Browser,
  conversationPage,
  csrfIn,
  startInboxProcess,
  type InboxProcess,
} from './inbox-support.js';

describe('the inbox sign-in', () => {
  let stack: HandoffStack;
  const running: InboxProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('inbox-sign-in');
  });
  afterEach(async () => {
    for (const process of running.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
  });
  afterAll(async () => {
    await stack.close();
  });

  const start = async (options: Partial<Parameters<typeof startInboxProcess>[0]> = {}) => {
    const state = isolatedRedisStore('inbox-sign-in', { checkSlots: true });
    stores.push(state);
    const process = await startInboxProcess({ state, upstream: stack.client, ...options });
    running.push(process);
    return process;
  };

  it('answers 404 for the whole inbox when no ADMIN_TOKEN is set', async () => {
    const process = await start({ adminToken: null });
    const browser = process.browser();
    for (const path of [
      '/inbox',
      '/inbox/history',
      conversationPage('main', 'c1'),
      '/inbox/events',
      '/inbox/assets/inbox.js',
      '/inbox/assets/inbox.css',
      '/inbox/link?token=x',
    ]) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(404);
      expect(page.html).toContain('set ADMIN_TOKEN');
    }
    expect((await browser.signIn()).status).toBe(404);
    expect(browser.session).toBeUndefined();
  });

  it('shows the sign-in form without a session, on the list and on any inbox page', async () => {
    const process = await start();
    const browser = process.browser();
    const front = await browser.get('/inbox');
    expect(front.status).toBe(200);
    expect(front.html).toMatch(
      /<label for="token">Admin token<\/label>\s*<input type="password" id="token" name="token"/,
    );
    expect(front.html).toMatch(/<label for="name">Your name<\/label>\s*<input type="text" id="name" name="name"/);
    expect(front.html).toContain('<button type="submit">Sign in</button>');
    const deep = await browser.get(conversationPage('main', 'c1'));
    expect(deep.status).toBe(401);
    expect(deep.html).toContain('Admin token');
    // Once signed in, the reader goes back to the page asked for.
    expect(deep.html).toContain(`name="next" value="${conversationPage('main', 'c1')}"`);
    expect((await browser.get('/inbox/events')).status).toBe(401);
  });

  it('refuses a wrong token with the form again and a clear error, and signs in with the right one', async () => {
    const process = await start();
    const browser = process.browser();
    const wrong = await browser.signIn('Bruno', 'not-the-admin-token-at-all');
    expect(wrong.status).toBe(401);
    expect(wrong.html).toMatch(/<p class="alert" role="alert">That is not the admin token \(ADMIN_TOKEN\)/);
    expect(wrong.html).toContain('value="Bruno"');
    expect(browser.session).toBeUndefined();

    const right = await browser.signIn('Bruno Reis');
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/inbox');
    expect(browser.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const list = await browser.get('/inbox');
    expect(list.status).toBe(200);
    expect(list.html).toContain('Signed in as <strong>Bruno Reis</strong>');
    expect(list.html).toContain('Nobody is waiting');

    // A name is required, even with the right token.
    const nameless = await process.browser().signIn('   ');
    expect(nameless.status).toBe(400);
    expect(nameless.html).toContain('Give your name');
  });

  it('goes back to the page asked for after signing in, and never to another site', async () => {
    const process = await start();
    const browser = process.browser();
    const target = conversationPage('main', 'c1');
    expect(
      (await browser.post('/inbox/sign-in', { token: ADMIN_TOKEN, name: 'Bruno', next: target })).headers.get(
        'location',
      ),
    ).toBe(target);
    const elsewhere = process.browser();
    expect(
      (
        await elsewhere.post('/inbox/sign-in', { token: ADMIN_TOKEN, name: 'Bruno', next: '//evil.example/inbox' })
      ).headers.get('location'),
    ).toBe('/inbox');
  });

  it('limits sign-in attempts per client address: 429 with Retry-After, even for the right token, while the window lasts', async () => {
    const process = await start();
    const browser = process.browser();
    // Successful sign-ins do not use the allowance up.
    for (let i = 0; i < 3; i++) expect((await process.browser().signIn()).status).toBe(303);
    for (let attempt = 1; attempt <= SIGN_IN_ATTEMPTS; attempt++) {
      expect((await browser.signIn('Mallory', `guess-number-${attempt}-of-many`)).status).toBe(401);
    }
    const limited = await browser.signIn('Mallory', 'one-more-guess-after-the-limit');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.html).toContain('Too many sign-in attempts from your address');
    const honest = await process.browser().signIn();
    expect(honest.status).toBe(429);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/inbox, expiring, and not Secure over plain HTTP', async () => {
    const process = await start();
    const browser = process.browser();
    await browser.signIn();
    const cookie = browser.setCookies.find((line) => line.startsWith('cb_inbox='))!;
    const attributes = cookie.split('; ').slice(1);
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/inbox', 'HttpOnly', 'SameSite=Lax', `Max-Age=${12 * 60 * 60}`]),
    );
    expect(attributes).not.toContain('Secure');
    // Redis holds the session under its id's digest, with the session's lifetime.
    const keys = await listKeys(process, browser.session!);
    expect(keys.raw).toBeNull();
    expect(keys.ttlMs).toBeGreaterThan(11 * 60 * 60_000);
  });

  it('believes X-Forwarded-Proto for Secure only when http.trustProxy says so', async () => {
    const untrusting = await start();
    const spoofed = untrusting.browser({ 'x-forwarded-proto': 'https' });
    await spoofed.signIn();
    expect(spoofed.setCookies.find((line) => line.startsWith('cb_inbox='))).not.toContain('Secure');

    const behindProxy = await start({ trustProxy: true });
    const proxied = behindProxy.browser({ 'x-forwarded-proto': 'https' });
    // The browser's page is https now: its Origin says so.
    await proxied.post(
      '/inbox/sign-in',
      { token: ADMIN_TOKEN, name: 'Bruno' },
      { origin: behindProxy.url.replace('http:', 'https:') },
    );
    expect(proxied.setCookies.find((line) => line.startsWith('cb_inbox='))).toMatch(/; Secure(;|$)/);
    const plain = behindProxy.browser();
    await plain.signIn();
    expect(plain.setCookies.find((line) => line.startsWith('cb_inbox='))).not.toContain('Secure');
  });

  it('signs out with the session token: the cookie is cleared and the session gone from Redis', async () => {
    const process = await start();
    const browser = process.browser();
    await browser.signIn();
    const session = browser.session!;
    const csrf = await browser.csrf();
    const out = await browser.post('/inbox/sign-out', { _csrf: csrf });
    expect(out.status).toBe(303);
    expect(browser.session).toBeUndefined();
    expect(browser.setCookies.at(-1)).toMatch(/^cb_inbox=; Path=\/inbox; Max-Age=0/);
    const again = new Browser(process.url);
    again.session = session;
    expect((await again.get('/inbox')).html).toContain('Admin token');
  });

  it('refuses a POST without the session token, or from a foreign Origin, and changes nothing', async () => {
    const process = await start();
    const browser = process.browser();
    await browser.signIn();
    const csrf = await browser.csrf();
    const noToken = await browser.post('/inbox/sign-out', {});
    expect(noToken.status).toBe(403);
    expect(noToken.html).toContain('security token is missing or old');
    const wrongToken = await browser.post('/inbox/sign-out', { _csrf: `${csrf}x` });
    expect(wrongToken.status).toBe(403);
    const foreign = await browser.post('/inbox/sign-out', { _csrf: csrf }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.html).toContain('the request came from https://evil.example, not from this inbox');
    // Still signed in.
    expect((await browser.get('/inbox')).html).toContain('Signed in as');
    // The header form of the token works as the field does.
    expect((await browser.post('/inbox/sign-out', {}, { 'x-csrf-token': csrf })).status).toBe(303);

    // The sign-in has no session yet: its guard is the Origin.
    const crossSite = process.browser();
    const refused = await crossSite.post(
      '/inbox/sign-in',
      { token: ADMIN_TOKEN, name: 'Bruno' },
      { origin: 'https://evil.example' },
    );
    expect(refused.status).toBe(403);
    expect(crossSite.session).toBeUndefined();
  });

  it('takes a POST from a page on PUBLIC_URL (a proxy in front), and still from nowhere else', async () => {
    const process = await start({ publicUrl: 'https://bots.example.com/gateway' });
    const browser = process.browser();
    expect(
      (
        await browser.post(
          '/inbox/sign-in',
          { token: ADMIN_TOKEN, name: 'Bruno' },
          { origin: 'https://bots.example.com' },
        )
      ).status,
    ).toBe(303);
    const csrf = await browser.csrf();
    const foreign = await browser.post(
      '/inbox/sign-out',
      { _csrf: csrf },
      { origin: 'https://bots.example.com.evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.html).toContain('behind a proxy, set PUBLIC_URL to the address operators open, or TRUST_PROXY');
  });

  it('sends the security headers on every page', async () => {
    const process = await start();
    const browser = process.browser();
    for (const page of [
      await browser.get('/inbox'),
      await (async () => {
        await browser.signIn();
        return browser.get('/inbox');
      })(),
    ]) {
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
          "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      // No inline script or style anywhere: the CSP would refuse them.
      expect(page.html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son[a-z]+=/i);
      expect(page.html).toContain('<script src="/inbox/assets/inbox.js" defer></script>');
    }
    const css = await browser.get('/inbox/assets/inbox.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(csrfIn((await browser.get('/inbox')).html)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

/** The session's key under the cookie's own id (absent: Redis keeps a digest) and the TTL of the key there is. */
async function listKeys(process: InboxProcess, sessionId: string): Promise<{ raw: string | null; ttlMs: number }> {
  const digest = createHash('sha256').update(sessionId).digest('base64url');
  return {
    raw: await process.state.get(inboxKeys.session(sessionId)),
    ttlMs: await process.state.ttlMs(inboxKeys.session(digest)),
  };
}
