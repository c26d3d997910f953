/**
 * The inbox's Leads page: a day's leads of the chatbots the operator may see (today by default, the days before
 * and after a link away), each row linking to the conversation, the same leads as a CSV to download; a sign-in
 * for one chatbot sees that chatbot's only; whatever a user wrote shown as text. The real DigestService reading
 * the transcripts the real core wrote, through the real HTTP server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INBOX_CSP } from '../../../../src/handoff/inbox/guard.js';
import { InboxSessions } from '../../../../src/handoff/inbox/index.js';
import { OperatorAccounts } from '../../../../src/handoff/operators/index.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { startHandoffStack, type HandoffStack } from '../stack.js';
import { aDayOfLeads, ANA_EMAIL, ANA_PHONE_E164, type Chat } from '../admin/digest-day.js';
import { conversationPage, OTHER_BOT, startInboxProcess, type InboxProcess } from './inbox-support.js';

const DAY_MS = 24 * 60 * 60_000;

/** The calendar day before or after `day` (YYYY-MM-DD). */
const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

describe("the inbox's Leads page", () => {
  let stack: HandoffStack;
  const running: InboxProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('inbox-leads');
  });
  afterEach(async () => {
    for (const process of running.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
  });
  afterAll(async () => {
    await stack.close();
  });

  const start = async () => {
    const state = isolatedRedisStore('inbox-leads', { checkSlots: true });
    stores.push(state);
    const process = await startInboxProcess({ state, upstream: stack.client });
    running.push(process);
    return process;
  };
  /** Ana and Carla talk to chatbot main, Bruno to the other one; `today` in the chatbots' zone (UTC). */
  const startWithADay = async () => {
    const process = await start();
    const botOf = (id: string) => (id === 'bruno' ? OTHER_BOT : 'main');
    const chat: Chat = {
      say: (id, text, extra) => process.platform.userSends(botOf(id), id, text, extra),
      conversation: (id) => process.platform.conversation(botOf(id), id),
    };
    await aDayOfLeads(process.gateway, chat);
    const today = (await process.handoff.digests!.window('main')).day;
    const admin = process.browser();
    expect((await admin.signIn('Bruno')).status).toBe(303);
    return { process, today, admin };
  };

  it('is for signed-in operators only', async () => {
    const process = await start();
    for (const path of ['/inbox/leads', '/inbox/leads.csv']) {
      const page = await process.browser().get(path);
      expect(page.status).toBe(401);
      expect(page.html).toContain('name="token"');
      expect(page.html).not.toContain('<table');
    }
  });

  it('is in the navigation, beside Waiting and History (and, for an admin, Operators)', async () => {
    const process = await start();
    const bruno = process.browser();
    await bruno.signIn();
    const waiting = await bruno.get('/inbox');
    expect(waiting.html).toContain(
      '<nav aria-label="Inbox"><a href="/inbox" aria-current="page">Waiting</a> ' +
        '<a href="/inbox/history">History</a> <a href="/inbox/leads">Leads</a> <a href="/inbox/operators">Operators</a></nav>',
    );
  });

  it("shows today's leads of every chatbot, each row linking to the conversation; the one who only chatted is not there", async () => {
    const { today, admin } = await startWithADay();
    const page = await admin.get('/inbox/leads');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(INBOX_CSP);
    expect(page.html).toContain(`<h1>Leads of ${today}</h1>`);
    expect(page.html).toContain('<a href="/inbox/leads" aria-current="page">Leads</a>');
    expect(page.html).toContain(`<a href="/inbox/leads?day=${dayAfter(today, -1)}" rel="prev">`);
    // Today's leads are the newest there are: no next day.
    expect(page.html).not.toContain('rel="next"');

    const rows = [...page.html.matchAll(/<tr>\s*<th scope="row">([\s\S]*?)<\/tr>/g)].map((match) => match[1]!);
    expect(rows).toHaveLength(2);
    const ana = rows.find((row) => row.includes('Ana Lima'))!;
    expect(ana).toContain(`<a href="${conversationPage('main', 'ana')}">Ana Lima</a>`);
    expect(ana).toContain('@analima');
    expect(ana).toContain('<td>Fakechat</td>');
    expect(ana).toContain(`<li>${ANA_PHONE_E164}</li>`);
    expect(ana).toContain(`<li>${ANA_EMAIL}</li>`);
    expect(ana).toContain('Please call me on');
    expect(ana).toMatch(/wrote a phone number/);
    expect(ana).toMatch(/wrote an e-mail address/);
    const bruno = rows.find((row) => row.includes('Bruno Costa'))!;
    expect(bruno).toContain(`<a href="${conversationPage(OTHER_BOT, 'bruno')}">Bruno Costa</a>`);
    expect(bruno).toContain('asked for a person');
    expect(page.html).not.toContain('Carla');
    // One section per chatbot, in its own zone.
    expect(page.html).toContain('<h2 id="leads-main">');
    expect(page.html).toContain(`<h2 id="leads-${OTHER_BOT}">`);
    expect(page.html).toContain('the day in UTC');
    expect(page.html).toContain(`<a href="/inbox/leads.csv?day=${today}" download>Download the 2 leads as CSV</a>`);
  });

  it('shows one chatbot with ?bot=, keeps it in the day links, and goes back a day', async () => {
    const { today, admin } = await startWithADay();
    const main = await admin.get('/inbox/leads?bot=main');
    expect(main.html).toContain('Ana Lima');
    expect(main.html).not.toContain('Bruno Costa');
    expect(main.html).not.toContain(`id="leads-${OTHER_BOT}"`);
    const yesterday = dayAfter(today, -1);
    expect(main.html).toContain(`<a href="/inbox/leads?day=${yesterday}&amp;bot=main" rel="prev">`);

    const before = await admin.get(`/inbox/leads?day=${yesterday}&bot=main`);
    expect(before.status).toBe(200);
    expect(before.html).toContain(`<h1>Leads of ${yesterday}</h1>`);
    expect(before.html).toContain('No leads that day.');
    expect(before.html).not.toContain('Ana Lima');
    expect(before.html).toContain(`<a href="/inbox/leads?day=${today}&amp;bot=main" rel="next">${today} →</a>`);
  });

  it("downloads the day's leads as CSV: the rows of the page, as an attachment", async () => {
    const { today, admin } = await startWithADay();
    const all = await admin.get(`/inbox/leads.csv?day=${today}`);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(all.headers.get('content-disposition')).toBe(`attachment; filename=leads-all-${today}.csv`);
    expect(all.html).toContain('Ana Lima');
    expect(all.html).toContain(ANA_EMAIL);
    expect(all.html).toContain('Bruno Costa');
    expect(all.html).not.toContain('Carla');
    const one = await admin.get('/inbox/leads.csv?bot=main');
    expect(one.headers.get('content-disposition')).toBe(`attachment; filename=leads-main-${today}.csv`);
    expect(one.html).toContain('Ana Lima');
    expect(one.html).not.toContain('Bruno Costa');
  });

  it("shows a sign-in for one chatbot (an e-mail's link) that chatbot's leads only", async () => {
    const { process, today } = await startWithADay();
    const session = await new InboxSessions(process.state, 8, new OperatorAccounts(process.state)).create(
      { by: 'link', operator: 'Dana', bots: ['main'] },
      { userAgent: 'test', address: '127.0.0.1' },
    );
    const dana = process.browser();
    dana.session = session.id;
    const page = await dana.get('/inbox/leads');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Ana Lima');
    expect(page.html).not.toContain('Bruno Costa');
    const csv = await dana.get(`/inbox/leads.csv?day=${today}`);
    expect(csv.html).not.toContain('Bruno Costa');
    for (const path of [`/inbox/leads?bot=${OTHER_BOT}`, `/inbox/leads.csv?bot=${OTHER_BOT}`]) {
      const refused = await dana.get(path);
      expect(refused.status).toBe(404);
      expect(refused.html).toContain(
        `Your sign-in sees no chatbot &quot;${OTHER_BOT}&quot;; the chatbots it sees: main.`,
      );
    }
  });

  it('refuses a day that is not one, naming it', async () => {
    const { admin } = await startWithADay();
    for (const day of ['2026-02-30', 'yesterday']) {
      const page = await admin.get(`/inbox/leads?day=${day}`);
      expect(page.status).toBe(400);
      expect(page.html).toContain(
        `The day must be a date written YYYY-MM-DD, e.g. 2026-11-26 (got &quot;${day}&quot;).`,
      );
    }
  });

  it('shows whatever a user wrote as text: no markup, no script', async () => {
    const process = await start();
    const mallory = {
      user: { id: 'u-m', name: '<script>alert("name")</script>', handle: '"><img src=x onerror=alert(2)>' },
    };
    await process.platform.userSends(
      'main',
      'm1',
      'Call me on +1 512 555 0199 <b>now</b> <script>alert(3)</script>',
      mallory,
    );
    await eventually(async () =>
      expect(await process.gateway.answered(process.platform.conversation('main', 'm1'))).toBe(true),
    );
    const bruno = process.browser();
    await bruno.signIn();
    const page = await bruno.get('/inbox/leads');
    expect(page.html).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;');
    expect(page.html).not.toMatch(/<script>alert|<img src=x|<b>now/);
  });
});
