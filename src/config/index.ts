export { configSchema, type BotConfig, type Config } from './schema.js';
export { ConfigError, DEFAULT_CONFIG_FILE, loadConfig, type LoadConfigOptions } from './loader.js';
export { ENV_OVERRIDES } from './env.js';
