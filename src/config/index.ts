export { buildConfigSchema, DOORS_KEY, doorSectionOf, sectionKeyOf, type BotConfig, type Config } from './schema.js';
export { ConfigError, DEFAULT_CONFIG_FILE, loadConfig, type LoadConfigOptions } from './loader.js';
export { ENV_OVERRIDES, envOverrides, type EnvOverride } from './env.js';
export { configSecrets } from './secrets.js';
export { redisSetting, redisTopology } from './redis.js';
