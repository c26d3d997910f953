/**
 * Telegram as a platform module: its `bots[].telegram` section, its TELEGRAM_*
 * variables, its adapter, its doctor check and the shape of its conversation ids.
 * The runtime, the config loader and doctor know Telegram only through this object.
 */
import { Api, GrammyError } from 'grammy';
import type { BotPlatformModule, OperatorDoorModule } from '../../src/contract.js';
import { CONVERSATION_ID_EXPECTED, CONVERSATION_ID_PATTERN } from './conversation.js';
import { createTelegramAdapter } from './index.js';
import { DEFAULT_API_ROOT } from './media.js';
import { doctorOperatorDoor } from './operators/doctor.js';
import { createTelegramOperatorDoor } from './operators/index.js';
import { operatorDoorEnv, operatorDoorSection, type OperatorDoorSection } from './operators/section.js';
import { telegramSection, type TelegramSection } from './section.js';

export type { TelegramSection } from './section.js';

/** getMe is one small call; past this, doctor reports the Bot API as unreachable rather than hanging. */
const DOCTOR_TIMEOUT_SECONDS = 10;

/** `chatbridge doctor`: the token works (getMe), against the configured Bot API server. */
async function checkToken(section: TelegramSection, bot: string): Promise<string> {
  const apiRoot = (section.apiRoot ?? DEFAULT_API_ROOT).replace(/\/+$/, '');
  const api = new Api(section.token, { apiRoot, timeoutSeconds: DOCTOR_TIMEOUT_SECONDS });
  try {
    const me = await api.getMe();
    return `@${me.username} (${section.mode})`;
  } catch (error) {
    if (error instanceof GrammyError) {
      throw new Error(
        `Telegram refused the token of bot "${bot}" (${error.description}); check TELEGRAM_BOT_TOKEN / bots[].telegram.token`,
        { cause: error },
      );
    }
    throw new Error(
      `The Telegram Bot API at ${apiRoot} did not answer getMe for bot "${bot}" (${(error as Error).message}); check TELEGRAM_API_ROOT and the network`,
      { cause: error },
    );
  }
}

/** Where the operators of a bot's handoffs answer on Telegram: a supergroup with topics, one per user. */
const telegramOperatorDoor: OperatorDoorModule<TelegramSection, OperatorDoorSection> = {
  configSection: operatorDoorSection,
  env: operatorDoorEnv,
  create: (door, context) => createTelegramOperatorDoor(door, context),
  doctor: doctorOperatorDoor,
  secrets: (door) => ({
    values: door.token ? [door.token, door.token.split(':').slice(1).join(':')] : [],
    urls: [door.apiRoot],
  }),
};

export const telegramModule: BotPlatformModule<TelegramSection> = {
  name: 'telegram',
  displayName: 'Telegram',
  configSection: telegramSection,
  env: [
    { env: 'TELEGRAM_BOT_TOKEN', key: 'token', type: 'string' },
    { env: 'TELEGRAM_API_ROOT', key: 'apiRoot', type: 'string' },
    { env: 'TELEGRAM_MODE', key: 'mode', type: 'string' },
    { env: 'TELEGRAM_WEBHOOK_SECRET', key: 'webhookSecret', type: 'string' },
    { env: 'TELEGRAM_WEBHOOK_URL', key: 'webhookPublicUrl', type: 'string' },
    { env: 'TELEGRAM_MESSAGES_PER_SECOND', key: 'messagesPerSecond', type: 'int' },
  ],
  conversationId: { pattern: CONVERSATION_ID_PATTERN, expected: CONVERSATION_ID_EXPECTED },
  isConfigured: () => true,
  create(section, { bot, logger }) {
    return createTelegramAdapter({
      bot,
      token: section.token,
      mode: section.mode,
      localApi: section.localApi,
      logger,
      ...(section.apiRoot ? { apiRoot: section.apiRoot } : {}),
      ...(section.webhookSecret ? { webhookSecret: section.webhookSecret } : {}),
      ...(section.webhookPublicUrl ? { webhookPublicUrl: section.webhookPublicUrl } : {}),
      ...(section.messagesPerSecond ? { pacing: { perSecond: section.messagesPerSecond } } : {}),
    });
  },
  doctor: checkToken,
  secrets: (section) => ({
    // The part after "<bot id>:" is the secret; it is redacted on its own too, wherever it is logged.
    values: [section.token, section.token.split(':').slice(1).join(':'), section.webhookSecret],
    urls: [section.apiRoot],
  }),
  // A supergroup with topics, one per user (operators/): bots[].handoff.telegram, HANDOFF_TELEGRAM_*.
  operatorDoor: telegramOperatorDoor,
};
