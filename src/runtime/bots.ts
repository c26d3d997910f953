import type { Config } from '../config/index.js';
import type { ChatbotSettingsMirror, GatewayBot } from '../gateway/index.js';
import {
  DEMO_SERIAL_NUMBER,
  demoChatbotSettings,
  embeddedSettingsReader,
  serviceSettingDefaults,
} from '../service/index.js';
import type { StateStore } from '../state/index.js';
import type { ChatbotSettings } from '../upstream/api.js';

/** The gateway's bots from config: an empty serialNumber means the embedded demo chatbot. */
export function gatewayBots(config: Config): GatewayBot[] {
  const embedded = !config.upstream.baseUrl;
  return config.bots.map((bot, index) => {
    if (!bot.serialNumber && !embedded) {
      throw new Error(
        `bots[${index}].serialNumber${index === 0 ? ' (CHATBOT_SERIAL_NUMBER)' : ''} is required when UPSTREAM_BASE_URL is set: ` +
          "it is the chatbot's ID in its general settings.",
      );
    }
    // The config schema checks the values' kinds; the service validates field by field on Edit.
    const configured = bot.settings as ChatbotSettings;
    const texts = bot.texts ? { texts: bot.texts } : {};
    if (bot.serialNumber) return { id: bot.id, serialNumber: bot.serialNumber, settings: configured, ...texts };
    // The embedded demo chatbot: the copy is only a fallback, its settings are read from the service (wireSettings).
    return {
      id: bot.id,
      serialNumber: DEMO_SERIAL_NUMBER,
      settings: { ...(demoChatbotSettings() as ChatbotSettings), ...configured },
      ...texts,
    };
  });
}

/**
 * Where the gateway reads each chatbot's settings. Every setting the copy does not
 * know takes the service's default (a hosted chatbot's copy holds only what was
 * configured or edited through chatbridge). With the embedded service, its
 * chatbots' settings are read from the service's own records: no copy to drift.
 */
export function wireSettings(
  mirror: ChatbotSettingsMirror,
  options: { embedded: boolean; state: StateStore; bots: readonly GatewayBot[] },
): void {
  mirror.withDefaults(serviceSettingDefaults());
  if (!options.embedded) return;
  const read = embeddedSettingsReader(options.state);
  for (const bot of options.bots) mirror.readFrom(bot.serialNumber, read);
}

/** The configured settings of the embedded demo chatbot, applied when the service creates it. */
export function embeddedDemoSettings(config: Config): Record<string, unknown> {
  return config.bots.find((bot) => !bot.serialNumber)?.settings ?? {};
}
