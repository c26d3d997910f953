import { describe, expect, it } from 'vitest';
import { composeFollowUpMail, isPermanentSmtpFailure, smtpResponseCode } from '../../../../src/handoff/index.js';

describe('SMTP failure classes', () => {
  const withCode = (responseCode: unknown) => Object.assign(new Error('refused'), { responseCode });

  it('treats 5xx replies as permanent', () => {
    expect([550, 553, 554, 500, 599].map((code) => isPermanentSmtpFailure(withCode(code)))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it('treats 4xx replies, connection errors and odd values as transient', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' });
    for (const error of [withCode(421), withCode(451), withCode('550'), refused, 'boom', null])
      expect(isPermanentSmtpFailure(error)).toBe(false);
    expect(smtpResponseCode(withCode(451))).toBe(451);
    expect(smtpResponseCode(refused)).toBeUndefined();
  });
});

describe('the follow-up e-mail', () => {
  const mail = composeFollowUpMail({
    chatbotName: 'Homes & <Co>',
    platform: 'telegram',
    conversationId: 'main:telegram:42',
    user: { id: '42', name: '<img src=x>' },
    since: Date.UTC(2026, 0, 2, 3, 4, 5),
    entries: [
      { at: Date.UTC(2026, 0, 2, 3, 10, 0), role: 'user', text: 'still <there>?', user: { id: '42', name: 'Ana' } },
    ],
    resumeUrl: 'http://127.0.0.1:8080/handoff/resume?token=abc.def&x=1',
    linkExpiresAt: Date.UTC(2026, 0, 5),
  });

  it('names the user, the conversation and the new messages in plain text', () => {
    expect(mail.subject).toBe('Handoff: <img src=x> on telegram wrote again (Homes & <Co>)');
    expect(mail.text).toContain('wrote again in main:telegram:42, waiting for a person since 2026-01-02T03:04:05Z');
    expect(mail.text).toContain('[2026-01-02T03:10:00Z] User (Ana): still <there>?');
    expect(mail.text).toContain(
      'Hand the conversation back to the bot: http://127.0.0.1:8080/handoff/resume?token=abc.def&x=1',
    );
  });

  it('escapes everything in the HTML', () => {
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<there>');
    expect(mail.html).toContain('still &lt;there&gt;?');
    expect(mail.html).toContain('href="http://127.0.0.1:8080/handoff/resume?token=abc.def&amp;x=1"');
  });
});
