/**
 * WhatsApp as a platform module. The adapter is not part of this build yet: its section
 * and variables are validated, and a bot with `enabled: true` logs that WhatsApp stays
 * offline. The adapter lands in this folder.
 */
import { z } from 'zod';
import type { PlatformModule } from '../../src/contract.js';

const whatsappSection = z.object({
  enabled: z.boolean().default(false),
  chromiumPath: z.string().default('/usr/bin/chromium'),
}).strict();

export type WhatsappSection = z.infer<typeof whatsappSection>;

export const whatsappModule: PlatformModule<WhatsappSection> = {
  name: 'whatsapp',
  configSection: whatsappSection,
  env: [
    { env: 'WHATSAPP_ENABLED', key: 'enabled', type: 'bool' },
    { env: 'CHROMIUM_PATH', key: 'chromiumPath', type: 'string' },
  ],
  // The section carries a browser path with a default, so its presence alone does not turn it on.
  isConfigured: (section) => section.enabled,
  create(_section, { bot, logger }) {
    logger.warn({ bot }, 'WHATSAPP_ENABLED is set, but the WhatsApp adapter is not part of this build yet; WhatsApp stays offline.');
    return undefined;
  },
};
