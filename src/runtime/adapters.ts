import type { Config } from '../config/index.js';
import type { Adapter, PlatformMetrics, PlatformModule } from '../contract.js';
import type { Logger } from '../logger.js';
import type { StateStore } from '../state/index.js';
import { LateGatewayHost, localPlatformsOpening } from './local-platforms.js';
import { platformStorage } from './platform-storage.js';
import { configuredPlatforms } from './platforms.js';

export interface BuiltAdapters {
  adapters: Adapter[];
  /** Whether a local platform (the console) is open: the gateway is then a local demo (see runtime.ts). */
  localOpen: boolean;
  /** The local platforms' view of the gateway: the runtime binds it once the gateway and the handoff exist. */
  host: LateGatewayHost;
}

export interface LocalPlatformOptions {
  /** Called when a local platform is closed (Ctrl-D, :quit, end of piped input) once its messages are answered. */
  onLocalClosed?: () => void;
  /** Where the log goes while a local platform is open (named there). */
  localLogFile?: string;
  /** Default: whether this process's stdin is a terminal. */
  stdinIsTTY?: boolean;
}

/**
 * One adapter per configured (bot, platform), from the platforms' own factories; then each
 * local platform that opens (localPlatformsOpening: the CLI decides where the log goes by the
 * same rule, before this runs), for the first bot.
 */
export function buildAdapters(
  config: Config,
  logger: Logger,
  options: {
    platforms: readonly PlatformModule[];
    state: StateStore;
    metrics?: (platform: string, bot: string) => PlatformMetrics;
  } & LocalPlatformOptions,
): BuiltAdapters {
  const adapters: Adapter[] = [];
  const storage = (platform: string, bot: string) =>
    platformStorage(options.state, platform, bot, { conversationIdleTtlMs: config.gateway.sessionIdleTtlMs });
  for (const bot of config.bots) {
    for (const { platform, section } of configuredPlatforms(bot, options.platforms)) {
      const adapter = platform.create(section, {
        bot: bot.id,
        logger: logger.child({ platform: platform.name, bot: bot.id }),
        storage: storage(platform.name, bot.id),
        ...(options.metrics ? { metrics: options.metrics(platform.name, bot.id) } : {}),
      });
      if (adapter) adapters.push(adapter);
    }
  }
  const host = new LateGatewayHost();
  const { open } = localPlatformsOpening(config, options.platforms, options.stdinIsTTY);
  const bot = config.bots[0]!.id;
  for (const { platform, setting } of open) {
    adapters.push(
      platform.create(setting, {
        bot,
        logger: logger.child({ platform: platform.name, bot }),
        storage: storage(platform.name, bot),
        host,
        closed: () => options.onLocalClosed?.(),
        ...(options.localLogFile ? { logFile: options.localLogFile } : {}),
      }),
    );
  }
  return { adapters, localOpen: open.length > 0, host };
}
