/**
 * `chatbridge doctor` for a Telegram operator door: the bot answers (getMe), the group is a
 * supergroup with topics (getChat), and the bot is an admin there allowed to manage topics
 * (getChatMember). Each failure names the variable to fix and what to do.
 */
import { Api, GrammyError } from 'grammy';
import type { ChatFullInfo, ChatMember } from 'grammy/types';
import { DEFAULT_API_ROOT } from '../media.js';
import type { TelegramSection } from '../section.js';
import type { OperatorDoorSection } from './section.js';

/** One small call each; past this, the Bot API is reported unreachable rather than waited for. */
const DOCTOR_TIMEOUT_SECONDS = 10;

const CHAT_VARIABLE = 'HANDOFF_TELEGRAM_CHAT (bots[].handoff.telegram.chat)';

function why(error: unknown): string {
  return error instanceof GrammyError ? error.description : `no answer: ${(error as Error).message}`;
}

function refused(message: string, error?: unknown): Error {
  return new Error(message, error === undefined ? undefined : { cause: error });
}

/** What the bot lacks to open, close and reopen topics; undefined when it has it all. */
export function missingRights(member: ChatMember): string | undefined {
  if (member.status === 'creator') return undefined;
  if (member.status !== 'administrator') {
    const what = member.status === 'member' ? 'a member but not an admin' : `not in the group (${member.status})`;
    return `the bot is ${what}: make it an admin with the right "Manage topics"`;
  }
  if (!member.can_manage_topics)
    return 'the bot is an admin without the right "Manage topics": grant it in the group\'s admin settings';
  return undefined;
}

export async function doctorOperatorDoor(
  door: OperatorDoorSection,
  own: TelegramSection | undefined,
  bot: string,
): Promise<string> {
  const token = door.token ?? own?.token;
  const tokenVariable = door.token
    ? 'HANDOFF_TELEGRAM_BOT_TOKEN (bots[].handoff.telegram.token)'
    : 'TELEGRAM_BOT_TOKEN (bots[].telegram.token)';
  if (!token) {
    throw refused(
      `The Telegram operator door of bot "${bot}" has no bot: set HANDOFF_TELEGRAM_BOT_TOKEN, or run the bot on Telegram (TELEGRAM_BOT_TOKEN)`,
    );
  }
  const apiRoot = (door.apiRoot ?? own?.apiRoot ?? DEFAULT_API_ROOT).replace(/\/+$/, '');
  const api = new Api(token, { apiRoot, timeoutSeconds: DOCTOR_TIMEOUT_SECONDS });
  const me = await api.getMe().catch((error: unknown) => {
    throw refused(
      error instanceof GrammyError
        ? `Telegram refused the operators' bot of bot "${bot}" (${error.description}): check ${tokenVariable}`
        : `The Telegram Bot API at ${apiRoot} did not answer getMe (${why(error)}): check HANDOFF_TELEGRAM_API_ROOT and the network`,
      error,
    );
  });
  const chat: ChatFullInfo = await api.getChat(door.chat).catch((error: unknown) => {
    throw refused(
      `${CHAT_VARIABLE} = ${door.chat}: Telegram's getChat answered "${why(error)}": ` +
        `check the id (a supergroup's starts with -100) and add @${me.username} to the group`,
      error,
    );
  });
  if (chat.type !== 'supergroup' || chat.is_forum !== true) {
    throw refused(
      `${CHAT_VARIABLE} = ${door.chat} ("${chat.title ?? chat.id}") is not a supergroup with topics: turn Topics on in the group's settings`,
    );
  }
  const member = await api.getChatMember(chat.id, me.id).catch((error: unknown) => {
    throw refused(`${CHAT_VARIABLE} = ${door.chat}: getChatMember of @${me.username} answered "${why(error)}"`, error);
  });
  const missing = missingRights(member);
  if (missing) throw refused(`${CHAT_VARIABLE} = ${door.chat} ("${chat.title}"): ${missing}`);
  return `@${me.username} manages the topics of "${chat.title}"`;
}
