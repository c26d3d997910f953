import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../src/config/index.js';
import { PLATFORMS } from '../../../../src/runtime/platforms.js';

describe('Telegram operator door: configuration from the environment', () => {
  it('reads HANDOFF_TELEGRAM_CHAT, HANDOFF_TELEGRAM_BOT_TOKEN and HANDOFF_TELEGRAM_API_ROOT into bots[0].handoff.telegram', () => {
    const config = loadConfig({
      platforms: PLATFORMS,
      env: {
        HANDOFF_TELEGRAM_CHAT: '-1001234567890',
        HANDOFF_TELEGRAM_BOT_TOKEN: '42:operators',
        HANDOFF_TELEGRAM_API_ROOT: 'http://127.0.0.1:8081',
      },
    });
    const handoff = config.bots[0]!.handoff as Record<string, unknown> | undefined;
    expect(handoff?.telegram).toEqual({
      chat: -1001234567890,
      token: '42:operators',
      apiRoot: 'http://127.0.0.1:8081',
    });
  });

  it('names HANDOFF_TELEGRAM_CHAT when its value is neither a group id nor an @username', () => {
    let error: unknown;
    try {
      loadConfig({ platforms: PLATFORMS, env: { HANDOFF_TELEGRAM_CHAT: 'support team' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/HANDOFF_TELEGRAM_CHAT/);
  });
});
