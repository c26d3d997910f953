/**
 * Environment variables that override the configuration file (DESIGN.md §7).
 * Bot-level variables apply to the first configured bot.
 */
type Coerce = 'string' | 'int' | 'bool';

export const ENV_OVERRIDES: readonly { env: string; path: (string | number)[]; type: Coerce }[] = [
  { env: 'PORT', path: ['port'], type: 'int' },
  { env: 'REDIS_URL', path: ['redisUrl'], type: 'string' },
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
  { env: 'FFMPEG_PATH', path: ['media', 'ffmpegPath'], type: 'string' },
  { env: 'CHATBRIDGE_CONSOLE', path: ['console'], type: 'string' },
  { env: 'CHATBOT_SERIAL_NUMBER', path: ['bots', 0, 'serialNumber'], type: 'string' },
  { env: 'TELEGRAM_BOT_TOKEN', path: ['bots', 0, 'telegram', 'token'], type: 'string' },
  { env: 'TELEGRAM_API_ROOT', path: ['bots', 0, 'telegram', 'apiRoot'], type: 'string' },
  { env: 'TELEGRAM_MODE', path: ['bots', 0, 'telegram', 'mode'], type: 'string' },
  { env: 'TELEGRAM_WEBHOOK_SECRET', path: ['bots', 0, 'telegram', 'webhookSecret'], type: 'string' },
  { env: 'TELEGRAM_WEBHOOK_URL', path: ['bots', 0, 'telegram', 'webhookPublicUrl'], type: 'string' },
  { env: 'SLACK_BOT_TOKEN', path: ['bots', 0, 'slack', 'botToken'], type: 'string' },
  { env: 'SLACK_APP_TOKEN', path: ['bots', 0, 'slack', 'appToken'], type: 'string' },
  { env: 'SLACK_SIGNING_SECRET', path: ['bots', 0, 'slack', 'signingSecret'], type: 'string' },
  { env: 'SLACK_API_URL', path: ['bots', 0, 'slack', 'apiUrl'], type: 'string' },
  { env: 'WHATSAPP_ENABLED', path: ['bots', 0, 'whatsapp', 'enabled'], type: 'bool' },
  { env: 'CHROMIUM_PATH', path: ['bots', 0, 'whatsapp', 'chromiumPath'], type: 'string' },
];

/** Coerces an env value; a value that cannot be coerced is kept as text so that validation names it. */
export function coerceEnv(raw: string, type: Coerce): unknown {
  if (type === 'int') return /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (type === 'bool') {
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
    return raw;
  }
  return raw;
}
