import type { Config } from '../config/index.js';
import type { GatewayBot } from '../gateway/index.js';
import { DEMO_SERIAL_NUMBER, demoChatbotSettings } from '../service/index.js';
import type { ChatbotSettings } from '../upstream/api.js';

/** The gateway's bots from config: an empty serialNumber means the embedded demo chatbot. */
export function gatewayBots(config: Config): GatewayBot[] {
  const embedded = !config.upstream.baseUrl;
  return config.bots.map((bot, index) => {
    if (!bot.serialNumber && !embedded) {
      throw new Error(`bots[${index}].serialNumber${index === 0 ? ' (CHATBOT_SERIAL_NUMBER)' : ''} is required when UPSTREAM_BASE_URL is set: it is the chatbot's ID in its general settings.`);
    }
    // The config schema checks the values' kinds; the service validates field by field on Edit.
    const configured = bot.settings as ChatbotSettings;
    if (bot.serialNumber) return { id: bot.id, serialNumber: bot.serialNumber, settings: configured };
    // The embedded demo chatbot: the gateway's copy starts from the settings it was seeded with.
    return { id: bot.id, serialNumber: DEMO_SERIAL_NUMBER, settings: { ...(demoChatbotSettings() as ChatbotSettings), ...configured } };
  });
}
