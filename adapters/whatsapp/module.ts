/**
 * WhatsApp as a platform module: its `bots[].whatsapp` section, its variables, its adapter
 * (index.ts: whatsapp-web.js in the system's Chromium, one browser per number across
 * replicas), doctor's browser check and the shape of its conversation ids.
 */
import { z } from 'zod';
import type { PlatformModule } from '../../src/contract.js';
import { resolveChromiumPath } from './browser.js';
import { CONVERSATION_ID_EXPECTED, CONVERSATION_ID_PATTERN } from './conversation.js';
import { checkWhatsApp } from './doctor.js';
import { createWhatsAppAdapter } from './index.js';

/** Least edit interval accepted: WhatsApp documents no edit rate, so edits stay sparse. */
const MIN_EDIT_INTERVAL_MS = 2_000;

const whatsappSection = z
  .object({
    enabled: z.boolean().default(false),
    /** Default (at start): PUPPETEER_EXECUTABLE_PATH, then /usr/bin/chromium. */
    chromiumPath: z.string().min(1).optional(),
    /** Default: only as root. The Dockerfile sets it: Docker's default seccomp profile denies the sandbox to a plain user. */
    chromiumNoSandbox: z.boolean().optional(),
    pairPhone: z
      .string()
      .regex(
        /^[1-9][0-9]{6,14}$/,
        'the phone number in international form, digits only, no + or spaces (e.g. 4915112345678)',
      )
      .optional(),
    editIntervalMs: z.number().int().min(MIN_EDIT_INTERVAL_MS, `at least ${MIN_EDIT_INTERVAL_MS} ms`).optional(),
  })
  .strict();

export type WhatsappSection = z.infer<typeof whatsappSection>;

export const whatsappModule: PlatformModule<WhatsappSection> = {
  name: 'whatsapp',
  displayName: 'WhatsApp',
  configSection: whatsappSection,
  env: [
    { env: 'WHATSAPP_ENABLED', key: 'enabled', type: 'bool' },
    { env: 'CHROMIUM_PATH', key: 'chromiumPath', type: 'string' },
    { env: 'CHROMIUM_NO_SANDBOX', key: 'chromiumNoSandbox', type: 'bool' },
    { env: 'WHATSAPP_PAIR_PHONE', key: 'pairPhone', type: 'string' },
    { env: 'WHATSAPP_EDIT_INTERVAL_MS', key: 'editIntervalMs', type: 'int' },
  ],
  conversationId: { pattern: CONVERSATION_ID_PATTERN, expected: CONVERSATION_ID_EXPECTED },
  // Nothing in the section is a credential, so its presence alone does not turn it on.
  isConfigured: (section) => section.enabled,
  create(section, { bot, logger, storage }) {
    return createWhatsAppAdapter({
      bot,
      logger,
      storage,
      chromiumPath: resolveChromiumPath(section.chromiumPath),
      ...(section.chromiumNoSandbox !== undefined ? { chromiumNoSandbox: section.chromiumNoSandbox } : {}),
      ...(section.pairPhone ? { pairPhone: section.pairPhone } : {}),
      ...(section.editIntervalMs !== undefined ? { editIntervalMs: section.editIntervalMs } : {}),
    });
  },
  doctor: (section, bot) => checkWhatsApp(section, bot),
};
