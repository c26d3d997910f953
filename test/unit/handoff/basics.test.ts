import { describe, expect, it } from 'vitest';
import {
  composeHandoffMail,
  formatConversationId,
  parseConversationId,
  retryDelayMs,
} from '../../../src/handoff/index.js';

describe('conversation ids', () => {
  it('split at the first two colons only', () => {
    expect(parseConversationId('main:slack:C123:1712.5')).toEqual({
      bot: 'main',
      platform: 'slack',
      id: 'C123:1712.5',
    });
    expect(formatConversationId({ bot: 'main', platform: 'slack', id: 'C123:1712.5' })).toBe('main:slack:C123:1712.5');
  });

  it('refuse anything without three parts', () => {
    for (const bad of ['', 'main', 'main:telegram', 'main:telegram:', ':telegram:1', 'main::1'])
      expect(parseConversationId(bad)).toBeNull();
  });
});

describe('outbox retry delays', () => {
  it('double from the base and stop at the cap', () => {
    const policy = { retryBaseMs: 1_000, retryCapMs: 10_000 };
    expect([1, 2, 3, 4, 5, 50].map((failures) => retryDelayMs(failures, policy))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
  });
});

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
    expect(mail.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(mail.html).toContain('Homes &#38; &#60;Co&#62;');
    expect(mail.html).toContain('href="http://127.0.0.1:8080/handoff/resume?token=abc.def&#38;x=1"');
  });
});
