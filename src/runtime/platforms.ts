/**
 * The composition root's binding of the platform list (adapters/index.ts) to the core,
 * which takes it as a parameter and never imports adapters/ itself.
 */
import { PLATFORM_MODULES } from '../../adapters/index.js';
import {
  configSecrets,
  loadConfig,
  sectionKeyOf,
  type BotConfig,
  type Config,
  type LoadConfigOptions,
} from '../config/index.js';
import type { BotPlatformModule, PlatformModule } from '../contract.js';

/** The platforms of this build. */
export const PLATFORMS: readonly PlatformModule[] = PLATFORM_MODULES;

/** loadConfig with this build's platforms (or the ones given). */
export function loadGatewayConfig(options: Partial<LoadConfigOptions> = {}): Config {
  return loadConfig({ platforms: PLATFORMS, ...options });
}

/** Every secret of the configuration, the platforms' included, to redact from the log. */
export function gatewayConfigSecrets(config: Config, platforms: readonly PlatformModule[] = PLATFORMS): string[] {
  return configSecrets(config, platforms);
}

/** The platforms a bot runs, each with its parsed section (a local platform has none: see local-platforms.ts). */
export function configuredPlatforms(
  bot: BotConfig,
  platforms: readonly PlatformModule[],
): { platform: BotPlatformModule; section: unknown }[] {
  return platforms.flatMap((platform) => {
    if (platform.kind === 'local') return [];
    const section = bot[sectionKeyOf(platform)];
    return section !== undefined && platform.isConfigured(section) ? [{ platform, section }] : [];
  });
}

/** Whether any bot is configured for a platform of `bots[]` (the console's "auto" opens only when none is). */
export function anyPlatformConfigured(config: Config, platforms: readonly PlatformModule[] = PLATFORMS): boolean {
  return config.bots.some((bot) => configuredPlatforms(bot, platforms).length > 0);
}
