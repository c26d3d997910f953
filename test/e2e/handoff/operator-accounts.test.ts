/**
 * Issue 31, "Operators sign in as themselves", as its acceptance test: two `chatbridge start` replicas on one Redis
 * (A with the fake Telegram, B without a platform: an inbox behind a load balancer), the SMTP catcher, and real
 * Chromium, one browser context per person. The first admin is added with the CLI and signs in by an e-mailed link (a
 * mail scanner's GET changes nothing; the link pressed twice, or late, is refused); on the Operators page the admin adds
 * an operator of one chatbot, who signs in by her own link on the other replica and cannot open another chatbot's
 * conversation by its address; an unknown address is told the same and gets no mail; removing the operator on replica
 * A ends the stream of her page on replica B, and that page's next POST is refused; the audit log holds each step;
 * axe-core finds no violation on the new pages.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { FakeSmtpServer } from '../../../fakes/smtp/server.js';
import { inboxKeys } from '../../../src/handoff/keys.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { testRedisUrl } from '../../support/redis.js';
import {
  aria,
  axeViolations,
  chromiumNote,
  chromiumPresent,
  clickAndWait,
  launchChromium,
  textOf,
  waitForText,
} from '../../support/browser.js';

const CLI = join(import.meta.dirname, '../../../bin/chatbridge.js');
/** ADMIN_TOKEN must be at least 16 characters (config schema). */
const ADMIN_TOKEN = 'e2e-operator-accounts-admin-token';
const ADMIN = { email: 'ada@oakridge-homes.example', name: 'Ada Admin' };
const OPERATOR = { email: 'olga@oakridge-homes.example', name: 'Olga Lima' };
const UNKNOWN = 'nobody@oakridge-homes.example';
/** The shortest link lifetime the config takes (inbox.signInLinkMinutes). */
const LINK_MINUTES = 1;
const WAIT = { timeoutMs: 30_000 };
/** expect.poll's: what the browser or the other replica does next, with room for a loaded machine. */
const POLL = { timeout: 30_000, interval: 100 };
const TEST_TIMEOUT_MS = 60_000;
const LINK_SENT =
  `If that address belongs to an operator, a sign-in link is on its way to it. ` +
  `It works once, for ${LINK_MINUTES} minutes, in this browser.`;

describe.skipIf(!chromiumPresent)(`operators signing in as themselves, in Chromium (${chromiumNote})`, () => {
  let browser: Browser;
  let fake: FakeTelegram;
  let smtp: FakeSmtpServer;
  /** A: polls the fake Telegram; B: the same state and bots, no platform. */
  let replicaA: ChatbridgeProcess;
  let replicaB: ChatbridgeProcess;
  let baseA: string;
  let baseB: string;
  /** The replicas' state, to read a link's expiry as Redis keeps it. */
  let state: RedisStateStore;
  /** The admin's browser, and the operator's. */
  let adminBrowser: BrowserContext;
  let operatorBrowser: BrowserContext;
  /** The admin's tab, signed in from the first test on: the Operators page, where she is removed. */
  let admin: Page;

  beforeAll(async () => {
    const prefix = `cbtest:e2e-operator-accounts:${randomUUID().slice(0, 8)}:`;
    const config = join(mkdtempSync(join(tmpdir(), 'cb-e2e-operators-')), 'chatbridge.yaml');
    // Two chatbots (both the embedded demo one), so that an operator can be given one and refused the other.
    writeFileSync(
      config,
      `keyPrefix: "${prefix}"\nconsole: off\nport: 0\nhost: 127.0.0.1\n` +
        `inbox:\n  signInLinkMinutes: ${LINK_MINUTES}\n` +
        `bots:\n  - id: main\n  - id: other\n`,
    );
    [browser, fake, smtp] = await Promise.all([launchChromium(), startFakeTelegram(), FakeSmtpServer.start()]);
    const env = { ADMIN_TOKEN, SMTP_URL: smtp.url, CHATBRIDGE_CONFIG: config };
    [replicaA, replicaB] = await Promise.all([
      startChatbridge({ ...env, TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot }, { prefix }),
      startChatbridge(env, { prefix }),
    ]);
    baseA = `http://127.0.0.1:${replicaA.port}`;
    baseB = `http://127.0.0.1:${replicaB.port}`;
    state = new RedisStateStore({ url: testRedisUrl(), prefix });
    adminBrowser = await browser.createBrowserContext();
    operatorBrowser = await browser.createBrowserContext();
  }, 90_000);

  afterAll(async () => {
    await adminBrowser?.close();
    await operatorBrowser?.close();
    await browser?.close();
    await replicaB?.stop();
    await replicaA?.cleanup();
    await state?.close();
    await fake?.close();
    await smtp?.stop();
  });

  /** `chatbridge operators <args>` as an admin runs it against replica A. */
  const operatorsCli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [CLI, 'operators', ...args],
        {
          env: { PATH: process.env.PATH, CHATBRIDGE_CONSOLE: 'off', PORT: String(replicaA.port), ADMIN_TOKEN },
          timeout: 45_000,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  /** axe-core's violations on the page as it is, by rule and element (none expected). */
  const violations = async (page: Page) =>
    (await axeViolations(page)).map((violation) => `${violation.id} (${violation.impact}): ${violation.targets}`);

  /** Asks for a link on the sign-in form; resolves on the "Check your e-mail" page. */
  const askForLink = async (page: Page, base: string, email: string): Promise<void> => {
    await page.goto(`${base}/inbox`);
    await page.locator(aria('textbox', 'Your e-mail address')).fill(email);
    await clickAndWait(page, aria('button', 'E-mail me a sign-in link'));
    expect(await textOf(page, 'h1')).toBe('Check your e-mail');
  };

  /** The sign-in link of the `nth` (1-based) sign-in mail to `email`, once it has arrived. */
  const signInLink = async (email: string, nth: number): Promise<string> => {
    const mails = () => smtp.to(email).filter((mail) => mail.subject === 'Your sign-in link to the inbox');
    await expect
      .poll(() => mails().length, { ...POLL, message: `sign-in mail ${nth} to ${email}` })
      .toBeGreaterThanOrEqual(nth);
    const match = /(http:\/\/\S+\/inbox\/sign-in\/link\?token=\S+)/.exec(mails()[nth - 1]!.text ?? '');
    if (!match) throw new Error(`no sign-in link in the mail:\n${mails()[nth - 1]!.text}`);
    return match[1]!;
  };

  /** The key a link is kept under in the store (the SHA-256 of its token, never the token). */
  const linkKey = (url: string) =>
    inboxKeys.signInLink(createHash('sha256').update(new URL(url).searchParams.get('token')!).digest('base64url'));

  it(
    "signs the first admin, added with the CLI, in by the e-mailed link: a scanner's GET changes nothing, a second press and a late one are refused",
    async () => {
      const added = await operatorsCli(['add', ADMIN.email, '--name', ADMIN.name, '--role', 'admin']);
      expect(added.stdout).toBe(`Added ${ADMIN.name} (${ADMIN.email}): an admin of every chatbot.\n`);
      expect(added.code).toBe(0);

      admin = await adminBrowser.newPage();
      await admin.goto(`${baseA}/inbox`);
      expect(await textOf(admin, 'h1')).toBe('Sign in to the inbox');
      expect(await violations(admin), 'the sign-in page').toEqual([]);
      await askForLink(admin, baseA, ADMIN.email);
      expect(await textOf(admin, '[role="status"]')).toBe(LINK_SENT);
      expect(await violations(admin), 'the "Check your e-mail" page').toEqual([]);
      const link = await signInLink(ADMIN.email, 1);

      // A mail scanner follows the link (no cookie of the browser that asked): refused, and nothing is spent.
      const scanned = await fetch(link);
      expect(scanned.status).toBe(403);
      expect(await scanned.text()).toContain('Open the link where you asked for it');
      expect(await state.ttlMs(linkKey(link))).toBeGreaterThan(0);

      // In the browser that asked: a page with a button; opening it again still spends nothing.
      const second = await adminBrowser.newPage();
      expect((await second.goto(link))?.status()).toBe(200);
      expect((await admin.goto(link))?.status()).toBe(200);
      // A tab in the background has no accessibility tree to search by name: to the front first.
      await admin.bringToFront();
      await admin.locator(aria('button', 'Sign in')).wait();
      expect(await violations(admin), "the link's page").toEqual([]);
      await clickAndWait(admin, aria('button', 'Sign in'));
      expect(new URL(admin.url()).pathname).toBe('/inbox');
      expect(await textOf(admin, '.who')).toBe(`Signed in as ${ADMIN.name}`);
      await admin.locator(aria('link', 'Operators')).wait();

      // The same link's button, pressed in a second tab: spent already.
      await second.bringToFront();
      const [again] = await Promise.all([
        second.waitForNavigation(),
        second.locator(aria('button', 'Sign in')).click(),
      ]);
      expect(again?.status()).toBe(410);
      expect(await textOf(second, 'h1')).toBe('This link no longer works');
      expect(await textOf(second, '[role="alert"]')).toBe(
        'A sign-in link works once, for a few minutes. Ask for a new one.',
      );
      await second.close();
      await admin.bringToFront();

      // A late link: Redis keeps a link for inbox.signInLinkMinutes and then drops it. Rather than wait a minute, the
      // test checks that lifetime on the key, then lets the key expire now, as Redis does when the minute is up.
      const late = await browser.createBrowserContext();
      try {
        const page = await late.newPage();
        await askForLink(page, baseA, ADMIN.email);
        const lateLink = await signInLink(ADMIN.email, 2);
        expect((await page.goto(lateLink))?.status()).toBe(200);
        const ttl = await state.ttlMs(linkKey(lateLink));
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(LINK_MINUTES * 60_000);
        await state.expire(linkKey(lateLink), 1);
        await expect.poll(() => state.ttlMs(linkKey(lateLink)), POLL).toBeLessThan(0);
        const [pressed] = await Promise.all([
          page.waitForNavigation(),
          page.locator(aria('button', 'Sign in')).click(),
        ]);
        expect(pressed?.status()).toBe(410);
        expect(await textOf(page, 'h1')).toBe('This link no longer works');
      } finally {
        await late.close();
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'lets the admin add an operator of one chatbot on the Operators page',
    async () => {
      await clickAndWait(admin, aria('link', 'Operators'));
      expect(await textOf(admin, 'h1')).toBe('Operators');
      expect(await violations(admin), 'the Operators page').toEqual([]);
      await admin.locator(aria('textbox', 'E-mail address')).fill(OPERATOR.email);
      await admin.locator(aria('textbox', 'Display name')).fill(OPERATOR.name);
      await admin.locator(aria('checkbox', 'main')).click();
      await clickAndWait(admin, aria('button', 'Add operator'));
      expect(new URL(admin.url()).pathname).toBe('/inbox/operators');
      const section = await operatorSection(admin, OPERATOR.email);
      expect(section).toContain(`${OPERATOR.name} ${OPERATOR.email}`);
      expect(section).toContain('Role operator');
      expect(section).toContain('Chatbots main');
      expect(section).toContain('No session.');
      expect(await violations(admin), 'the Operators page with an operator').toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "signs the operator in by her own link on the other replica, and keeps another chatbot's conversations and the Operators page from her",
    async () => {
      const page = await operatorBrowser.newPage();
      await askForLink(page, baseB, OPERATOR.email);
      const link = await signInLink(OPERATOR.email, 1);
      expect(new URL(link).origin).toBe(baseB);
      await page.goto(link);
      await clickAndWait(page, aria('button', 'Sign in'));
      expect(await textOf(page, '.who')).toBe(`Signed in as ${OPERATOR.name} (chatbot main)`);
      expect(await page.$$eval('nav a', (links) => links.map((link) => link.textContent))).toEqual([
        'Waiting',
        'History',
        'Leads',
      ]);

      // Another chatbot's conversation, by its address: not hers (the bot is checked before anything is read).
      const elsewhere = await page.goto(`${baseB}/inbox/conversations/${encodeURIComponent('other:telegram:6201')}`);
      expect(elsewhere?.status()).toBe(404);
      expect(await textOf(page, 'h1')).toBe('Not in your inbox');
      const operators = await page.goto(`${baseB}/inbox/operators`);
      expect(operators?.status()).toBe(404);
      expect(await textOf(page, 'h1')).toBe('Not found');
      await page.close();

      // The admin sees her session.
      await admin.reload();
      expect(await operatorSection(admin, OPERATOR.email)).toContain('End session');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'tells an unknown address the same, and sends it no mail',
    async () => {
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        await askForLink(page, baseA, UNKNOWN);
        expect(await textOf(page, '[role="status"]')).toBe(LINK_SENT);
        // The request is decided once it is audited (after the page was answered): no mail was sent for it.
        await expect.poll(async () => (await auditActions()).includes('sign-in-link-unknown-address'), POLL).toBe(true);
        expect(smtp.to(UNKNOWN)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "ends the stream of the removed operator's open page on the other replica, and refuses that page's next POST",
    async () => {
      const chat = 6101;
      fake.userSends({ chat, from: { id: chat, first_name: 'Rui' }, text: '/human' });
      await fake.waitFor(() => fake.visibleMessages(chat).length > 0, { ...WAIT, what: 'the handoff reply' });
      const conversation = `${baseB}/inbox/conversations/${encodeURIComponent(`main:telegram:${chat}`)}`;

      // Her conversation page, live: its stream, served by replica B.
      const live = await operatorBrowser.newPage();
      const streams: { status: number; ended: boolean; request: HTTPRequest }[] = [];
      live.on('response', (response: HTTPResponse) => {
        if (new URL(response.url()).pathname === '/inbox/events')
          streams.push({ status: response.status(), ended: false, request: response.request() });
      });
      // Only the server's end of a response finishes an EventSource's request (a page leaving it fails it).
      live.on('requestfinished', (request) => {
        const stream = streams.find((each) => each.request === request);
        if (stream) stream.ended = true;
      });
      await live.goto(conversation);
      expect(await textOf(live, 'h1')).toBe('Rui on Telegram');
      await expect.poll(() => streams.map((stream) => stream.status), POLL).toEqual([200]);

      // The same page in a tab without its script (no stream, no reload), with a reply typed: a form held open.
      const held = await operatorBrowser.newPage();
      await held.setRequestInterception(true);
      held.on('request', (request) => {
        if (request.url().endsWith('/inbox/assets/inbox.js')) void request.abort();
        else void request.continue();
      });
      await held.goto(conversation);
      await held.locator(aria('textbox', 'Reply')).fill('Hello Rui, I am Olga.');

      // The admin removes her, on replica A's Operators page.
      await admin.bringToFront();
      await clickAndWait(admin, aria('button', `Remove ${OPERATOR.name}`));
      expect(await operatorSection(admin, OPERATOR.email)).toBe('(no section)');

      await expect.poll(() => streams[0]!.ended, POLL).toBe(true);
      // The page's script comes back, is refused, and shows what the server says: the sign-in form.
      await expect.poll(() => streams.slice(1).map((stream) => stream.status), POLL).toContain(401);
      await live.bringToFront();
      await waitForText(live, 'h1', 'Sign in to the inbox', WAIT.timeoutMs);

      await held.bringToFront();
      const [refused] = await Promise.all([held.waitForNavigation(), held.locator(aria('button', 'Send')).click()]);
      expect(refused?.status()).toBe(401);
      expect(await textOf(held, 'h1')).toBe('Please sign in again');
      expect(fake.visibleMessages(chat).map((message) => message.text)).not.toContain('Hello Rui, I am Olga.');
      await Promise.all([live.close(), held.close()]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'holds each step in the audit log the admin reads on the Operators page',
    async () => {
      await admin.reload();
      // Newest first: what, who, whom, the detail and from where (the time column aside).
      const rows = await admin.$$eval('#audit + .table-wrap tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent ?? '')),
      );
      const ada = ADMIN.email;
      const olga = OPERATOR.email;
      const olgaAccount = `${OPERATOR.name}, operator, bots main`;
      const byLink = 'someone with a sign-in link';
      expect(rows).toEqual(
        [
          ['operator removed', ada, olga, olgaAccount],
          ['sign in link unknown address', UNKNOWN, '', ''],
          ['signed in', olga, '', 'by e-mail link'],
          ['sign in link sent', olga, '', ''],
          ['operator added', ada, olga, olgaAccount],
          // The late link pressed.
          ['sign in refused', byLink, '', 'gone'],
          ['sign in link sent', ada, '', ''],
          // The first link pressed a second time.
          ['sign in refused', byLink, '', 'gone'],
          ['signed in', ada, '', 'by e-mail link'],
          ['sign in link sent', ada, '', ''],
          ['operator added', 'the admin token', ada, `${ADMIN.name}, admin, every chatbot`],
        ].map((row) => [...row, '127.0.0.1']),
      );
    },
    TEST_TIMEOUT_MS,
  );

  /** The text of an account's section on the Operators page. */
  async function operatorSection(page: Page, email: string): Promise<string> {
    const sections = await page.$$eval('section.operator', (found) =>
      found.map((section) => (section as unknown as { innerText: string }).innerText.replace(/\s+/g, ' ').trim()),
    );
    return sections.find((section) => section.includes(email)) ?? '(no section)';
  }

  /** The audit log's actions, newest first, as the admin API gives them. */
  async function auditActions(): Promise<string[]> {
    const response = await fetch(`${baseA}/admin/operators-audit`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    return ((await response.json()) as { entries: { action: string }[] }).entries.map((entry) => entry.action);
  }
});
