/**
 * "A local platform is a module like the others": a throw-away local platform, "kiosk",
 * defined entirely here as a PlatformModule of kind "local" (its top-level setting and its
 * variable, the rule by which it opens, an in-memory adapter), is added to this build's list
 * the way adapters/index.ts adds the console. With no section in `bots[]` it opens for the
 * first bot, its messages are answered through the gateway and the embedded service, and it
 * learns what it needs of the gateway from the host the runtime gives it (whether its
 * conversation is answered, whether a person has it, the hand-back), not from the state.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryAdapter, MemoryPlatform } from '../../fakes/memory/index.js';
import { ConfigError, loadConfig, type Config } from '../../src/config/index.js';
import type { LocalPlatformContext, PlatformModule } from '../../src/contract.js';
import { silentLogger } from '../../src/logger.js';
import { localPlatformsOpening } from '../../src/runtime/local-platforms.js';
import { PLATFORMS } from '../../src/runtime/platforms.js';
import { startRuntime, type Runtime } from '../../src/runtime/runtime.js';
import { RedisStateStore } from '../../src/state/index.js';
import { testRedisUrl } from '../support/redis.js';

// ---- The local platform: everything its folder would hold.

/** The kiosk in the lobby: where visitors type, and where the answers show. */
const kioskScreen = new MemoryPlatform({ name: 'kiosk' });
/** What the runtime gave the kiosk when it opened it. */
let opened: LocalPlatformContext | undefined;

const kioskModule: PlatformModule<'on' | 'off'> = {
  kind: 'local',
  name: 'kiosk',
  setting: z.enum(['on', 'off']).default('off'),
  env: { env: 'KIOSK', type: 'string' },
  opens: (setting) =>
    setting === 'on' ? { open: true } : { open: false, notice: 'the kiosk stays dark (KIOSK=on lights it)' },
  create(_setting, context) {
    opened = context;
    return createMemoryAdapter({ platform: kioskScreen, bot: context.bot });
  },
};

/** This build's list with one line added. */
const platforms: readonly PlatformModule[] = [...PLATFORMS, kioskModule];

// ---- The test.

function configFile(yaml: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cb-kiosk-')), 'chatbridge.yaml');
  writeFileSync(path, yaml);
  return path;
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('a local platform added as a module, with no section in bots[]', () => {
  const prefix = `cbtest:kiosk:${randomUUID().slice(0, 8)}:`;
  const file = configFile(
    `keyPrefix: "${prefix}"\nconsole: off\nport: 0\nhost: 127.0.0.1\nbots:\n  - id: lobby\n  - id: back-office\n`,
  );
  const closed = vi.fn();
  const desk = kioskScreen.conversation('lobby', 'desk-1');
  let config: Config;
  let runtime: Runtime | undefined;

  beforeAll(async () => {
    config = loadConfig({ platforms, file, env: { KIOSK: 'on', REDIS_URL: testRedisUrl() } });
    runtime = await startRuntime(config, silentLogger(), { platforms, onLocalClosed: closed });
  }, 60_000);

  afterAll(async () => {
    await runtime?.stop();
    const state = new RedisStateStore({ url: testRedisUrl(), prefix });
    await state.deleteByPrefix();
    await state.close();
  });

  it('is set by the variable its module declares, stays dark without it (saying why), and has no section in bots[]', () => {
    expect(config.localPlatforms).toEqual({ console: 'off', kiosk: 'on' });
    const dark = loadConfig({ platforms, file, env: {} });
    expect(localPlatformsOpening(dark, platforms, true)).toEqual({
      open: [],
      notices: ['the kiosk stays dark (KIOSK=on lights it)'],
    });
    expect(configError(() => loadConfig({ platforms, file, env: { KIOSK: 'dim' } })).problems[0]).toMatch(
      /^KIOSK \(kiosk\): /,
    );
    const withSection = configFile('bots:\n  - id: main\n    kiosk: on\n');
    expect(configError(() => loadConfig({ platforms, env: {}, file: withSection })).message).toMatch(
      /bots\.0: Unrecognized key: "kiosk"/,
    );
  });

  it("opens for the first bot, and a visitor's question is answered through the gateway and the embedded service", async () => {
    expect(opened?.bot).toBe('lobby');
    await kioskScreen.userSends('lobby', 'desk-1', 'Do you have homes for sale in Austin?');
    await vi.waitFor(() => expect(kioskScreen.textsIn('desk-1').join('\n')).toContain('MLS TX-10452'), {
      timeout: 30_000,
      interval: 100,
    });
  }, 60_000);

  it('is told by its host whether its conversation is answered: not while the answer cannot reach the screen, yes once it has', async () => {
    const host = opened!.host;
    // The screen is off: the answer waits, queued, until it can be shown.
    kioskScreen.reachable = false;
    await kioskScreen.userSends('lobby', 'desk-1', 'Any rentals in Denver?');
    expect(await host.answered(desk)).toBe(false);
    kioskScreen.reachable = true;
    await vi.waitFor(() => expect(kioskScreen.textsIn('desk-1').join('\n')).toContain('MLS CO-61240'), {
      timeout: 30_000,
      interval: 100,
    });
    await vi.waitFor(async () => expect(await host.answered(desk)).toBe(true), { timeout: 10_000, interval: 50 });
  }, 60_000);

  it('learns from its host that a person has the conversation, and hands it back to the bot as its operator', async () => {
    const host = opened!.host;
    await kioskScreen.userSends('lobby', 'desk-1', '/human');
    await vi.waitFor(async () => expect(await host.withPerson(desk)).toBe(true), { timeout: 30_000, interval: 50 });
    expect(await host.resume(desk)).toBe(true);
    await vi.waitFor(
      () =>
        expect(kioskScreen.textsIn('desk-1').at(-1)).toBe('You are talking to the assistant again. Ask me anything!'),
      { timeout: 30_000, interval: 50 },
    );
    expect(await host.withPerson(desk)).toBe(false);
    // Back with the bot already: nothing to hand back.
    expect(await host.resume(desk)).toBe(false);
  }, 60_000);

  it('tells the runtime when the person closes it (the CLI then stops the gateway)', () => {
    expect(closed).not.toHaveBeenCalled();
    opened!.closed();
    expect(closed).toHaveBeenCalledOnce();
  });
});
