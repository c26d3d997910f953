import { createConsoleAdapter } from '../../adapters/console/index.js';
import { createTelegramAdapter, type TelegramAdapter } from '../../adapters/telegram/index.js';
import type { Config } from '../config/index.js';
import type { Adapter } from '../gateway/index.js';
import type { Logger } from '../logger.js';

export interface BuiltAdapters {
  adapters: Adapter[];
  /** Express handlers to mount, by path (webhook mode). */
  webhooks: { path: string; handler: NonNullable<TelegramAdapter['webhookHandler']> }[];
  consoleOpen: boolean;
}

/** One adapter per configured (bot, platform); the console when asked for or when nothing else is configured on a terminal. */
export function buildAdapters(config: Config, logger: Logger, options: { onConsoleClose?: () => void } = {}): BuiltAdapters {
  const adapters: Adapter[] = [];
  const webhooks: BuiltAdapters['webhooks'] = [];
  for (const bot of config.bots) {
    if (bot.telegram) {
      const telegram = createTelegramAdapter({
        bot: bot.id,
        token: bot.telegram.token,
        mode: bot.telegram.mode,
        localApi: bot.telegram.localApi,
        logger: logger.child({ platform: 'telegram', bot: bot.id }),
        ...(bot.telegram.apiRoot ? { apiRoot: bot.telegram.apiRoot } : {}),
        ...(bot.telegram.webhookSecret ? { webhookSecret: bot.telegram.webhookSecret } : {}),
        ...(bot.telegram.webhookPublicUrl ? { webhookPublicUrl: bot.telegram.webhookPublicUrl } : {}),
      });
      adapters.push(telegram);
      if (telegram.webhookHandler) webhooks.push({ path: `/telegram/${bot.id}`, handler: telegram.webhookHandler });
    }
    if (bot.slack) logger.warn({ bot: bot.id }, 'bots[].slack is configured, but the Slack adapter is not part of this build yet; Slack stays offline.');
    if (bot.whatsapp?.enabled) logger.warn({ bot: bot.id }, 'WHATSAPP_ENABLED is set, but the WhatsApp adapter is not part of this build yet; WhatsApp stays offline.');
  }
  const wantConsole = config.console === 'on' || (config.console === 'auto' && adapters.length === 0 && Boolean(process.stdin.isTTY));
  if (wantConsole) adapters.push(createConsoleAdapter({ bot: config.bots[0]!.id, ...(options.onConsoleClose ? { onClose: options.onConsoleClose } : {}) }));
  return { adapters, webhooks, consoleOpen: wantConsole };
}
