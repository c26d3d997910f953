/**
 * A bot's Telegram operator door, built from its `bots[].handoff.telegram` section: on the bot's
 * own Telegram bot (its adapter hands the door the group's updates) unless a token of the
 * operators' own names another bot (polled under a lease).
 */
import type { OperatorDoorContext } from '../../../src/contract.js';
import { isTelegramAdapter } from '../index.js';
import { DEFAULT_API_ROOT } from '../media.js';
import { TokenBucket } from '../pacing.js';
import type { TelegramSection } from '../section.js';
import { TelegramOperatorDoor } from './door.js';
import type { LeaseTimings } from '../../../src/contract.js';
import { OwnBotReceiver, SharedBotReceiver } from './receivers.js';
import type { OperatorDoorSection } from './section.js';

export { TelegramOperatorDoor } from './door.js';
export { operatorDoorSection, operatorDoorEnv, type OperatorDoorSection } from './section.js';

export interface DoorFactoryOptions {
  /** The polling lease's timings (tests); default the kit's DEFAULT_LEASE_TIMINGS. */
  leaseTimings?: LeaseTimings;
}

const trimRoot = (root: string): string => root.replace(/\/+$/, '');

export function createTelegramOperatorDoor(
  section: OperatorDoorSection,
  context: OperatorDoorContext<TelegramSection>,
  options: DoorFactoryOptions = {},
): TelegramOperatorDoor {
  const { own, logger } = context;
  // The bot's own token given again is the bot's own bot: sharing it, not polling it a second time.
  const sharesBot = section.token === undefined || section.token === own?.section.token;
  if (sharesBot) {
    const adapter = own?.adapter;
    if (!isTelegramAdapter(adapter)) {
      throw new Error(
        `The Telegram operator door of bot "${context.bot}" (HANDOFF_TELEGRAM_CHAT, bots[].handoff.telegram) has no bot to answer with: ` +
          'set HANDOFF_TELEGRAM_BOT_TOKEN (bots[].handoff.telegram.token), or run the bot on Telegram (TELEGRAM_BOT_TOKEN, bots[].telegram.token)',
      );
    }
    const receiver = new SharedBotReceiver(adapter, section.chat);
    return new TelegramOperatorDoor({
      chat: section.chat,
      api: receiver.link.api,
      files: receiver.link.files,
      pacer: receiver.link.pacer,
      receiver,
      logger,
    });
  }
  const token = section.token as string;
  const apiRoot = trimRoot(section.apiRoot ?? own?.section.apiRoot ?? DEFAULT_API_ROOT);
  const receiver = new OwnBotReceiver({
    token,
    apiRoot,
    storage: context.storage,
    logger,
    ...(options.leaseTimings ? { leaseTimings: options.leaseTimings } : {}),
  });
  // A local Bot API server of the bot's own is the door's too only when it is the same server.
  const localApi = own?.section.localApi === true && trimRoot(own.section.apiRoot ?? DEFAULT_API_ROOT) === apiRoot;
  return new TelegramOperatorDoor({
    chat: section.chat,
    api: receiver.bot.api,
    files: { api: receiver.bot.api, token, apiRoot, localApi },
    // A bot of its own has its own bot-wide pace.
    pacer: new TokenBucket(),
    receiver,
    logger,
  });
}
