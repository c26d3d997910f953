/** The e-mails as composed: plain text as written, HTML escaped, the inbox link when the inbox is on. */
import { describe, expect, it } from 'vitest';
import { composeFollowUpMail, composeHandoffMail } from '../../../../src/handoff/mail/index.js';

describe('the handoff e-mail', () => {
  const mail = composeHandoffMail({
    botId: 'main',
    chatbotName: 'Homes & <Co>',
    platform: 'telegram',
    conversationId: 'main:telegram:42',
    user: { id: '42', name: '<script>alert(1)</script>' },
    reason: 'the user sent the /human command',
    since: Date.UTC(2026, 0, 2, 3, 4, 5),
    pausedUntil: Date.UTC(2026, 0, 3, 3, 4, 5),
    transcript: [
      {
        at: Date.UTC(2026, 0, 2, 3, 4, 0),
        role: 'user',
        text: 'a "quote" & <tag>',
        attachments: ['voice (audio/ogg)'],
      },
    ],
    resumeUrl: 'http://127.0.0.1:8080/handoff/resume?token=abc.def&x=1',
    linkExpiresAt: Date.UTC(2026, 0, 5),
  });

  it('keeps user text literal in the plain text', () => {
    expect(mail.text).toContain('User: <script>alert(1)</script> [id 42]');
    expect(mail.text).toContain('[2026-01-02T03:04:00Z] User: a "quote" & <tag>\n    [attachment: voice (audio/ogg)]');
    expect(mail.text).toContain(
      'Hand the conversation back to the bot: http://127.0.0.1:8080/handoff/resume?token=abc.def&x=1',
    );
  });

  it('escapes every user-controlled string in the HTML', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<tag>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('Homes &amp; &lt;Co&gt;');
    expect(mail.html).toContain('href="http://127.0.0.1:8080/handoff/resume?token=abc.def&amp;x=1"');
  });
});

describe('the handoff e-mail, with the inbox on or off', () => {
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
    expect(mail.html).toContain('<a href="https://b/inbox/link?token=a&amp;b">Open this conversation in the inbox</a>');
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
