/**
 * Environment variables that override the configuration file (docs/architecture.md).
 * Bot-level variables apply to the first configured bot; each platform module declares
 * its own (PlatformModule.env), applied to `bots[0].<platform>`, or for a local platform
 * to its top-level setting (CHATBRIDGE_CONSOLE → `console`).
 */
import type { PlatformModule } from '../contract.js';
import { DOORS_KEY, sectionKeyOf } from './schema.js';

/** `list`: comma-separated (REDIS_CLUSTER_NODES=a:1,b:2), blanks dropped. */
type Coerce = 'string' | 'int' | 'bool' | 'list';

export interface EnvOverride {
  env: string;
  path: (string | number)[];
  type: Coerce;
}

/** The core's variables; the platforms' come from their modules (envOverrides). */
export const ENV_OVERRIDES: readonly EnvOverride[] = [
  { env: 'PORT', path: ['port'], type: 'int' },
  { env: 'HOST', path: ['host'], type: 'string' },
  { env: 'TRUST_PROXY', path: ['http', 'trustProxy'], type: 'string' },
  { env: 'REDIS_URL', path: ['redisUrl'], type: 'string' },
  { env: 'REDIS_CLUSTER_NODES', path: ['redis', 'cluster', 'nodes'], type: 'list' },
  { env: 'REDIS_SENTINELS', path: ['redis', 'sentinels'], type: 'list' },
  { env: 'REDIS_SENTINEL_NAME', path: ['redis', 'name'], type: 'string' },
  { env: 'REDIS_USERNAME', path: ['redis', 'username'], type: 'string' },
  { env: 'REDIS_PASSWORD', path: ['redis', 'password'], type: 'string' },
  { env: 'REDIS_TLS', path: ['redis', 'tls'], type: 'bool' },
  { env: 'INBOX_TOKEN_SIGN_IN', path: ['inbox', 'tokenSignIn'], type: 'bool' },
  { env: 'LOG_LEVEL', path: ['logLevel'], type: 'string' },
  { env: 'UPSTREAM_BASE_URL', path: ['upstream', 'baseUrl'], type: 'string' },
  { env: 'UPSTREAM_SECRET_KEY', path: ['upstream', 'secretKey'], type: 'string' },
  { env: 'UPSTREAM_SESSION_KEY', path: ['upstream', 'sessionKey'], type: 'string' },
  { env: 'UPSTREAM_UPLOAD_CONFIRM_PATH', path: ['upstream', 'uploadConfirmPath'], type: 'string' },
  { env: 'SERVICE_SECRET_KEY', path: ['service', 'secretKey'], type: 'string' },
  { env: 'SERVICE_SESSION_KEY', path: ['service', 'sessionKey'], type: 'string' },
  { env: 'ADMIN_TOKEN', path: ['admin', 'token'], type: 'string' },
  { env: 'PUBLIC_URL', path: ['admin', 'publicUrl'], type: 'string' },
  { env: 'SMTP_URL', path: ['smtp', 'url'], type: 'string' },
  { env: 'SMTP_FROM', path: ['smtp', 'from'], type: 'string' },
  { env: 'HANDOFF_SECRET', path: ['handoff', 'secret'], type: 'string' },
  { env: 'DIGESTS_HOUR', path: ['digests', 'hour'], type: 'int' },
  { env: 'FFMPEG_PATH', path: ['media', 'ffmpegPath'], type: 'string' },
  { env: 'CHATBRIDGE_SHUTDOWN_GRACE_MS', path: ['gateway', 'stopGraceMs'], type: 'int' },
  { env: 'CHATBRIDGE_BURST_MS', path: ['gateway', 'burstMs'], type: 'int' },
  { env: 'CHATBRIDGE_TRANSCRIPT_PACK_ENTRIES', path: ['gateway', 'transcriptPackEntries'], type: 'int' },
  { env: 'CHATBOT_SERIAL_NUMBER', path: ['bots', 0, 'serialNumber'], type: 'string' },
];

/** The core's variables and those of every platform module given, each naming its setting's path. */
export function envOverrides(platforms: readonly PlatformModule[]): EnvOverride[] {
  const all: EnvOverride[] = [...ENV_OVERRIDES];
  for (const platform of platforms) {
    if (platform.kind === 'local') {
      if (platform.env) all.push({ env: platform.env.env, path: [platform.name], type: platform.env.type });
      continue;
    }
    for (const { env, key, type } of platform.env)
      all.push({ env, path: ['bots', 0, sectionKeyOf(platform), key], type });
    for (const { env, key, type } of platform.operatorDoor?.env ?? [])
      all.push({ env, path: ['bots', 0, DOORS_KEY, platform.name, key], type });
  }
  const seen = new Set<string>();
  for (const { env } of all) {
    if (seen.has(env))
      throw new Error(`Two settings are read from the environment variable ${env}; rename one in its platform module.`);
    seen.add(env);
  }
  return all;
}

/** Coerces an env value; a value that cannot be coerced is kept as text so that validation names it. */
export function coerceEnv(raw: string, type: Coerce): unknown {
  if (type === 'list')
    return raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  if (type === 'int') return /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (type === 'bool') {
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
    return raw;
  }
  return raw;
}
