import { createConsoleAdapter, type ConsoleAdapter, type ConsoleHost } from '../../adapters/index.js';
import type { Config } from '../config/index.js';
import type { Adapter, PlatformModule } from '../contract.js';
import { gatewayKeys } from '../gateway/index.js';
import type { HandoffController } from '../handoff/index.js';
import type { Logger } from '../logger.js';
import type { StateStore } from '../state/index.js';
import { platformStorage } from './platform-storage.js';
import { anyPlatformConfigured, configuredPlatforms } from './platforms.js';

export interface BuiltAdapters {
  adapters: Adapter[];
  consoleOpen: boolean;
  /** The console, when open: the runtime attaches its host once the gateway and the handoff exist. */
  console?: ConsoleAdapter;
}

export interface ConsoleOptions {
  /** Called when the console is closed (Ctrl-D, :quit, end of piped input) once its messages are answered. */
  onConsoleClose?: () => void;
  /** Where the log goes while the console is open (named in its greeting). */
  consoleLogFile?: string;
}

/**
 * Whether `chatbridge start` opens the console: when asked (CHATBRIDGE_CONSOLE=on), or on
 * "auto" when no platform is configured and stdin is a terminal.
 */
export function consoleWanted(config: Config, platforms: readonly PlatformModule[], stdinIsTTY = Boolean(process.stdin.isTTY)): boolean {
  return config.console === 'on' || (config.console === 'auto' && stdinIsTTY && !anyPlatformConfigured(config, platforms));
}

/**
 * One adapter per configured (bot, platform), from the platforms' own factories; the console
 * when consoleWanted (the CLI decides where the log goes by the same rule, before this runs).
 */
export function buildAdapters(
  config: Config,
  logger: Logger,
  options: { platforms: readonly PlatformModule[]; state: StateStore } & ConsoleOptions,
): BuiltAdapters {
  const adapters: Adapter[] = [];
  for (const bot of config.bots) {
    for (const { platform, section } of configuredPlatforms(bot, options.platforms)) {
      const adapter = platform.create(section, {
        bot: bot.id,
        logger: logger.child({ platform: platform.name, bot: bot.id }),
        storage: platformStorage(options.state, platform.name, bot.id, { conversationIdleTtlMs: config.gateway.sessionIdleTtlMs }),
      });
      if (adapter) adapters.push(adapter);
    }
  }
  if (!consoleWanted(config, options.platforms)) return { adapters, consoleOpen: false };
  const console = createConsoleAdapter({
    bot: config.bots[0]!.id,
    ...(options.onConsoleClose ? { onClose: options.onConsoleClose } : {}),
    ...(options.consoleLogFile ? { logFile: options.consoleLogFile } : {}),
  });
  adapters.push(console);
  return { adapters, consoleOpen: true, console };
}

/**
 * The console's view of the gateway: whether its queue is empty, and the handoff, whose
 * operator at a terminal is the user (`:resume`).
 */
export function consoleHost(state: StateStore, handoff: HandoffController): ConsoleHost {
  return {
    answered: async (conversation) => (await state.listLength(gatewayKeys.queue(conversation))) === 0,
    withPerson: async (conversation) => (await handoff.activePause(conversation)) !== null,
    resume: async (conversation) => (await handoff.resume(conversation, { by: 'console' })) === 'resumed',
  };
}
