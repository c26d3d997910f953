import { afterEach, describe, expect, it } from 'vitest';
import { telegramModule, type TelegramSection } from '../../../../adapters/telegram/module.js';
import { startFakeTelegram, type FakeTelegram, type ForumSetup } from '../../../../fakes/telegram/index.js';
import { FORUM, doorSection } from './door-stack.js';

let fake: FakeTelegram | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** `chatbridge doctor`'s check of the door, for a forum set up so, with the bot's own token. */
async function doctor(forum: Partial<ForumSetup> | undefined, door: Record<string, unknown> = {}): Promise<string> {
  fake = await startFakeTelegram();
  if (forum) fake.createForum({ id: FORUM, title: 'Support', ...forum });
  const own = telegramModule.configSection.parse({ token: fake.token, apiRoot: fake.apiRoot }) as TelegramSection;
  return telegramModule.operatorDoor!.doctor!(doorSection({ chat: String(FORUM), ...door }), own, 'main');
}

describe('chatbridge doctor: the Telegram operator door', () => {
  it('says which bot manages the topics of which group', async () => {
    await expect(doctor({})).resolves.toBe('@chatbridge_test_bot manages the topics of "Support"');
  });

  it('names HANDOFF_TELEGRAM_CHAT for a group without topics, and says to turn them on', async () => {
    await expect(doctor({ isForum: false })).rejects.toThrow(
      /HANDOFF_TELEGRAM_CHAT .* is not a supergroup with topics: turn Topics on in the group's settings/,
    );
  });

  it('names HANDOFF_TELEGRAM_CHAT for a bot that is not an admin, and what to grant', async () => {
    await expect(doctor({ botStatus: 'member' })).rejects.toThrow(
      /HANDOFF_TELEGRAM_CHAT .*a member but not an admin: make it an admin with the right "Manage topics"/,
    );
  });

  it('names HANDOFF_TELEGRAM_CHAT for an admin that cannot manage topics', async () => {
    await expect(doctor({ canManageTopics: false })).rejects.toThrow(
      /HANDOFF_TELEGRAM_CHAT .*an admin without the right "Manage topics"/,
    );
  });

  it('names HANDOFF_TELEGRAM_CHAT for a group the bot is not in', async () => {
    await expect(doctor(undefined)).rejects.toThrow(/HANDOFF_TELEGRAM_CHAT .*chat not found.*add @chatbridge_test_bot/);
  });

  it("names HANDOFF_TELEGRAM_BOT_TOKEN when the operators' own bot is refused", async () => {
    await expect(doctor({}, { token: '1:refused' })).rejects.toThrow(/Unauthorized.*HANDOFF_TELEGRAM_BOT_TOKEN/);
  });
});
