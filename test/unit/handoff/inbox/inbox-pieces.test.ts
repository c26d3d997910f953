/**
 * The inbox's small pieces on their own: the escaping template every page is built with, the
 * inbox link's signature (a key of its own: no hand-back token opens the inbox, and no inbox
 * token hands back), the e-mail's link, names and durations as the pages say them.
 */
import { describe, expect, it } from 'vitest';
import { operatorName } from '../../../src/handoff/desk.js';
import { InboxLinks } from '../../../src/handoff/inbox/links.js';
import { duration } from '../../../src/handoff/inbox/pages/format.js';
import { html } from '../../../src/handoff/inbox/pages/html.js';
import { composeFollowUpMail, composeHandoffMail, ResumeLinks } from '../../../src/handoff/index.js';

const SECRET = 'inbox-unit-secret-0123456789';
const conversation = { bot: 'main', platform: 'telegram', id: '42' };

describe('the page template', () => {
  it('escapes every value, lists included, and keeps markup made by the template as it is', () => {
    const name = '<script>alert("x")</script>';
    const inner = html`<em>${name}</em>`;
    const page = html`<p title="${name}">${name} ${3} ${[name, inner]} ${null}${undefined}${false}</p>${inner}`;
    expect(page.markup).toBe(
      '<p title="&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;">&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; 3 ' +
        '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;<em>&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;</em> </p>' +
        '<em>&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;</em>',
    );
    expect(html`${"it's & that"}`.markup).toBe('it&#39;s &#38; that');
  });
});

describe('the inbox link', () => {
  const links = new InboxLinks(SECRET, 'https://bots.example.com/');
  const later = Date.now() + 60_000;

  it('names the conversation and its chatbot, and expires', () => {
    const url = links.url({ conversation, expiresAt: later });
    expect(url).toMatch(/^https:\/\/bots\.example\.com\/inbox\/link\?token=/);
    const token = new URL(url).searchParams.get('token')!;
    expect(links.verify(token)).toEqual({ ok: true, conversation, expiresAt: later });
    expect(links.verify(token, later)).toEqual({ ok: false, reason: 'expired' });
  });

  it('is no hand-back token, and no hand-back token is an inbox token, under the same secret', () => {
    const resume = new ResumeLinks(SECRET, 'https://bots.example.com');
    const resumeToken = resume.sign({ conversation, handoffId: 'h-1', expiresAt: later });
    const inboxToken = links.sign({ conversation, expiresAt: later });
    expect(links.verify(resumeToken)).toEqual({ ok: false, reason: 'invalid' });
    expect(resume.verify(inboxToken)).toEqual({ ok: false, reason: 'invalid' });
    expect(new InboxLinks('another-secret-0123456789', 'https://x').verify(inboxToken)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(links.verify(`${inboxToken}x`)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('the handoff e-mail', () => {
  const input = {
    botId: 'main',
    chatbotName: 'Oakridge',
    platform: 'telegram',
    conversationId: 'main:telegram:42',
    user: { id: '7', name: 'Ana' },
    reason: 'the user sent the /human command',
    since: 0,
    pausedUntil: 1,
    transcript: [],
    resumeUrl: 'https://b/handoff/resume?token=r',
    linkExpiresAt: 2,
  };

  it('gains the inbox link beside the hand-back link when the inbox is on', () => {
    const mail = composeHandoffMail({ ...input, inboxUrl: 'https://b/inbox/link?token=a&b', inboxLinkExpiresAt: 3 });
    expect(mail.text).toContain(
      'Open this conversation in the inbox: https://b/inbox/link?token=a&b\n(link valid until 1970-01-01T00:00:00.003Z)\nHand the conversation back',
    );
    expect(mail.html).toContain('<a href="https://b/inbox/link?token=a&#38;b">Open this conversation in the inbox</a>');
  });

  it('has none when the inbox is off', () => {
    const mail = composeHandoffMail(input);
    expect(mail.text).not.toContain('inbox');
    expect(mail.html).not.toContain('inbox');
  });
});

describe('the "user wrote again" e-mail', () => {
  const input = {
    chatbotName: 'Oakridge',
    platform: 'telegram',
    conversationId: 'main:telegram:42',
    user: { id: '7', name: 'Ana' },
    since: 0,
    entries: [{ at: 5, role: 'user' as const, text: 'Still there?' }],
    resumeUrl: 'https://b/handoff/resume?token=r',
    linkExpiresAt: 2,
  };

  it('carries the inbox link too when the inbox is on, so whoever reads only this one can answer', () => {
    const mail = composeFollowUpMail({ ...input, inboxUrl: 'https://b/inbox/link?token=f', inboxLinkExpiresAt: 3 });
    expect(mail.text).toContain(
      'Open this conversation in the inbox: https://b/inbox/link?token=f\n(link valid until 1970-01-01T00:00:00.003Z)',
    );
    expect(mail.html).toContain('<a href="https://b/inbox/link?token=f">Open this conversation in the inbox</a>');
  });

  it('has none when the inbox is off', () => {
    const mail = composeFollowUpMail(input);
    expect(mail.text).not.toContain('inbox');
    expect(mail.html).not.toContain('inbox');
  });
});

describe("an e-mail's inbox link", () => {
  it('expires the given hours from now', () => {
    const links = new InboxLinks('secret', 'https://b');
    const { inboxUrl, inboxLinkExpiresAt } = links.forMail({ bot: 'main', platform: 'telegram', id: '42' }, 168, 1_000);
    expect(inboxLinkExpiresAt).toBe(1_000 + 168 * 3_600_000);
    const token = new URL(inboxUrl).searchParams.get('token') ?? '';
    expect(links.verify(token, 1_000)).toMatchObject({ ok: true, expiresAt: inboxLinkExpiresAt });
  });
});

describe('what the pages say', () => {
  it('says how long someone waited in words', () => {
    expect(
      [30_000, 12 * 60_000, 3 * 3_600_000 + 5 * 60_000, 3_600_000, 26 * 3_600_000, 3 * 86_400_000].map(duration),
    ).toEqual(['under a minute', '12 min', '3 h 5 min', '1 h', '1 day 2 h', '3 days']);
  });

  it('takes an operator name folded to one line, and refuses none or a very long one', () => {
    expect(operatorName('  Bruno \n Reis ')).toEqual({ ok: true, name: 'Bruno Reis' });
    expect(operatorName('   ')).toMatchObject({ ok: false });
    expect(operatorName(undefined)).toMatchObject({ ok: false });
    expect(operatorName('x'.repeat(61))).toMatchObject({ ok: false, message: 'A name has at most 60 characters.' });
  });
});
