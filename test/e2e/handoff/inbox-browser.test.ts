/**
 * Issue 20, "Tested in a real browser": the operator inbox in Chromium (puppeteer-core, the
 * system's browser), against `chatbridge start` as a process with the fake Telegram, the SMTP
 * catcher, ADMIN_TOKEN and the embedded demo chatbot. Elements are found by their accessible
 * names (role and name), as the issue lists them; assertions are on what the Telegram user and
 * the operators see.
 *
 * `INBOX_SCREENSHOT=docs/images/inbox.png npx vitest run test/e2e/handoff/inbox-browser.test.ts` also
 * writes the README's screenshot (a conversation with a few messages and a claim).
 */
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { FakeSmtpServer, type ReceivedMail } from '../../../fakes/smtp/server.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../../fakes/round-robin-proxy.js';

import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import {
  aria,
  axeViolations,
  chromiumNote,
  chromiumPresent,
  clickAndWait,
  launchChromium,
  markDocument,
  pageGlobal,
  startOtherSite,
  textOf,
  waitForNoText,
  waitForText,
  waitForTitle,
} from '../../support/browser.js';
import { startScriptedService, type ScriptedService } from '../../support/delivery-gateway.js';
import { replicaSet, type ReplicaSet } from '../../support/replicas.js';
import { userTexts } from '../../../src/gateway/index.js';

/** ADMIN_TOKEN must be at least 16 characters (config schema). */
const ADMIN_TOKEN = 'e2e-inbox-browser-admin-token';
/** The demo chatbot's handoff settings (config/demo/chatbot.yaml). */
const OPERATOR_EMAIL = 'agents@oakridge-homes.example';
const HANDOFF_REPLY =
  "I've asked one of our agents to join this chat. They usually reply within an hour during business hours.";
const WAIT = { timeoutMs: 30_000 };
/** A test waits for a handoff (a turn, an e-mail) before its own steps: room for a loaded machine. */
const TEST_TIMEOUT_MS = 45_000;
const TRANSCRIPT = '#transcript';
const STATUS = '#conversation-status';
const WAITING = '#waiting';

/** The sign-in form (no session): Admin token, Your name, Sign in. */
async function signInWithToken(page: Page, name: string): Promise<void> {
  await page.locator(aria('textbox', 'Admin token')).fill(ADMIN_TOKEN);
  await page.locator(aria('textbox', 'Your name')).fill(name);
  await clickAndWait(page, aria('button', 'Sign in'));
}

/** The inbox link of the handoff e-mail (beside the hand-back link). */
function inboxLinkIn(mail: ReceivedMail): string {
  const match = /Open this conversation in the inbox: (http:\/\/\S+)/.exec(mail.text ?? '');
  if (!match) throw new Error(`no inbox link in the e-mail:\n${mail.text}`);
  return match[1]!;
}

describe.skipIf(!chromiumPresent)(`the operator inbox in Chromium (${chromiumNote})`, () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
  });

  describe('chatbridge start with Telegram, SMTP and ADMIN_TOKEN', () => {
    let fake: FakeTelegram;
    let smtp: FakeSmtpServer;
    let gateway: ChatbridgeProcess;
    let base: string;
    /** The first operator's browser (the e-mail's link), and the second's (the admin token). */
    let bruno: BrowserContext;
    let carla: BrowserContext;
    /** An operator signed in with the admin token before the tests, for those that need one. */
    let dana: BrowserContext;

    beforeAll(async () => {
      [fake, smtp] = await Promise.all([startFakeTelegram(), FakeSmtpServer.start()]);
      gateway = await startChatbridge({
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.apiRoot,
        ADMIN_TOKEN,
        SMTP_URL: smtp.url,
      });
      base = `http://127.0.0.1:${gateway.port}`;
      bruno = await browser.createBrowserContext();
      carla = await browser.createBrowserContext();
      dana = await browser.createBrowserContext();
      const page = await dana.newPage();
      await page.goto(`${base}/inbox`);
      await signInWithToken(page, 'Dana');
      await page.close();
    }, 60_000);

    afterAll(async () => {
      await bruno?.close();
      await carla?.close();
      await dana?.close();
      await gateway?.cleanup();
      await fake?.close();
      await smtp?.stop();
    });

    const texts = (chat: number) => fake.visibleMessages(chat).map((message) => message.text);
    /** The handoff e-mail about a chat (not a "wrote again" one). */
    const handoffMail = (chat: number) =>
      smtp
        .to(OPERATOR_EMAIL)
        .find(
          (mail) =>
            mail.subject.includes('wants a person') && mail.text?.includes(`Conversation: main:telegram:${chat}`),
        );
    /** The user asks for a person; resolves with the handoff e-mail about them. */
    const handOver = async (
      chat: number,
      from: { id: number; first_name: string; last_name?: string; username?: string },
      text = 'I want to talk to a person',
    ) => {
      fake.userSends({ chat, from, text });
      await fake.waitFor(() => texts(chat).includes(HANDOFF_REPLY), {
        ...WAIT,
        what: `the handoff reply in chat ${chat}`,
      });
      await fake.waitFor(() => handoffMail(chat) !== undefined, {
        ...WAIT,
        what: `the handoff e-mail about chat ${chat}`,
      });
      return handoffMail(chat)!;
    };

    it("from the e-mail's link an operator answers (Send, Enter), sees the user's reply and a colleague's claim live; Hand back, the bot answers", async () => {
      const chat = 5101;
      const ana = { id: chat, first_name: 'Ana', last_name: 'Lima', username: 'analima' };
      const title = 'Ana Lima (@analima) on Telegram';
      fake.userSends({ chat, from: ana, text: 'Do you have homes for sale in Austin?' });
      await fake.waitFor(() => texts(chat).some((text) => text.includes('MLS TX-10452')), {
        ...WAIT,
        what: 'the answer about Austin',
      });
      const mail = await handOver(chat, ana);

      // The e-mail's link: a page naming the conversation, with Your name and a button.
      const page = await bruno.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(inboxLinkIn(mail));
      expect(await textOf(page, 'main')).toContain(`${title}, with the chatbot`);
      await page.locator(aria('textbox', 'Your name')).fill('Bruno');
      await clickAndWait(page, aria('button', 'Open conversation'));
      expect(new URL(page.url()).pathname).toBe(`/inbox/conversations/${encodeURIComponent(`main:telegram:${chat}`)}`);
      expect(await textOf(page, 'h1')).toBe(title);
      expect(await textOf(page, aria('log', 'Transcript'))).toContain('Do you have homes for sale in Austin?');
      expect(await textOf(page, TRANSCRIPT)).toContain('MLS TX-10452');
      expect(await textOf(page, TRANSCRIPT)).toContain('I want to talk to a person');
      expect(await textOf(page, TRANSCRIPT)).toContain('Handed over to a person');
      expect(await textOf(page, STATUS)).toContain('Claimed by nobody yet');

      // A reply with the Send button reaches the user on Telegram, and the transcript names the operator.
      const first = "Hello Ana, I'm Bruno from Oakridge Homes. Which home would you like to see?";
      await page.locator(aria('textbox', 'Reply')).fill(first);
      await clickAndWait(page, aria('button', 'Send'));
      await fake.waitFor(() => texts(chat).includes(first), {
        ...WAIT,
        what: "the operator's first reply on Telegram",
      });
      await waitForText(page, TRANSCRIPT, `Bruno (operator)`);
      await waitForText(page, TRANSCRIPT, first);

      // Shift+Enter starts a new line, Enter sends.
      await page.locator(aria('textbox', 'Reply')).click();
      await page.keyboard.type('Two homes fit:');
      await page.keyboard.down('Shift');
      await page.keyboard.press('Enter');
      await page.keyboard.up('Shift');
      await page.keyboard.type('1812 Elm St and 300 Bowie St.');
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      await fake.waitFor(() => texts(chat).some((text) => text.includes('1812 Elm St and 300 Bowie St.')), {
        ...WAIT,
        what: "the operator's reply sent with Enter",
      });
      expect(texts(chat).at(-1)).toBe('Two homes fit:\n1812 Elm St and 300 Bowie St.');
      expect(await page.$eval('#reply', (reply) => (reply as unknown as { value: string }).value)).toBe('');

      // The user answers; the open page shows it without being reloaded.
      const shown = await markDocument(page);
      fake.userSends({ chat, from: ana, text: 'Can I see 1812 Elm St on Saturday?' });
      await waitForText(page, TRANSCRIPT, 'Can I see 1812 Elm St on Saturday?');
      expect(await shown.sameDocument()).toBe(true);
      // Paused: the bot did not answer it.
      expect(texts(chat).at(-1)).toBe('Two homes fit:\n1812 Elm St and 300 Bowie St.');

      // A second operator, in another browser: no session, so the sign-in form; then the conversation.
      const list = await carla.newPage();
      await list.goto(`${base}/inbox`);
      expect(await textOf(list, 'h1')).toBe('Sign in to the inbox');
      await signInWithToken(list, 'Carla');
      await list.locator(aria('link', title)).wait();
      expect(await textOf(list, WAITING)).toContain('Can I see 1812 Elm St on Saturday?');
      const other = await carla.newPage();
      await other.goto(page.url());
      expect(await textOf(other, 'h1')).toBe(title);
      const otherShown = await markDocument(other);
      const listShown = await markDocument(list);

      // Bruno claims it: Carla's conversation page and her waiting list show it live.
      await clickAndWait(page, aria('button', 'Claim'));
      expect(await textOf(page, STATUS)).toContain('Claimed by Bruno');
      await waitForText(other, STATUS, 'Claimed by Bruno');
      await waitForText(other, TRANSCRIPT, 'Bruno claimed the conversation.');
      await waitForText(list, WAITING, 'Claimed by Bruno');
      expect(await otherShown.sameDocument()).toBe(true);
      expect(await listShown.sameDocument()).toBe(true);
      if (process.env.INBOX_SCREENSHOT) {
        // Tall enough for the whole transcript (at most 60% of the window high, then it scrolls); cut below the page's end.
        await page.setViewport({ width: 1000, height: 1400 });
        const main = await (await page.$('main'))!.boundingBox();
        await page.screenshot({
          path: process.env.INBOX_SCREENSHOT,
          clip: { x: 0, y: 0, width: 1000, height: Math.ceil(main!.y + main!.height) },
        });
      }

      // Carla hands it back: the user is told, Bruno's page and Carla's list change live, and the bot answers again.
      const brunoShown = await markDocument(page);
      await clickAndWait(other, aria('button', 'Hand back'));
      await fake.waitFor(() => texts(chat).includes(userTexts.handoff.botIsBack), {
        ...WAIT,
        what: 'the assistant-is-back notice on Telegram',
      });
      expect(await textOf(other, STATUS)).toContain('Handed back');
      await waitForText(page, STATUS, 'Handed back: the assistant answers this conversation.');
      await waitForText(page, TRANSCRIPT, 'Handed back to the assistant by Carla.');
      await waitForNoText(list, WAITING, title);
      expect(await brunoShown.sameDocument()).toBe(true);
      expect(await listShown.sameDocument()).toBe(true);

      const handedBack = texts(chat).length;
      expect(texts(chat).at(-1)).toBe(userTexts.handoff.botIsBack);
      fake.userSends({ chat, from: ana, text: 'Do you have homes for sale in Austin?' });
      await fake.waitFor(
        () =>
          texts(chat)
            .slice(handedBack)
            .some((text) => text.includes('MLS TX-10452')),
        { ...WAIT, what: 'the bot answering after the hand-back' },
      );

      // The history page lists it.
      // A tab in the background has no accessibility tree to search by name: to the front first.
      await list.bringToFront();
      await list.goto(`${base}/inbox/history`);
      await list.locator(aria('link', title)).wait();
      expect(await textOf(list, '#history')).toContain('by Carla');
      expect(dialogs).toEqual([]);
      await Promise.all([page.close(), list.close(), other.close()]);
    }, 60_000);

    it(
      "a user's message carrying HTML and a script is shown as text: no markup, no script ran",
      async () => {
        const chat = 5102;
        const eve = { id: chat, first_name: '<b>Eve</b>', last_name: '<img src=x onerror="window.injected=1">' };
        await handOver(chat, eve, '/human');
        const page = await dana.newPage();
        const dialogs: string[] = [];
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        await page.goto(`${base}/inbox/conversations/${encodeURIComponent(`main:telegram:${chat}`)}`);
        const title = '<b>Eve</b> <img src=x onerror="window.injected=1"> on Telegram';
        expect(await textOf(page, 'h1')).toBe(title);

        // It arrives live (the page script puts the server's markup in place), then once more on a fresh load.
        const attack =
          '<script>window.injected=2;alert("script")</script><img src=x onerror="window.injected=3;alert(\'img\')"><b>not bold</b>';
        fake.userSends({ chat, from: eve, text: attack });
        await waitForText(page, TRANSCRIPT, attack);
        for (const load of ['live', 'reloaded']) {
          if (load === 'reloaded') await page.reload();
          expect(await textOf(page, TRANSCRIPT), load).toContain(attack);
          expect(
            await page.$$eval('main script, main img, main b', (found) => found.map((element) => element.outerHTML)),
            load,
          ).toEqual([]);
          expect(await pageGlobal(page, 'injected'), load).toBeUndefined();
        }
        // The waiting list too: the name in the link, the message in "Last message".
        await page.goto(`${base}/inbox`);
        await page.locator(aria('link', title)).wait();
        expect(await textOf(page, WAITING)).toContain(attack);
        expect(await page.$$eval('main script, main img, main b', (found) => found.length)).toBe(0);
        expect(await pageGlobal(page, 'injected')).toBeUndefined();
        expect(dialogs).toEqual([]);
        await page.close();
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "a form on another site that posts to the inbox is refused (403) even with the operator's cookie, and nothing is sent",
      async () => {
        const chat = 5103;
        await handOver(chat, { id: chat, first_name: 'Gil' }, '/human');
        const conversation = `${base}/inbox/conversations/${encodeURIComponent(`main:telegram:${chat}`)}`;
        // The operator is signed in (Dana's browser); the other site is 127.0.0.1 on another port:
        // same site as the gateway, so the SameSite=Lax cookie goes along and only the Origin check stands.
        const site = await startOtherSite(`<!doctype html><title>Win a prize</title>
<form id="attack" method="post" action="${conversation}/messages"><input name="text" value="Sent by another site"><input name="_csrf" value="guessed"></form>
<script>document.getElementById('attack').submit()</script>`);
        const page = await dana.newPage();
        try {
          const refused = page.waitForResponse((response) => response.url() === `${conversation}/messages`);
          await page.goto(site.url);
          expect((await refused).status()).toBe(403);
          await waitForTitle(page, 'Request refused');
          expect(await textOf(page, 'main')).toContain(
            `Nothing was changed: the request came from ${site.url}, not from this inbox`,
          );
          await page.goto(conversation);
          expect(await textOf(page, TRANSCRIPT)).not.toContain('Sent by another site');
          expect(texts(chat)).toEqual([HANDOFF_REPLY]);
        } finally {
          await page.close();
          await site.close();
        }
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "without a session a conversation's address shows the sign-in form, which leads back to it",
      async () => {
        const chat = 5104;
        await handOver(chat, { id: chat, first_name: 'Hana', username: 'hana' }, '/human');
        const context = await browser.createBrowserContext();
        try {
          const page = await context.newPage();
          const conversation = `${base}/inbox/conversations/${encodeURIComponent(`main:telegram:${chat}`)}`;
          const response = await page.goto(conversation);
          expect(response?.status()).toBe(401);
          expect(await textOf(page, 'h1')).toBe('Sign in to the inbox');
          await page.locator(aria('button', 'Sign in')).wait();
          await signInWithToken(page, 'Ivo');
          expect(page.url()).toBe(conversation);
          expect(await textOf(page, 'h1')).toBe('Hana (@hana) on Telegram');
        } finally {
          await context.close();
        }
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "names the chatbot as the e-mail does (the demo chatbot's Name, not the bot's id)",
      async () => {
        const chat = 5106;
        const mail = await handOver(chat, { id: chat, first_name: 'Noa' });
        const chatbot = /^Chatbot: (.+)$/m.exec(mail.text ?? '')?.[1];
        expect(chatbot).toBe('Oakridge Homes assistant');
        const page = await dana.newPage();
        try {
          await page.goto(`${base}/inbox/conversations/${encodeURIComponent(`main:telegram:${chat}`)}`);
          expect(await textOf(page, STATUS)).toContain(`Chatbot ${chatbot}`);
          expect(await textOf(page, TRANSCRIPT)).toContain(`${chatbot} (assistant)`);
        } finally {
          await page.close();
        }
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'opens a conversation on its newest messages when the transcript is longer than its box',
      async () => {
        const chat = 5107;
        await handOver(chat, { id: chat, first_name: 'Lea' });
        const page = await dana.newPage();
        try {
          await page.setViewport({ width: 900, height: 260 });
          await page.goto(`${base}/inbox/conversations/${encodeURIComponent(`main:telegram:${chat}`)}`);
          await page.waitForNetworkIdle({ idleTime: 200 }).catch(() => undefined);
          // As the script sees the log: whether it overflows its box, and how far from its end the view is.
          const box = await page.$eval(TRANSCRIPT, (log) => ({
            overflows: log.scrollHeight > log.clientHeight,
            fromEnd: log.scrollHeight - log.scrollTop - log.clientHeight,
          }));
          expect(box.overflows).toBe(true);
          expect(box.fromEnd).toBeLessThanOrEqual(2);
        } finally {
          await page.close();
        }
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'axe-core finds no serious or critical violation on the sign-in form, the waiting list and a conversation',
      async () => {
        const chat = 5105;
        fake.userSends({ chat, from: { id: chat, first_name: 'Jo' }, text: 'Do you have homes for sale in Denver?' });
        await fake.waitFor(() => texts(chat).length > 0, { ...WAIT, what: 'the answer about Denver' });
        await handOver(chat, { id: chat, first_name: 'Jo' });
        const context = await browser.createBrowserContext();
        try {
          const page = await context.newPage();
          const serious = async (what: string) => {
            const violations = await axeViolations(page);
            const minor = violations.filter(
              (violation) => violation.impact !== 'serious' && violation.impact !== 'critical',
            );
            if (minor.length > 0) console.info(`axe on ${what}: minor or moderate`, JSON.stringify(minor));
            return violations.filter((violation) => !minor.includes(violation));
          };
          await page.goto(`${base}/inbox`);
          expect(await serious('the sign-in form')).toEqual([]);
          await signInWithToken(page, 'Kim');
          await page.locator(aria('link', 'Jo on Telegram')).wait();
          expect(await serious('the waiting list')).toEqual([]);
          await clickAndWait(page, aria('link', 'Jo on Telegram'));
          await page.locator(aria('log', 'Transcript')).wait();
          expect(await serious('a conversation')).toEqual([]);
        } finally {
          await context.close();
        }
      },
      TEST_TIMEOUT_MS,
    );
  });

  describe('two replicas on one Redis (webhook mode, behind a round-robin load balancer)', () => {
    let fake: FakeTelegram;
    let service: ScriptedService;
    let proxy: RoundRobinProxy;
    let replicas: ReplicaSet;

    beforeAll(async () => {
      fake = await startFakeTelegram({ rateLimit: false });
      service = await startScriptedService((text) => ({ fragments: [`Answer to: ${text}`] }));
      proxy = await startRoundRobinProxy();
      replicas = replicaSet({
        telegram: { token: fake.token, apiRoot: fake.apiRoot },
        webhookUrl: proxy.url,
        upstreamUrl: service.url,
        env: { ADMIN_TOKEN },
      });
      const [first, second] = [await replicas.start(), await replicas.start()];
      proxy.setBackends([first.port, second.port]);
    }, 90_000);

    afterAll(async () => {
      await replicas?.cleanup();
      await proxy?.close();
      await service?.close();
      await fake?.close();
    });

    it(
      "a user's message taken by the other replica appears live on the page the first replica serves",
      async () => {
        const chat = 5201;
        const lea = { id: chat, first_name: 'Lea', last_name: 'Moser' };
        const [first, second] = replicas.replicas;
        const texts = () => fake.visibleMessages(chat).map((message) => message.text);
        fake.userSends({ chat, from: lea, text: '/human' });
        await fake.waitFor(() => texts().length > 0, { ...WAIT, what: 'the handoff reply' });

        const context = await browser.createBrowserContext();
        try {
          const page = await context.newPage();
          await page.goto(`http://127.0.0.1:${first!.port}/inbox`);
          await signInWithToken(page, 'Mia');
          await clickAndWait(page, aria('link', 'Lea Moser on Telegram'));
          expect(new URL(page.url()).port).toBe(String(first!.port));
          const shown = await markDocument(page);

          // Every webhook now goes to the second replica: it takes the message and records it.
          proxy.setBackends([second!.port]);
          fake.userSends({ chat, from: lea, text: 'Is anyone there? (through the second replica)' });
          await waitForText(page, TRANSCRIPT, 'Is anyone there? (through the second replica)');
          expect(await shown.sameDocument()).toBe(true);
          // Paused: nobody asked the Chatbot Service.
          expect(service.questions).not.toContain('Is anyone there? (through the second replica)');
        } finally {
          await context.close();
        }
      },
      TEST_TIMEOUT_MS,
    );
  });
});
