/**
 * The operator doors of each bot (`bots[].handoff.<platform>`), from the platforms' own factories:
 * a door without credentials of its own shares the bot's adapter on that platform. Its routes are
 * mounted with the adapters'; the handoff starts it.
 */
import { doorSectionOf, sectionKeyOf, type Config } from '../config/index.js';
import type { Adapter, OperatorDoor, PlatformModule } from '../contract.js';
import type { Logger } from '../logger.js';
import type { StateStore } from '../state/index.js';
import { platformStorage } from './platform-storage.js';

export function buildDoors(
  config: Config,
  logger: Logger,
  options: { platforms: readonly PlatformModule[]; adapters: readonly Adapter[]; state: StateStore },
): Map<string, OperatorDoor[]> {
  const doors = new Map<string, OperatorDoor[]>();
  for (const bot of config.bots) {
    for (const platform of options.platforms) {
      if (platform.kind === 'local' || !platform.operatorDoor) continue;
      const section = doorSectionOf(bot, platform);
      if (section === undefined) continue;
      const own = bot[sectionKeyOf(platform)];
      const adapter = options.adapters.find((each) => each.bot === bot.id && each.platform === platform.name);
      const door = platform.operatorDoor.create(section, {
        bot: bot.id,
        logger: logger.child({ door: platform.name, bot: bot.id }),
        storage: platformStorage(options.state, `${platform.name}-operators`, bot.id, {
          conversationIdleTtlMs: config.gateway.sessionIdleTtlMs,
        }),
        ...(own !== undefined ? { own: { section: own, ...(adapter ? { adapter } : {}) } } : {}),
      });
      if (door) doors.set(bot.id, [...(doors.get(bot.id) ?? []), door]);
    }
  }
  return doors;
}
