/**
 * Linking a number by pairing code, for a phone that cannot scan: `chatbridge start` with
 * WHATSAPP_PAIR_PHONE (whatsapp-web.js swapped for the fake by the module hook, as in
 * test/e2e/whatsapp/start.test.ts). The library's `code` event is logged with the number it
 * is for and shown on the link page (behind the admin token); typing it on the phone links
 * the number, and the page then shows it. A malformed number is refused at start, naming
 * the variable.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';

const REGISTER = join(import.meta.dirname, '../../../fakes/whatsapp/register.mjs');
const ADMIN_TOKEN = 'admin-token-for-pairing-by-code';
const PAIR_PHONE = '4915112345678';
const WAIT = { timeoutMs: 20_000 };

interface LogLine {
  msg: string;
  pairingCode?: string;
}

describe('linking a WhatsApp number by pairing code (WHATSAPP_PAIR_PHONE)', () => {
  let fake: FakeWhatsApp;
  let gateway: ChatbridgeProcess;
  let page: string;

  const logLines = (): LogLine[] =>
    gateway
      .log()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  const pageHtml = async () => (await fetch(page, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const pageJson = async () =>
    (await fetch(page, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: 'application/json' } })).json();
  /** The code the waiting client shows. */
  const shownCode = () => fake.clients().find((client) => client.state === 'waiting-for-code')?.pairingCode;

  beforeAll(async () => {
    // One code for the whole test (WhatsApp replaces it about every 20 s): what the page shows is what the log said.
    fake = await startFakeWhatsApp({ qrIntervalMs: 10 * 60_000 });
    gateway = await startChatbridge({
      WHATSAPP_ENABLED: 'true',
      WHATSAPP_PAIR_PHONE: PAIR_PHONE,
      ADMIN_TOKEN,
      // The fake library only checks that the browser exists.
      CHROMIUM_PATH: process.execPath,
      FAKE_WHATSAPP_URL: fake.url,
      NODE_OPTIONS: `--import ${REGISTER}`,
    });
    page = `http://127.0.0.1:${gateway.port}/whatsapp/main/qr`;
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake?.close();
  });

  it('asks WhatsApp for a pairing code instead of a QR, and logs it with the number and where to type it', async () => {
    await fake.waitFor(() => shownCode() !== undefined, { ...WAIT, what: 'a client waiting for its pairing code' });
    expect(fake.clients().some((client) => client.state === 'waiting-for-qr')).toBe(false);
    const code = shownCode()!;
    await fake.waitFor(() => logLines().some((line) => line.pairingCode === code), {
      ...WAIT,
      what: 'the pairing code in the log',
    });
    const logged = logLines().find((line) => line.pairingCode === code)!;
    expect(logged.msg).toContain(PAIR_PHONE);
    expect(logged.msg).toContain(code);
    expect(logged.msg).toContain('Link with phone number instead');
  }, 30_000);

  it('shows the code on the link page with the admin token, and nothing without it', async () => {
    expect((await fetch(page)).status).toBe(401);
    const code = shownCode()!;
    const html = await pageHtml();
    expect(html).toContain(code);
    expect(html).toContain('Link with phone number instead');
    // whatsapp-web.js shows no QR when it links by code: the page asks for no scan.
    expect(html).not.toContain('and scan:');
    expect(html).not.toContain('<svg');
    expect(await pageJson()).toMatchObject({ state: 'waiting-for-scan', pairingCode: code });
  }, 30_000);

  it('links the number once the code is typed on the phone: the page then shows the number, and users are answered', async () => {
    const code = shownCode()!;
    fake.enterPairingCode(code);
    await fake.waitFor(() => gateway.log().includes('WhatsApp is linked and ready'), {
      ...WAIT,
      what: 'the gateway saying the number is linked',
    });
    expect(fake.linkedClients()).toHaveLength(1);

    expect(await pageJson()).toEqual({ state: 'linked', number: fake.number, name: 'Chatbridge' });
    const html = await pageHtml();
    expect(html).toContain(`+${fake.number}`);
    expect(html).not.toContain(code);

    const chat = '4915100000301@c.us';
    fake.userSends({ from: chat, text: 'help' });
    await fake.waitFor(() => fake.screen(chat).some((text) => text.includes('Commands')), {
      timeoutMs: 45_000,
      what: 'an answer on the linked number',
    });
  }, 60_000);
});

describe('WHATSAPP_PAIR_PHONE that is not a number in international form', () => {
  it('is refused at start, naming the variable and the form it takes', () => {
    expect(() =>
      loadConfig({ platforms: PLATFORMS, env: { WHATSAPP_ENABLED: 'true', WHATSAPP_PAIR_PHONE: '+49 151 12345678' } }),
    ).toThrow(/WHATSAPP_PAIR_PHONE[\s\S]*digits only, no \+ or spaces \(e\.g\. 4915112345678\)/);
  });
});
