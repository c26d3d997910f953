/**
 * The inbox's small pieces on their own: the inbox link's signature (a key of its own: no
 * hand-back token opens the inbox, and no inbox token hands back), the e-mail's link, names and
 * durations as the pages say them, operators as the pages name them.
 */
import { describe, expect, it } from 'vitest';
import { operatorName } from '../../../../src/handoff/pause/index.js';
import { InboxLinks } from '../../../../src/handoff/inbox/index.js';
import { duration } from '../../../../src/handoff/inbox/pages/format.js';
import { eventText, operatorLabel } from '../../../../src/handoff/inbox/pages/transcript.js';
import { ResumeLinks } from '../../../../src/handoff/index.js';

const SECRET = 'inbox-unit-secret-0123456789';
const conversation = { bot: 'main', platform: 'telegram', id: '42' };

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

  it("names an account's operator by the account's name as it is now, a door's person without one as such", () => {
    const accounts = new Map([['op_aaaaaaaaaaaa', 'Samuel Reis']]);
    expect(operatorLabel({ name: 'Sam', account: 'op_aaaaaaaaaaaa', via: 'slack' }, accounts)).toBe('Samuel Reis');
    // An account removed since: the name it had then.
    expect(operatorLabel({ name: 'Sam', account: 'op_bbbbbbbbbbbb' }, accounts)).toBe('Sam');
    expect(operatorLabel({ name: 'Dana', via: 'slack' }, accounts)).toBe('Dana (Slack, no operator account)');
    expect(operatorLabel({ name: 'Bruno' }, accounts)).toBe('Bruno');
  });

  it("renames only the operator where the gateway put them in a handoff moment's text", () => {
    const accounts = new Map([['op_aaaaaaaaaaaa', 'Samuel Reis']]);
    const moment = (text: string, operator: string) =>
      eventText({ at: 0, role: 'system', text, operator, account: 'op_aaaaaaaaaaaa' }, accounts);
    expect(moment('Han took the conversation over from Han.', 'Han')).toBe(
      'Samuel Reis took the conversation over from Han.',
    );
    expect(moment('Handed back to the assistant by Han.', 'Han')).toBe('Handed back to the assistant by Samuel Reis.');
    expect(
      eventText(
        { at: 0, role: 'system', text: 'Handed back to the assistant by Dana.', operator: 'Dana', via: 'telegram' },
        accounts,
      ),
    ).toBe('Handed back to the assistant by Dana (Telegram, no operator account).');
    expect(
      eventText({ at: 0, role: 'system', text: 'Bruno claimed the conversation.', operator: 'Bruno' }, accounts),
    ).toBe('Bruno claimed the conversation.');
  });
});
