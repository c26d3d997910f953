/**
 * A platform whose id is written with a dash (as in conversation ids and routes) keeps its
 * section in camel case, like every other key of the configuration (`sectionKey`).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, configSecrets, loadConfig } from '../../../src/config/index.js';
import type { PlatformModule } from '../../../src/contract.js';
import { configuredPlatforms, PLATFORMS } from '../../../src/runtime/platforms.js';

const carrierPigeon: PlatformModule<{ token: string }> = {
  name: 'carrier-pigeon',
  sectionKey: 'carrierPigeon',
  configSection: z.object({ token: z.string().startsWith('cp-', 'a token starting with cp-') }).strict(),
  env: [{ env: 'CARRIER_PIGEON_TOKEN', key: 'token', type: 'string' }],
  isConfigured: () => true,
  create: () => undefined,
  secrets: (section) => ({ values: [section.token] }),
};
/** Beside this build's platforms: the shipped default.yaml names the console's setting. */
const platforms: PlatformModule[] = [...PLATFORMS, carrierPigeon as PlatformModule];

describe('a platform section under its own key', () => {
  it('is read from bots[].<sectionKey>, set by its variable, run for the bot and its secret known', () => {
    const config = loadConfig({ platforms, env: { CARRIER_PIGEON_TOKEN: 'cp-0123456789' } });
    expect(config.bots[0]).toMatchObject({ carrierPigeon: { token: 'cp-0123456789' } });
    expect(
      configuredPlatforms(config.bots[0]!, platforms).map(({ platform, section }) => [platform.name, section]),
    ).toEqual([['carrier-pigeon', { token: 'cp-0123456789' }]]);
    expect(configSecrets(config, platforms)).toContain('cp-0123456789');
  });

  it('names the variable and the section key in an error', () => {
    let error: unknown;
    try {
      loadConfig({ platforms, env: { CARRIER_PIGEON_TOKEN: 'wrong' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(
      'CARRIER_PIGEON_TOKEN (bots.0.carrierPigeon.token): a token starting with cp-',
    );
  });
});
