import { Api, GrammyError } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';

const CHAT = 42;
let fake: FakeTelegram | undefined;

afterEach(async () => {
  await fake?.close();
});

describe('fake Telegram: MarkdownV2 without entities (what Chat SDK sends in bench/peers)', () => {
  it('shows escaped text without its backslashes, in messages and drafts', async () => {
    fake = await startFakeTelegram({ rateLimit: false });
    const api = new Api(fake.token, { apiRoot: fake.apiRoot });
    await api.sendMessage(CHAT, 'Built in 1998\\. A corner lot, 3\\-bed\\!', { parse_mode: 'MarkdownV2' });
    await api.sendMessageDraft(CHAT, 7, 'Built in 1998\\.', { parse_mode: 'MarkdownV2' });
    expect(fake.visibleMessages(CHAT).map((m) => m.text)).toEqual(['Built in 1998. A corner lot, 3-bed!']);
    expect(fake.drafts(CHAT).map((d) => d.text)).toEqual(['Built in 1998.']);
  });

  it("refuses an unescaped reserved character with Telegram's can't parse entities", async () => {
    fake = await startFakeTelegram({ rateLimit: false });
    const api = new Api(fake.token, { apiRoot: fake.apiRoot });
    const error = await api.sendMessage(CHAT, 'Built in 1998.', { parse_mode: 'MarkdownV2' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).description).toMatch(/can't parse entities: Character '\.' is reserved/);
    expect(fake.visibleMessages(CHAT)).toEqual([]);
  });
});
