/**
 * The WhatsApp link page, `GET /whatsapp/<bot>/qr`, as the runtime serves an adapter route
 * declared `access: 'admin'`: behind the admin token as a Bearer header (never in the URL: a
 * browser opens it from the inbox), 401 without it, 404 when no admin token is configured; the
 * QR as SVG while waiting, the number once linked.
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
import type { PlatformModule } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';
import { startRuntime, type Runtime } from '../../../src/runtime/runtime.js';

const ADMIN_TOKEN = 'admin-token-for-the-qr-page-42';
let link: LinkState = { state: 'starting' };

/** A platform whose adapter serves the real QR page over a link state this test sets. */
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

async function start(env: Record<string, string>): Promise<Runtime> {
  const file = join(mkdtempSync(join(tmpdir(), 'cb-qr-page-')), 'chatbridge.yaml');
  writeFileSync(
    file,
    `keyPrefix: "cbtest:qr-page:${randomUUID().slice(0, 8)}:"\nconsole: off\nport: 0\nhost: 127.0.0.1\n`,
  );
  const platforms = [...PLATFORMS, linkPageModule];
  // No REDIS_URL: the memory store; the page needs no state.
  return startRuntime(loadConfig({ platforms, file, env: { LINKPAGE_ENABLED: 'true', ...env } }), silentLogger(), {
    platforms,
  });
}

describe('the WhatsApp QR page behind the admin token', () => {
  let runtime: Runtime | undefined;
  let page: string;
  beforeAll(async () => {
    runtime = await start({ ADMIN_TOKEN });
    page = `http://127.0.0.1:${runtime.port}/whatsapp/main/qr`;
  }, 30_000);
  afterAll(async () => {
    await runtime?.stop();
  });

  it('answers 401 without the token or with a wrong one, and names how to pass it', async () => {
    const none = await fetch(page);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await none.json()) as { error: string }).error).toContain(
      'sign in to the inbox and open /inbox/whatsapp/main/qr',
    );
    expect((await fetch(page, { headers: { authorization: 'Bearer wrong-token' } })).status).toBe(401);
    expect((await fetch(`${page}?token=wrong-token`)).status).toBe(401);
  });

  it('takes no token from the URL (proxy logs and browser history keep URLs)', async () => {
    expect((await fetch(`${page}?token=${ADMIN_TOKEN}`)).status).toBe(401);
  });

  it('shows the QR as SVG with the Bearer token, on a page that refreshes itself', async () => {
    link = { state: 'waiting-for-scan', qr: '2@abcdefghijklmnop,STATICKEY=,IDENTITYKEY=,ADVSECRET=,1' };
    for (const response of [await fetch(page, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toMatch(/<svg[^>]*>[\s\S]*<path[\s\S]*<\/svg>/);
      expect(html).toMatch(/<meta http-equiv="refresh" content="\d+">/);
      expect(html).toContain('Linked devices');
    }
  });

  it('shows the pairing code and why a new link is needed', async () => {
    link = {
      state: 'waiting-for-scan',
      qr: '2@qr',
      pairingCode: 'ABCD1234',
      notice: 'the phone logged this device out; link the number again',
    };
    const html = await (await fetch(page, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    expect(html).toContain('ABCD1234');
    expect(html).toContain('the phone logged this device out');
  });

  it('says the number is linked, and shows it (escaped)', async () => {
    link = { state: 'linked', number: '15550001111', name: 'Homes <Bot>' };
    const html = await (await fetch(page, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    expect(html).toContain('Linked');
    expect(html).toContain('+15550001111');
    expect(html).toContain('Homes &lt;Bot&gt;');
    expect(html).not.toContain('<svg');
  });

  it('answers the link state as JSON to a script', async () => {
    link = { state: 'failed', reason: 'Chromium not found at /nope' };
    const response = await fetch(page, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: 'application/json' },
    });
    expect(await response.json()).toEqual({ state: 'failed', reason: 'Chromium not found at /nope' });
  });
});

describe('the WhatsApp QR page without an admin token configured', () => {
  it('is off (404, saying to set ADMIN_TOKEN), like the admin API', async () => {
    const runtime = await start({});
    try {
      const response = await fetch(`http://127.0.0.1:${runtime.port}/whatsapp/main/qr?token=anything`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: string }).error).toContain('set ADMIN_TOKEN');
    } finally {
      await runtime.stop();
    }
  }, 30_000);
});
