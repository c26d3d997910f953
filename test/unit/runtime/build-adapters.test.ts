import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildConfigSchema, loadConfig } from '../../../src/config/index.js';
import { buildAdapters } from '../../../src/runtime/adapters.js';
import { localPlatformsOpening } from '../../../src/runtime/local-platforms.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';
import { MemoryStateStore } from '../../../src/state/index.js';

/** A logger whose JSON lines are kept, to read what the runtime said. */
function recordingLogger() {
  const lines: { msg: string; platform?: string; bot?: string; level: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('the adapters the runtime builds from the platform modules', () => {
  it("builds Telegram's and an enabled WhatsApp's adapters, and says that Slack without a signing secret or app token stays offline", async () => {
    const config = buildConfigSchema(PLATFORMS).parse({
      console: 'off',
      bots: [
        { id: 'main', telegram: { token: '123:abc' }, slack: { botToken: 'xoxb-1' }, whatsapp: { enabled: true } },
        { id: 'quiet', whatsapp: { enabled: false } },
      ],
    });
    const { logger, lines } = recordingLogger();
    const built = buildAdapters(config, logger, { platforms: PLATFORMS, state: new MemoryStateStore() });
    expect(built.adapters.map((adapter) => `${adapter.platform}:${adapter.bot}`)).toEqual([
      'telegram:main',
      'whatsapp:main',
    ]);
    expect(built.localOpen).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.filter((line) => line.level === 40).map(({ msg, platform, bot }) => ({ msg, platform, bot }))).toEqual(
      [
        {
          platform: 'slack',
          bot: 'main',
          msg:
            'bots[].slack has a bot token but neither a signing secret (SLACK_SIGNING_SECRET, HTTP Events mode) ' +
            'nor an app token (SLACK_APP_TOKEN, Socket Mode); Slack stays offline for this bot.',
        },
      ],
    );
  });

  it('opens the console when asked, for the first bot, with no section of it in bots[]', () => {
    const config = buildConfigSchema(PLATFORMS).parse({ console: 'on', bots: [{ id: 'first' }, { id: 'second' }] });
    const built = buildAdapters(config, recordingLogger().logger, {
      platforms: PLATFORMS,
      state: new MemoryStateStore(),
      stdinIsTTY: false,
    });
    expect(built.adapters.map((adapter) => `${adapter.platform}:${adapter.bot}`)).toEqual(['console:first']);
    expect(built.localOpen).toBe(true);
  });

  it('on "auto", opens the console at a terminal only when no platform is configured, and says why it stays closed on a pipe', () => {
    const opened = (settings: object, stdinIsTTY: boolean) => {
      const config = buildConfigSchema(PLATFORMS).parse(settings);
      const built = buildAdapters(config, recordingLogger().logger, {
        platforms: PLATFORMS,
        state: new MemoryStateStore(),
        stdinIsTTY,
      });
      return {
        adapters: built.adapters.map((adapter) => adapter.platform),
        notices: localPlatformsOpening(config, PLATFORMS, stdinIsTTY).notices,
      };
    };
    expect(opened({}, true)).toEqual({ adapters: ['console'], notices: [] });
    expect(opened({ bots: [{ id: 'main', telegram: { token: '123:abc' } }] }, true)).toEqual({
      adapters: ['telegram'],
      notices: [],
    });
    expect(opened({ console: 'off' }, true)).toEqual({ adapters: [], notices: [] });
    expect(opened({}, false)).toEqual({
      adapters: [],
      notices: [
        'stdin is not a terminal, so the console stays closed and the gateway runs headless (no platform is configured). ' +
          'Set CHATBRIDGE_CONSOLE=on to chat through a pipe.',
      ],
    });
  });

  it("takes the console's setting from CHATBRIDGE_CONSOLE, the variable its module declares, and refuses a value it does not know", () => {
    expect(loadConfig({ platforms: PLATFORMS, env: { CHATBRIDGE_CONSOLE: 'off' } }).localPlatforms).toEqual({
      console: 'off',
    });
    expect(() => loadConfig({ platforms: PLATFORMS, env: { CHATBRIDGE_CONSOLE: 'maybe' } })).toThrow(
      /CHATBRIDGE_CONSOLE \(console\)/,
    );
  });
});
