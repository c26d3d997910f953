import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';

describe('Telegram settings from the environment', () => {
  it("takes TELEGRAM_MESSAGES_PER_SECOND as the bot-wide pace (for a Bot API without Telegram's 30 messages/s)", () => {
    const config = loadConfig({
      platforms: PLATFORMS,
      env: { TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_MESSAGES_PER_SECOND: '200' },
    });
    expect(config.bots[0]!.telegram).toMatchObject({ token: '123:abc', messagesPerSecond: 200 });
  });

  it('refuses a pace that is not a positive whole number, naming the variable', () => {
    for (const value of ['0', 'fast', '2.5']) {
      expect(() =>
        loadConfig({
          platforms: PLATFORMS,
          env: { TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_MESSAGES_PER_SECOND: value },
        }),
      ).toThrow(/TELEGRAM_MESSAGES_PER_SECOND/);
    }
  });
});
