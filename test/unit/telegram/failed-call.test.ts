/**
 * A Telegram call the Bot API refuses comes back as a PlatformError naming the method and a
 * redacted summary of what was sent (the chat, the text's start and length), as grammY's
 * GrammyError names its method: never the bot token, never the whole text.
 */
import { Bot } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelegramOutbound } from '../../../adapters/telegram/outbound.js';
import { TokenBucket } from '../../../adapters/telegram/pacing.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { PlatformError } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';

const CHAT = 4242;
const conversation = { bot: 'main', platform: 'telegram', id: String(CHAT) };
/** Over Telegram's 4,096 characters, so the Bot API refuses it. */
const TOO_LONG = `My account number is 12345678 and ${'the rest of a long message '.repeat(200)}`;

describe('a refused Telegram call', () => {
  let fake: FakeTelegram;
  let outbound: TelegramOutbound;
  beforeAll(async () => {
    fake = await startFakeTelegram({ rateLimit: false });
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot }, botInfo: fake.botInfo });
    outbound = new TelegramOutbound(bot.api, silentLogger(), new TokenBucket());
  });
  afterAll(() => fake.close());

  it('names sendMessage and what was sent, without the token or the whole text', async () => {
    const error = await outbound.send(conversation, { text: TOO_LONG }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PlatformError);
    const refused = error as PlatformError;
    expect(refused.kind).toBe('too-long');
    expect(refused.method).toBe('sendMessage');
    expect(refused.sent).toBe(`to ${CHAT}, text "My account number is…" (${TOO_LONG.length} chars)`);
    const logged = JSON.stringify({ ...refused, message: refused.message });
    expect(logged).not.toContain(fake.token);
    expect(logged).not.toContain('12345678 and');
  });

  it('names editMessageText and the message it edited', async () => {
    const error = (await outbound
      .edit(conversation, { id: '999999' }, 'nothing to edit')
      .catch((e: unknown) => e)) as PlatformError;

    expect(error.kind).toBe('not-found');
    expect(error.method).toBe('editMessageText');
    expect(error.sent).toBe(`to ${CHAT}, message 999999, text "nothing to edit" (15 chars)`);
  });
});
