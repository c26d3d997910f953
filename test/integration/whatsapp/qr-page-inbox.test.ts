/**
 * The WhatsApp link page opens from a signed-in inbox session, so the admin token need not travel in a URL: the
 * runtime serves the adapter's admin page at /inbox/whatsapp/<bot>/qr to an operator signed in with the admin token
 * (the session cookie, whose path is the inbox's), and the waiting list links to it. A session an e-mail's link
 * signed in does not open it (its QR would link a phone as the bot); nobody signed in gets the sign-in form.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAdapter, MemoryPlatform } from '../../../fakes/memory/index.js';
import type { LinkState } from '../../../adapters/whatsapp/connection.js';
import { qrPageRoute } from '../../../adapters/whatsapp/qr-page.js';
import { loadConfig } from '../../../src/config/index.js';
import { InboxLinks } from '../../../src/handoff/inbox/sign-in-link.js';
import { resolveLinkSecret } from '../../../src/handoff/index.js';
import type { PlatformModule } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';
import { startRuntime, type Runtime } from '../../../src/runtime/runtime.js';

const ADMIN_TOKEN = 'admin-token-for-the-qr-page-inbox';
const QR = '2@abcdefghijklmnop,STATICKEY=,IDENTITYKEY=,ADVSECRET=,1';
const link: LinkState = { state: 'waiting-for-scan', qr: QR };

/** A platform whose adapter serves the real QR page, as the WhatsApp adapter declares it. */
const linkPageModule: PlatformModule<{ enabled: boolean }> = {
  name: 'linkpage',
  configSection: z.object({ enabled: z.boolean() }).strict(),
  env: [{ env: 'LINKPAGE_ENABLED', key: 'enabled', type: 'bool' }],
  isConfigured: (section) => section.enabled,
  create(_section, { bot }) {
    const adapter = createMemoryAdapter({ platform: new MemoryPlatform({ name: 'linkpage' }), bot });
    return Object.assign(adapter, { routes: [qrPageRoute(bot, { link: () => link })] });
  },
};

/** A browser's cookie jar of one: the session cookie as the browser keeps it (value and path). */
class Browser {
  cookie: { value: string; path: string } | undefined;

  constructor(private readonly base: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, { headers });
  }

  async post(path: string, form: Record<string, string>): Promise<Response> {
    return this.fetch(path, {
      method: 'POST',
      headers: { origin: this.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    // The browser sends the cookie only to paths under its Path.
    const sends = this.cookie && (path === this.cookie.path || path.startsWith(`${this.cookie.path}/`));
    const response = await fetch(`${this.base}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(sends ? { cookie: this.cookie!.value } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      this.cookie = { value: line.split(';')[0]!, path: /; Path=([^;]+)/.exec(line)![1]! };
    }
    return response;
  }
}

describe('the WhatsApp link page from the inbox', () => {
  let runtime: Runtime;
  let base: string;

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cb-qr-inbox-')), 'chatbridge.yaml');
    writeFileSync(
      file,
      `keyPrefix: "cbtest:qr-inbox:${randomUUID().slice(0, 8)}:"\nconsole: off\nport: 0\nhost: 127.0.0.1\n` +
        'bots:\n  - id: main\n    linkpage: { enabled: true }\n  - id: other\n    linkpage: { enabled: true }\n',
    );
    const platforms = [...PLATFORMS, linkPageModule];
    // No REDIS_URL: the memory store holds the inbox's sessions.
    runtime = await startRuntime(loadConfig({ platforms, file, env: { ADMIN_TOKEN } }), silentLogger(), { platforms });
    base = `http://127.0.0.1:${runtime.port}`;
  }, 30_000);
  afterAll(async () => {
    await runtime?.stop();
  });

  it('opens for a signed-in operator, with no token in any URL, and the waiting list links to it', async () => {
    const bruno = new Browser(base);
    // Not signed in: the sign-in form, which comes back to the page.
    const asked = await bruno.get('/inbox/whatsapp/main/qr');
    expect(asked.status).toBe(401);
    expect(await asked.text()).toContain('name="next" value="/inbox/whatsapp/main/qr"');
    const signedIn = await bruno.post('/inbox/sign-in', {
      token: ADMIN_TOKEN,
      name: 'Bruno',
      next: '/inbox/whatsapp/main/qr',
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/inbox/whatsapp/main/qr');

    const page = await bruno.get('/inbox/whatsapp/main/qr');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<svg[^>]*>[\s\S]*<path[\s\S]*<\/svg>/);
    expect(html).toContain('Linked devices');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).not.toContain('script-src');
    const json = await bruno.get('/inbox/whatsapp/main/qr', { accept: 'application/json' });
    expect(await json.json()).toEqual(link);

    const waiting = await (await bruno.get('/inbox')).text();
    expect(waiting).toContain('<a href="/inbox/whatsapp/main/qr">WhatsApp link (bot main)</a>');
    expect(waiting).toContain('<a href="/inbox/whatsapp/other/qr">WhatsApp link (bot other)</a>');

    // The page at its own path still wants the token as a header: the browser's session is not sent there.
    expect((await bruno.get('/whatsapp/main/qr')).status).toBe(401);
  });

  it("does not open for an e-mail link's session, even of the same chatbot: a QR links a phone as the bot", async () => {
    const carla = new Browser(base);
    // A session for bot "other" only, as the e-mail's link signs one in.
    const secret = await resolveLinkSecret(undefined, runtime.state);
    const token = new InboxLinks(secret, base).sign({
      conversation: { bot: 'other', platform: 'linkpage', id: 'c1' },
      expiresAt: Date.now() + 60_000,
    });
    expect((await carla.post('/inbox/link', { token, name: 'Carla' })).status).toBe(303);
    for (const bot of ['other', 'main']) {
      const refused = await carla.get(`/inbox/whatsapp/${bot}/qr`);
      expect(refused.status).toBe(404);
      expect(await refused.text()).not.toContain('<svg');
    }
    expect(await (await carla.get('/inbox')).text()).not.toContain('/qr');
  });
});
