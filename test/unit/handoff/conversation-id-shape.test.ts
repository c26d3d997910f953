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

  it("come from the platform modules given: without Telegram's module, a Telegram id is not checked", () => {
    expect(conversationIdProblem({ bot: 'main', platform: 'telegram', id: 'not-a-chat' }, [])).toBeNull();
  });

  it('take any id on platforms without a fixed shape, whatever their name', () => {
    expect(conversationIdProblem({ bot: 'main', platform: 'slack', id: 'C123:1712.5' }, PLATFORMS)).toBeNull();
    expect(conversationIdProblem({ bot: 'main', platform: 'constructor', id: 'x' }, PLATFORMS)).toBeNull();
  });
});
