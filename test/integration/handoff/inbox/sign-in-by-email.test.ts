/**
 * Operators sign in as themselves (issue 31): by a one-time link mailed to their account's address, bound to the
 * browser that asked; an unknown address is told the same and mailed nothing; the handoff e-mail's link signs in the
 * operator it went to; the admin token's sign-in can be turned off; removing an operator ends their session at their
 * next request, whichever process serves it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { HANDOFF_REPLY, OPERATOR_EMAIL, startHandoffStack, type HandoffStack } from '../stack.js';
import {
  Browser,
  conversationPage,
  csrfIn,
  inboxLinkIn,
  OTHER_BOT,
  pathOf,
  startInboxProcess,
  type InboxProcess,
  type InboxProcessOptions,
} from './inbox-support.js';

const ADMIN = { name: 'the admin token' };
const BRUNO = 'bruno@oakridge.example';

describe('signing in to the inbox as an operator account', () => {
  let stack: HandoffStack;
  const running: InboxProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('inbox-accounts');
  });
  afterEach(async () => {
    for (const process of running.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
  });
  afterAll(async () => {
    await stack.close();
  });

  const start = async (options: Partial<InboxProcessOptions> = {}) => {
    let state = options.state;
    if (!state) {
      const own = isolatedRedisStore('inbox-accounts', { checkSlots: true });
      stores.push(own);
      state = own;
    }
    const process = await startInboxProcess({ state, upstream: stack.client, smtpUrl: stack.smtp.url, ...options });
    running.push(process);
    return process;
  };

  /** Asks for a link to `email` from `browser`; resolves with the answer page. */
  const askForLink = (browser: Browser, email: string) => browser.post('/inbox/sign-in/email', { email });

  /** The sign-in link of the newest mail to `email` sent after `since` mails. */
  const linkMailedTo = async (email: string, since: number) => {
    const mail = await eventually(() => {
      const found = stack.smtp.mails.slice(since).find((each) => each.envelopeTo.includes(email));
      expect(found).toBeDefined();
      return found!;
    });
    const match = /(http:\/\/\S+\/inbox\/sign-in\/link\?token=[A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    if (!match) throw new Error(`no sign-in link in:\n${mail.text}`);
    return pathOf(match[1]!);
  };

  it('mails a known address a link that a GET leaves unused and the button spends once, in the asking browser only', async () => {
    const process = await start();
    await process.handoff.operators.add({ email: BRUNO, name: 'Bruno Costa', bots: ['main'] }, ADMIN);
    const bruno = process.browser();
    const before = stack.smtp.mails.length;
    const asked = await askForLink(bruno, ' Bruno@Oakridge.example ');
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('If that address belongs to an operator, a sign-in link is on its way to it.');
    expect(bruno.pending).toBeDefined();
    const link = await linkMailedTo(BRUNO, before);

    // A mail scanner: a GET without the browser's cookie, then the browser's own GET; neither signs in or spends.
    const scanner = process.browser();
    expect((await scanner.get(link)).status).toBe(403);
    const page = await bruno.get(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<button type="submit">Sign in</button>');
    expect(bruno.session).toBeUndefined();
    // Another browser pressing the button with the link: refused, and the link still works where it was asked for.
    const elsewhere = await scanner.post('/inbox/sign-in/link', {
      token: new URL(`http://x${link}`).searchParams.get('token')!,
    });
    expect(elsewhere.status).toBe(403);

    const token = new URL(`http://x${link}`).searchParams.get('token')!;
    const signedIn = await bruno.post('/inbox/sign-in/link', { token });
    expect(signedIn.status).toBe(303);
    expect(bruno.session).toBeDefined();
    const waiting = await bruno.get('/inbox');
    expect(waiting.html).toContain('Signed in as <strong>Bruno Costa</strong> (chatbot main)');
    expect(waiting.html).not.toContain('>Operators</a>');

    const again = process.browser();
    again.pending = bruno.pending;
    const reused = await again.post('/inbox/sign-in/link', { token });
    expect(reused.status).toBe(410);
    expect(again.session).toBeUndefined();

    const audit = (await process.handoff.operators.audit(10)).map((entry) => `${entry.action} ${entry.actor}`);
    expect(audit).toEqual(
      expect.arrayContaining([
        `operator-added ${ADMIN.name}`,
        `sign-in-link-sent ${BRUNO}`,
        `signed-in ${BRUNO}`,
        'sign-in-refused someone with a sign-in link',
      ]),
    );
  });

  it('answers an unknown address as it answers a known one, and mails it nothing', async () => {
    const process = await start();
    await process.handoff.operators.add({ email: BRUNO }, ADMIN);
    const before = stack.smtp.mails.length;
    const unknown = await askForLink(process.browser(), 'nobody@oakridge.example');
    const known = await askForLink(process.browser(), BRUNO);
    expect(unknown.status).toBe(known.status);
    expect(unknown.html).toBe(known.html);
    // The known address's mail arrives; by then the unknown one's would have too.
    await linkMailedTo(BRUNO, before);
    expect(
      stack.smtp.mails.slice(before).filter((mail) => mail.envelopeTo.includes('nobody@oakridge.example')),
    ).toEqual([]);
    const audit = await process.handoff.operators.audit(10);
    expect(audit.map((entry) => `${entry.action} ${entry.actor}`)).toContain(
      'sign-in-link-unknown-address nobody@oakridge.example',
    );
  });

  it('limits links per e-mail address, known or not, with how long to wait', async () => {
    const process = await start();
    const answers: number[] = [];
    // From several client addresses (X-Forwarded-For through a trusted proxy would do too): the e-mail's own limit.
    for (let attempt = 0; attempt < 6; attempt++)
      answers.push((await askForLink(process.browser(), 'someone@oakridge.example')).status);
    expect(answers.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await askForLink(process.browser(), 'someone@oakridge.example');
    expect(limited.status).toBe(429);
    expect(limited.html).toContain('Too many sign-in links were asked for that e-mail address.');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('signs in the operator a handoff e-mail went to, for that chatbot, without asking a name', async () => {
    const process = await start();
    await process.handoff.operators.add({ email: OPERATOR_EMAIL, name: 'Desk Team' }, ADMIN);
    const before = stack.smtp.mails.length;
    await process.platform.userSends('main', 'c-ana', '/human', { user: { id: 'u-ana', name: 'Ana Lima' } });
    await eventually(() => expect(process.platform.textsIn('c-ana')).toContain(HANDOFF_REPLY));
    const mail = await eventually(() => {
      const found = stack.smtp.mails.slice(before).find((each) => each.subject?.includes('Ana Lima'));
      expect(found).toBeDefined();
      return found!;
    });
    const link = pathOf(inboxLinkIn(mail.text ?? ''));
    const desk = process.browser();
    const page = await desk.get(link);
    expect(page.html).toContain('You sign in as Desk Team (desk@oakridge.example)');
    expect(page.html).not.toContain('id="name"');
    const opened = await desk.post('/inbox/link', { token: new URL(`http://x${link}`).searchParams.get('token')! });
    expect(opened.status).toBe(303);
    const waiting = await desk.get('/inbox');
    expect(waiting.html).toContain('Signed in as <strong>Desk Team</strong> (chatbot main)');
    // For that chatbot alone, and not as an admin, whatever the account's role.
    expect((await desk.get(conversationPage(OTHER_BOT, 'c-dora'))).status).toBe(404);
  });

  it('refuses the admin token at the sign-in when inbox.tokenSignIn is false, and shows only the e-mail form', async () => {
    const process = await start({ inbox: { tokenSignIn: false } });
    const reader = process.browser();
    const form = await reader.get('/inbox');
    expect(form.html).toContain('Your e-mail address');
    expect(form.html).not.toContain('Admin token');
    const refused = await reader.signIn();
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('inbox.tokenSignIn is false');
    expect(reader.session).toBeUndefined();
  });

  it("ends a removed operator's session at its next request on another process, and refuses its POSTs", async () => {
    const first = await start();
    const second = await start({ state: first.state });
    await first.handoff.operators.add({ email: BRUNO, name: 'Bruno' }, ADMIN);
    const bruno = first.browser();
    const before = stack.smtp.mails.length;
    await askForLink(bruno, BRUNO);
    const link = await linkMailedTo(BRUNO, before);
    await bruno.post('/inbox/sign-in/link', { token: new URL(`http://x${link}`).searchParams.get('token')! });
    const onSecond = new Browser(second.url);
    onSecond.session = bruno.session;
    const csrf = csrfIn((await onSecond.get('/inbox')).html);
    expect((await first.handoff.operators.sessions(BRUNO))?.sessions).toHaveLength(1);

    const removed = await second.handoff.operators.remove(BRUNO, ADMIN);
    expect(removed).toMatchObject({ ok: true, endedSessions: 1 });
    const post = await onSecond.post('/inbox/sign-out', { _csrf: csrf });
    expect([303, 401]).toContain(post.status);
    expect((await onSecond.get('/inbox')).html).toContain('Your e-mail address');
    expect((await bruno.get(conversationPage('main', 'c-1'))).status).toBe(401);
  });

  it('ends the sessions of an operator whose role changes, and keeps them when only the name changes', async () => {
    const process = await start();
    await process.handoff.operators.add({ email: BRUNO, name: 'Bruno' }, ADMIN);
    const bruno = process.browser();
    const before = stack.smtp.mails.length;
    await askForLink(bruno, BRUNO);
    const link = await linkMailedTo(BRUNO, before);
    await bruno.post('/inbox/sign-in/link', { token: new URL(`http://x${link}`).searchParams.get('token')! });
    await process.handoff.operators.change(BRUNO, { name: 'Bruno Costa' }, ADMIN);
    expect((await bruno.get('/inbox')).html).toContain('Signed in as <strong>Bruno Costa</strong>');
    await process.handoff.operators.change(BRUNO, { role: 'admin' }, ADMIN);
    expect((await bruno.get('/inbox')).status).toBe(200);
    expect((await bruno.get('/inbox')).html).toContain('Your e-mail address');
  });
});
