import type { PlatformModule } from '../contract.js';
import { urlPassword } from '../logger.js';
import { doorSectionOf, sectionKeyOf, type Config } from './schema.js';

/**
 * Every secret the configuration holds: tokens, keys, passwords in URLs, webhook and handoff
 * secrets. The platforms' own come from their modules (PlatformModule.secrets).
 */
export function configSecrets(config: Config, platforms: readonly PlatformModule[]): string[] {
  const secrets: (string | undefined)[] = [
    config.upstream.secretKey,
    config.upstream.sessionKey,
    config.service.secretKey,
    config.service.sessionKey,
    config.service.engine.kind === 'openai' ? config.service.engine.apiKey : undefined,
    config.admin.token,
    config.handoff.secret,
    config.redis.password,
    ...urlPassword(config.redisUrl),
    ...urlPassword(config.smtp.url),
    ...urlPassword(config.upstream.baseUrl),
  ];
  for (const bot of config.bots) {
    for (const platform of platforms) {
      if (platform.kind === 'local') continue;
      const section = bot[sectionKeyOf(platform)];
      const door = doorSectionOf(bot, platform);
      const found = [
        section !== undefined ? platform.secrets?.(section) : undefined,
        door !== undefined ? platform.operatorDoor?.secrets?.(door) : undefined,
      ];
      for (const { values = [], urls = [] } of found.filter((each) => each !== undefined))
        secrets.push(...values, ...urls.flatMap(urlPassword));
    }
  }
  return secrets.filter((secret): secret is string => Boolean(secret));
}
