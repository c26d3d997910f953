/**
 * The handoff e-mail's link into the inbox: signed with a key of its own, naming the chatbot and
 * the conversation, expiring; opening it changes nothing (mail scanners follow links), its button
 * signs the reader in for that chatbot's conversations only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InboxLinks } from '../../../../src/handoff/inbox/sign-in-link.js';
import { resolveLinkSecret } from '../../../../src/handoff/index.js';
import { isolatedRedisStore } from '../../../support/redis.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import {
  HANDOFF_REPLY,
  OPERATOR_EMAIL,
  postResume,
  resumeLinkIn,
  startHandoffStack,
  type HandoffStack,
} from '../stack.js';
import {
  conversationPage,
  inboxLinkIn,
  OTHER_BOT,
  pathOf,
  startInboxProcess,
  type InboxProcess,
} from './inbox-support.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
const dora = { user: { id: 'u-dora', name: 'Dora Other' } };

describe('the e-mail link into the inbox', () => {
  let stack: HandoffStack;
  const running: InboxProcess[] = [];
  const stores: ReturnType<typeof isolatedRedisStore>[] = [];

  beforeAll(async () => {
    stack = await startHandoffStack('inbox-link');
  });
  afterEach(async () => {
    for (const process of running.splice(0)) await process.stop();
    for (const store of stores.splice(0)) await store.cleanup();
  });
  afterAll(async () => {
    await stack.close();
  });

  const start = async (options: { adminToken?: null } = {}) => {
    const state = isolatedRedisStore('inbox-link', { checkSlots: true });
    stores.push(state);
    const process = await startInboxProcess({ state, upstream: stack.client, smtpUrl: stack.smtp.url, ...options });
    running.push(process);
    return process;
  };

  /** The user of `conversation` asks for a person; resolves with the handoff e-mail's text. */
  const handOver = async (
    process: InboxProcess,
    bot: string,
    conversation: string,
    who: { user: { id: string; name: string } },
  ) => {
    const before = stack.smtp.mails.length;
    await process.platform.userSends(bot, conversation, '/human', who);
    await eventually(() => expect(process.platform.textsIn(conversation)).toContain(HANDOFF_REPLY));
    const mail = await eventually(() => {
      const found = stack.smtp.mails.slice(before).find((candidate) => candidate.subject?.includes(who.user.name));
      expect(found).toBeDefined();
      return found!;
    });
    expect(mail.envelopeTo).toContain(OPERATOR_EMAIL);
    return mail;
  };

  it('is in the e-mail beside the hand-back link; opening it shows the conversation and a button, and changes nothing', async () => {
    const process = await start();
    const mail = await handOver(process, 'main', 'c1', ana);
    const link = inboxLinkIn(mail.text ?? '');
    expect(mail.text).toContain('Hand the conversation back to the bot: ');
    expect(mail.html).toContain('>Open this conversation in the inbox</a>');
    expect(pathOf(link)).toMatch(/^\/inbox\/link\?token=/);

    const pauseBefore = await process.handoff.controller.pauses.read(process.platform.conversation('main', 'c1'));
    const browser = process.browser();
    const page = await browser.get(pathOf(link));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Ana Lima (@analima) on Fakechat');
    expect(page.html).toMatch(/<label for="name">Your name<\/label>\s*<input type="text" id="name" name="name"/);
    expect(page.html).toContain('<button type="submit">Open conversation</button>');
    // A scanner that follows the link (twice, even) is not signed in, and the pause is as it was.
    await browser.get(pathOf(link));
    expect(browser.setCookies).toEqual([]);
    expect(await process.handoff.controller.pauses.read(process.platform.conversation('main', 'c1'))).toEqual(
      pauseBefore,
    );
  });

  it("signs in with the button for that chatbot only: its conversations open, another chatbot's do not", async () => {
    const process = await start();
    const mail = await handOver(process, 'main', 'c1', ana);
    await handOver(process, OTHER_BOT, 'd1', dora);
    const browser = process.browser();
    const token = new URL(inboxLinkIn(mail.text ?? '')).searchParams.get('token')!;
    const opened = await browser.post('/inbox/link', { token, name: 'Carla' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(conversationPage('main', 'c1'));
    expect(browser.session).toBeDefined();

    const conversation = await browser.get(conversationPage('main', 'c1'));
    expect(conversation.status).toBe(200);
    expect(conversation.html).toContain('Signed in as <strong>Carla</strong> (chatbot main)');
    expect(conversation.html).toMatch(
      /<article class="entry user">\s*<p class="meta"><span class="speaker">Ana Lima \(@analima\)<\/span>[^\n]*<\/p>\s*<p class="text">\/human<\/p>/,
    );
    const list = await browser.get('/inbox');
    expect(list.html).toContain('Ana Lima (@analima) on Fakechat');
    expect(list.html).not.toContain('Dora Other');
    expect(list.html).toContain('1 conversation is waiting.');
    const other = await browser.get(conversationPage(OTHER_BOT, 'd1'));
    expect(other.status).toBe(404);
    expect(other.html).not.toContain('Dora Other');
    // Nor can it act there.
    const csrf = /name="_csrf" value="([^"]+)"/.exec(conversation.html)![1]!;
    expect((await browser.post(`${conversationPage(OTHER_BOT, 'd1')}/hand-back`, { _csrf: csrf })).status).toBe(404);
    expect(await process.handoff.controller.activePause(process.platform.conversation(OTHER_BOT, 'd1'))).not.toBeNull();

    // Signed in with the admin token, the same reader sees every chatbot.
    await browser.signIn('Carla');
    expect((await browser.get('/inbox')).html).toContain('Dora Other');
  });

  it('refuses an expired link, a changed one, a hand-back link, and a cross-site POST; an inbox token hands nothing back', async () => {
    const process = await start();
    const mail = await handOver(process, 'main', 'c1', ana);
    const token = new URL(inboxLinkIn(mail.text ?? '')).searchParams.get('token')!;
    const secret = await resolveLinkSecret(undefined, process.state);
    const conversation = process.platform.conversation('main', 'c1');
    const expired = new InboxLinks(secret, process.url).sign({ conversation, expiresAt: Date.now() - 1 });
    const browser = process.browser();

    expect((await browser.get(`/inbox/link?token=${encodeURIComponent(expired)}`)).status).toBe(410);
    const expiredPost = await browser.post('/inbox/link', { token: expired, name: 'Carla' });
    expect(expiredPost.status).toBe(410);
    expect(expiredPost.html).toContain('This link has expired');

    // One character of the signature changed (never to itself: the link must differ).
    const changed = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.slice(-1)}`;
    expect((await browser.post('/inbox/link', { token: changed, name: 'Carla' })).status).toBe(400);
    const resumeToken = new URL(resumeLinkIn(mail.text ?? '')).searchParams.get('token')!;
    expect((await browser.post('/inbox/link', { token: resumeToken, name: 'Carla' })).status).toBe(400);
    expect((await browser.get('/inbox/link')).status).toBe(400);

    const crossSite = await browser.post('/inbox/link', { token, name: 'Carla' }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(browser.session).toBeUndefined();

    expect((await postResume(process.url, token)).status).toBe(400);
    expect(await process.handoff.controller.activePause(conversation)).not.toBeNull();
  });

  it('is not in the e-mail when the inbox is off (no ADMIN_TOKEN)', async () => {
    const process = await start({ adminToken: null });
    const mail = await handOver(process, 'main', 'c1', ana);
    expect(mail.text).toContain('Hand the conversation back to the bot: ');
    expect(mail.text).not.toContain('inbox');
  });
});
