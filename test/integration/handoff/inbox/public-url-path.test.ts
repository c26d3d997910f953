/**
 * The inbox and the hand-back pages behind a reverse proxy that mounts the gateway under `/support/` and strips
 * the prefix (PUBLIC_URL=<proxy>/support): every link, form action, script, stylesheet and stream URL of the
 * pages, every redirect, the session cookie's Path and the e-mail's links are under the prefix, and each of them
 * works when followed through the proxy, as a browser would. In Chromium too: the page script and its live stream
 * load through the proxy and show a user's new message without a reload.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedMail } from '../../../../fakes/smtp/server.js';
import {
  chromiumNote,
  chromiumPresent,
  clickAndWait,
  aria,
  launchChromium,
  waitForText,
} from '../../../support/browser.js';
import { startPrefixProxy, type PrefixProxy } from '../../../support/prefix-proxy.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { ADMIN_TOKEN, HANDOFF_REPLY, resumeLinkIn, startHandoffStack, type HandoffStack } from '../stack.js';
import { csrfIn, inboxLinkIn, startInboxProcess, type InboxProcess } from './inbox-support.js';

const PREFIX = '/support';
const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Every URL a page holds: links, images, scripts, stylesheets, form actions and the live stream. */
function urlsIn(html: string): string[] {
  return [...html.matchAll(/\b(?:href|src|action|data-events)="([^"]*)"/g)].map((match) =>
    match[1]!.replaceAll('&amp;', '&'),
  );
}

/** The URLs a browser GETs by itself or on a click: links, images, scripts, stylesheets and the live stream (not form actions). */
function fetchedIn(html: string): string[] {
  return [...html.matchAll(/\b(?:href|src|data-events)="([^"]*)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
}

/** A browser behind the proxy: one cookie jar, forms posted with the public origin, redirects not followed. */
class ProxiedBrowser {
  cookie: string | undefined;
  readonly setCookies: string[] = [];

  constructor(private readonly origin: string) {}

  get(path: string): Promise<{ status: number; html: string; headers: Headers }> {
    return this.request('GET', path);
  }

  post(path: string, form: Record<string, string>): Promise<{ status: number; html: string; headers: Headers }> {
    return this.request('POST', path, new URLSearchParams(form).toString());
  }

  private async request(method: string, path: string, body?: string) {
    const response = await fetch(`${this.origin}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body === undefined ? {} : { origin: this.origin, 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      this.cookie = line.split(';')[0];
    }
    return { status: response.status, html: await response.text(), headers: response.headers };
  }
}

describe('the inbox under PUBLIC_URL with a path, behind a proxy that strips it', () => {
  let stack: HandoffStack;
  let proxy: PrefixProxy;
  const running: InboxProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('inbox-public-path');
    proxy = await startPrefixProxy(PREFIX);
  });
  afterEach(async () => {
    for (const process of running.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
  });
  afterAll(async () => {
    await proxy?.close();
    await stack?.close();
  });

  /** A gateway reached only through the proxy, with Ana's conversation `c1` (a photo, then /human) handed to a person. */
  const start = async (): Promise<{ process: InboxProcess; mail: ReceivedMail }> => {
    const state = isolatedRedisStore('inbox-public-path', { checkSlots: true });
    stores.push(state);
    const process = await startInboxProcess({
      state,
      upstream: stack.client,
      smtpUrl: stack.smtp.url,
      publicUrl: `${proxy.url}${PREFIX}`,
    });
    running.push(process);
    proxy.forwardTo(process.url);
    const photo = process.platform.addFile({
      bytes: PNG,
      kind: 'image',
      mimeType: 'image/png',
      fileName: 'kitchen.png',
    });
    const before = stack.smtp.mails.length;
    await process.platform.userSends('main', 'c1', 'Look at this kitchen', { ...ana, attachments: [photo] });
    await process.platform.userSends('main', 'c1', '/human', ana);
    await eventually(() => expect(process.platform.textsIn('c1')).toContain(HANDOFF_REPLY));
    const mail = await eventually(() => {
      const found = stack.smtp.mails.slice(before).find((candidate) => candidate.subject?.includes('Ana Lima'));
      expect(found).toBeDefined();
      return found!;
    });
    return { process, mail };
  };

  /** Every URL of the page is under the prefix; each GET one answers through the proxy (the stream: its first bytes). */
  const followAll = async (browser: ProxiedBrowser, html: string) => {
    const urls = urlsIn(html);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url, `a URL of the page: ${url}`).toMatch(/^\/support\/(inbox|handoff)(\/|\?|$)/);
    for (const url of new Set(fetchedIn(html))) {
      if (url.includes('/events')) {
        const abort = new AbortController();
        const stream = await fetch(`${proxy.url}${url}`, {
          headers: { cookie: browser.cookie ?? '' },
          signal: abort.signal,
        });
        expect(stream.status, url).toBe(200);
        expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
        abort.abort();
        continue;
      }
      const answer = await browser.get(url);
      expect(answer.status, `GET ${url} through the proxy`).toBe(200);
    }
  };

  it('writes every URL of the pages, the redirects and the cookie Path under the prefix, and each works through the proxy', async () => {
    const { process } = await start();
    const bruno = new ProxiedBrowser(proxy.url);

    const signIn = await bruno.get(`${PREFIX}/inbox`);
    expect(signIn.status).toBe(200);
    await followAll(bruno, signIn.html);
    const signedIn = await bruno.post(`${PREFIX}/inbox/sign-in`, { token: ADMIN_TOKEN, name: 'Bruno' });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(`${PREFIX}/inbox`);
    expect(bruno.setCookies).toHaveLength(1);
    expect(bruno.setCookies[0]).toMatch(/; Path=\/support\/inbox;/);

    const waiting = await bruno.get(`${PREFIX}/inbox`);
    expect(waiting.html).toContain('Ana Lima (@analima) on Fakechat');
    expect(waiting.html).toContain(`data-events="${PREFIX}/inbox/events"`);
    await followAll(bruno, waiting.html);

    const conversation = `${PREFIX}/inbox/conversations/${encodeURIComponent('main:fakechat:c1')}`;
    const page = await bruno.get(conversation);
    expect(page.status).toBe(200);
    expect(urlsIn(page.html)).toEqual(
      expect.arrayContaining([
        `${PREFIX}/inbox/assets/inbox.css`,
        `${PREFIX}/inbox/assets/inbox.js`,
        `${PREFIX}/inbox/events?conversation=main%3Afakechat%3Ac1`,
        `${conversation}/messages`,
        `${conversation}/claim`,
        `${conversation}/hand-back`,
        `${PREFIX}/inbox/sign-out`,
      ]),
    );
    const file = urlsIn(page.html).find((url) => url.includes('/files/'));
    expect(file).toBeDefined();
    await followAll(bruno, page.html);
    const image = await fetch(`${proxy.url}${file!}`, { headers: { cookie: bruno.cookie! } });
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);

    // The forms post through the proxy, with the public origin, and come back under the prefix.
    const csrf = csrfIn(page.html);
    const reply = await bruno.post(`${conversation}/messages`, { _csrf: csrf, text: 'Hello Ana, Bruno here' });
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toBe(conversation);
    expect(process.platform.textsIn('c1')).toContain('Hello Ana, Bruno here');
    const claimed = await bruno.post(`${conversation}/claim`, { _csrf: csrf });
    expect(claimed.headers.get('location')).toBe(conversation);
    const history = await bruno.get(`${PREFIX}/inbox/history`);
    await followAll(bruno, history.html);
    const out = await bruno.post(`${PREFIX}/inbox/sign-out`, { _csrf: csrf });
    expect(out.headers.get('location')).toBe(`${PREFIX}/inbox`);
    expect(bruno.setCookies.at(-1)).toMatch(/^cb_inbox=; Path=\/support\/inbox; Max-Age=0/);

    // Signed out, a deep page asks to sign in and comes back to it under the prefix.
    bruno.cookie = undefined;
    const deep = await bruno.get(conversation);
    expect(deep.status).toBe(401);
    expect(deep.html).toContain(`name="next" value="${conversation}"`);
    const back = await bruno.post(`${PREFIX}/inbox/sign-in`, { token: ADMIN_TOKEN, name: 'Bruno', next: conversation });
    expect(back.headers.get('location')).toBe(conversation);
  });

  it("puts the e-mail's links under the prefix, and both work through the proxy", async () => {
    const { process, mail } = await start();
    const inboxLink = inboxLinkIn(mail.text ?? '');
    const resumeLink = resumeLinkIn(mail.text ?? '');
    expect(inboxLink.startsWith(`${proxy.url}${PREFIX}/inbox/link?token=`)).toBe(true);
    expect(resumeLink.startsWith(`${proxy.url}${PREFIX}/handoff/resume?token=`)).toBe(true);
    expect(mail.html).toContain(`href="${proxy.url}${PREFIX}/inbox/link?token=`);

    const reader = new ProxiedBrowser(proxy.url);
    const linkPage = await reader.get(new URL(inboxLink).pathname + new URL(inboxLink).search);
    expect(linkPage.status).toBe(200);
    await followAll(reader, linkPage.html);
    const token = /name="token" value="([^"]+)"/.exec(linkPage.html)![1]!;
    const opened = await reader.post(`${PREFIX}/inbox/link`, { token, name: 'Carla' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(
      `${PREFIX}/inbox/conversations/${encodeURIComponent('main:fakechat:c1')}`,
    );

    // The hand-back page's form posts to a relative action, which resolves under the prefix.
    const confirm = await reader.get(new URL(resumeLink).pathname + new URL(resumeLink).search);
    expect(confirm.status).toBe(200);
    const action = new URL(/<form method="post" action="([^"]+)"/.exec(confirm.html)![1]!, resumeLink);
    expect(action.pathname).toBe(`${PREFIX}/handoff/resume`);
    const handedBack = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: proxy.url },
      body: new URLSearchParams({ token: new URL(resumeLink).searchParams.get('token')! }).toString(),
    });
    expect(handedBack.status).toBe(200);
    expect(await process.handoff.controller.pauses.read(process.platform.conversation('main', 'c1'))).toBeNull();
  });

  describe.skipIf(!chromiumPresent)(`in Chromium (${chromiumNote})`, () => {
    it('loads the page script and its live stream through the proxy: a new message of the user appears without a reload', async () => {
      const { process } = await start();
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        // Refused requests of the inbox's own (the browser's /favicon.ico is outside the prefix: the proxy's 404).
        const failed: string[] = [];
        page.on('response', (response) => {
          if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
            failed.push(`${response.status()} ${response.url()}`);
        });
        await page.goto(`${proxy.url}${PREFIX}/inbox`);
        await page.locator(aria('textbox', 'Admin token')).fill(ADMIN_TOKEN);
        await page.locator(aria('textbox', 'Your name')).fill('Bruno');
        await clickAndWait(page, aria('button', 'Sign in'));
        await clickAndWait(page, aria('link', 'Ana Lima (@analima) on Fakechat'));
        expect(new URL(page.url()).pathname).toBe(
          `${PREFIX}/inbox/conversations/${encodeURIComponent('main:fakechat:c1')}`,
        );
        // The script ran (it scrolls the log) and the stream is open: the user's next words arrive live.
        await eventually(() =>
          expect(proxy.requested.some((path) => path.startsWith(`${PREFIX}/inbox/events?`))).toBe(true),
        );
        await process.platform.userSends('main', 'c1', 'Are you still there?', ana);
        await waitForText(page, '#transcript', 'Are you still there?');
        expect(failed).toEqual([]);
      } finally {
        await browser.close();
      }
    }, 60_000);
  });
});
