import { describe, expect, it } from 'vitest';
import { conversationIdProblem } from '../../../src/handoff/conversation-id.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';

describe('conversation id shapes checked by the admin API (issue #7 item 11)', () => {
  it('accept Telegram chat ids and forum topics', () => {
    for (const id of ['12345', '-1001234567890', '-1001234:7'])
      expect(conversationIdProblem({ bot: 'main', platform: 'telegram', id }, PLATFORMS)).toBeNull();
  });

  it('refuse a Telegram id that is not a chat id, saying what is expected', () => {
    expect(conversationIdProblem({ bot: 'main', platform: 'telegram', id: 'not-a-chat' }, PLATFORMS)).toBe(
      '"not-a-chat" is not a telegram conversation id; expected <chat id>, or <chat id>:<topic id> for a forum topic (e.g. 12345 or -1001234:7).',
    );
    expect(conversationIdProblem({ bot: 'main', platform: 'telegram', id: '12:ab' }, PLATFORMS)).not.toBeNull();
  });

  it('refuse ids past their platform’s bounds: a Telegram chat id of more than 19 digits, a long Slack id, any id past 256 characters', () => {
    const problem = (platform: string, id: string) => conversationIdProblem({ bot: 'main', platform, id }, PLATFORMS);
    expect(problem('telegram', '-1234567890123456789')).toBeNull();
    expect(problem('telegram', '12345678901234567890')).not.toBeNull();
    expect(problem('slack', `C${'A'.repeat(30)}`)).not.toBeNull();
    expect(problem('whatsapp', '4915112345678@c.us')).toBeNull();
    expect(problem('whatsapp', '4915112345678000@c.us')).not.toBeNull();
    expect(problem('constructor', 'x'.repeat(300))).toMatch(/at most 256 characters/);
  });

  it("come from the platform modules given: without Telegram's module, a Telegram id is not checked", () => {
    expect(conversationIdProblem({ bot: 'main', platform: 'telegram', id: 'not-a-chat' }, [])).toBeNull();
  });

  it('take any id on platforms without a fixed shape, whatever their name', () => {
    expect(conversationIdProblem({ bot: 'main', platform: 'slack', id: 'C123:1712.5' }, PLATFORMS)).toBeNull();
    expect(conversationIdProblem({ bot: 'main', platform: 'constructor', id: 'x' }, PLATFORMS)).toBeNull();
  });
});
