/**
 * WhatsApp Business Cloud API as a platform module: platform id `whatsapp-cloud` (conversation
 * ids, routes), its `bots[].whatsappCloud` section, its WHATSAPP_CLOUD_* variables, its adapter
 * (index.ts), doctor's check of the token, the number and the subscription, its secrets.
 */
import { z } from 'zod';
import type { PlatformModule } from '../../src/contract.js';
import { CONVERSATION_ID_EXPECTED, CONVERSATION_ID_PATTERN } from './conversation.js';
import { checkWhatsAppCloud } from './doctor.js';
import { DEFAULT_GRAPH_API_URL } from './graph.js';
import { createWhatsAppCloudAdapter } from './index.js';

const digits = (what: string) => z.string().regex(/^[0-9]{1,32}$/, what);

const cloudSection = z
  .object({
    accessToken: z.string().min(20, "a system user's access token from Meta Business Settings (it is long: EAA…)"),
    phoneNumberId: digits('the phone number ID from WhatsApp Manager → API Setup (digits; not the phone number)'),
    appSecret: z.string().min(16, "the Meta app's secret (App settings → Basic → App secret)"),
    verifyToken: z
      .string()
      .min(
        8,
        "a verify token of your choosing, at least 8 characters, also entered in the Meta app's webhook settings",
      ),
    wabaId: digits('the WhatsApp Business Account ID (digits)').optional(),
    apiUrl: z.string().url().default(DEFAULT_GRAPH_API_URL),
  })
  .strict();

export type WhatsAppCloudSection = z.infer<typeof cloudSection>;

export const whatsappCloudModule: PlatformModule<WhatsAppCloudSection> = {
  name: 'whatsapp-cloud',
  displayName: 'WhatsApp',
  sectionKey: 'whatsappCloud',
  configSection: cloudSection,
  env: [
    { env: 'WHATSAPP_CLOUD_ACCESS_TOKEN', key: 'accessToken', type: 'string' },
    { env: 'WHATSAPP_CLOUD_PHONE_NUMBER_ID', key: 'phoneNumberId', type: 'string' },
    { env: 'WHATSAPP_CLOUD_APP_SECRET', key: 'appSecret', type: 'string' },
    { env: 'WHATSAPP_CLOUD_VERIFY_TOKEN', key: 'verifyToken', type: 'string' },
    { env: 'WHATSAPP_CLOUD_WABA_ID', key: 'wabaId', type: 'string' },
    { env: 'WHATSAPP_CLOUD_API_URL', key: 'apiUrl', type: 'string' },
  ],
  conversationId: { pattern: CONVERSATION_ID_PATTERN, expected: CONVERSATION_ID_EXPECTED },
  // Every key but the optional ones is required, so a section that parsed is one to run.
  isConfigured: () => true,
  create(section, { bot, logger, storage, metrics }) {
    return createWhatsAppCloudAdapter({
      bot,
      logger,
      storage,
      ...(metrics ? { metrics } : {}),
      accessToken: section.accessToken,
      phoneNumberId: section.phoneNumberId,
      appSecret: section.appSecret,
      verifyToken: section.verifyToken,
      apiUrl: section.apiUrl,
    });
  },
  doctor: (section, bot) => checkWhatsAppCloud({ ...section }, bot),
  secrets: (section) => ({
    values: [section.accessToken, section.appSecret, section.verifyToken],
    urls: [section.apiUrl],
  }),
};
