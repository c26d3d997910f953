/**
 * The inbox in `chatbridge start` as a process: the runtime mounts it with ADMIN_TOKEN, serves
 * its page script and stylesheet from the sources, and reads TRUST_PROXY from the environment
 * (X-Forwarded-Proto https then makes the session cookie Secure; without it, the header is not
 * believed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';

const ADMIN_TOKEN = 'e2e-inbox-process-admin-token';

describe('chatbridge start with ADMIN_TOKEN: the inbox', () => {
  let trusting: ChatbridgeProcess;
  let plain: ChatbridgeProcess;

  beforeAll(async () => {
    [trusting, plain] = await Promise.all([
      startChatbridge({ ADMIN_TOKEN, TRUST_PROXY: 'true' }),
      startChatbridge({ ADMIN_TOKEN }),
    ]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([trusting?.cleanup(), plain?.cleanup()]);
  });

  /** Signs in as a browser behind an HTTPS proxy would; the session cookie's Set-Cookie line. */
  const signIn = async (gateway: ChatbridgeProcess): Promise<string> => {
    const response = await fetch(`http://127.0.0.1:${gateway.port}/inbox/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-proto': 'https',
        origin: `https://127.0.0.1:${gateway.port}`,
      },
      body: new URLSearchParams({ token: ADMIN_TOKEN, name: 'Bruno' }).toString(),
    });
    return (
      response.headers.getSetCookie().find((line) => line.startsWith('cb_inbox=')) ??
      `no cookie (HTTP ${response.status})`
    );
  };

  it('shows the sign-in form and serves its script and stylesheet', async () => {
    const base = `http://127.0.0.1:${plain.port}`;
    const page = await fetch(`${base}/inbox`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<label for="token">Admin token</label>');
    const script = await fetch(`${base}/inbox/assets/inbox.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain('EventSource');
    expect((await fetch(`${base}/inbox/assets/inbox.css`)).status).toBe(200);
  });

  it('believes X-Forwarded-Proto for the Secure cookie only with TRUST_PROXY', async () => {
    expect(await signIn(trusting)).toMatch(/; Secure(;|$)/);
    // Without TRUST_PROXY the request is plain HTTP, and its https Origin is not the gateway's own.
    expect(await signIn(plain)).toBe('no cookie (HTTP 403)');
  });
});
