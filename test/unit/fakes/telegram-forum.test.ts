import { Api, GrammyError, InputFile } from 'grammy';
import type { Update } from 'grammy/types';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram, type ForumSetup } from '../../../fakes/telegram/index.js';

const FORUM = -1009876543210;

let fake: FakeTelegram;
let api: Api;

async function start(forum: Partial<ForumSetup> = {}): Promise<void> {
  fake = await startFakeTelegram({ rateLimit: false });
  fake.createForum({ id: FORUM, title: 'Support', ...forum });
  api = new Api(fake.token, { apiRoot: fake.apiRoot });
}

async function refusal(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrammyError);
  return `${(error as GrammyError).error_code} ${(error as GrammyError).description}`;
}

/** Everything queued for the bot so far (without confirming it). */
async function pendingUpdates(): Promise<Update[]> {
  return api.getUpdates({ timeout: 0 });
}

afterEach(async () => {
  await fake?.close();
});

describe('fake Telegram: supergroups with topics', () => {
  it('describes the group (getChat) and the bot in it (getChatMember)', async () => {
    await start({ username: 'acme_support' });
    expect(await api.getChat(FORUM)).toMatchObject({ id: FORUM, type: 'supergroup', title: 'Support', is_forum: true });
    expect((await api.getChat('@acme_support')).id).toBe(FORUM);
    expect(await api.getChatMember(FORUM, fake.botInfo.id)).toMatchObject({
      status: 'administrator',
      can_manage_topics: true,
    });
    expect(await refusal(api.getChat(-100111))).toBe('400 Bad Request: chat not found');
  });

  it('creates a topic with its service message, delivered as an update', async () => {
    await start();
    const topic = await api.createForumTopic(FORUM, 'Ada · WhatsApp');
    expect(topic).toMatchObject({ name: 'Ada · WhatsApp', message_thread_id: expect.any(Number) });
    const [update] = await pendingUpdates();
    expect(update?.message).toMatchObject({
      message_id: topic.message_thread_id,
      message_thread_id: topic.message_thread_id,
      is_topic_message: true,
      forum_topic_created: { name: 'Ada · WhatsApp' },
      from: { id: fake.botInfo.id, is_bot: true },
    });
  });

  it('refuses topic names outside 1–128 characters, and a bot without the right to manage topics', async () => {
    await start();
    expect(await refusal(api.createForumTopic(FORUM, 'x'.repeat(129)))).toBe('400 Bad Request: TOPIC_TITLE_INVALID');
    fake.createForum({ id: FORUM, canManageTopics: false });
    expect(await refusal(api.createForumTopic(FORUM, 'a'))).toBe(
      '400 Bad Request: not enough rights to create a topic',
    );
    fake.createForum({ id: FORUM, isForum: false });
    expect(await refusal(api.createForumTopic(FORUM, 'a'))).toBe('400 Bad Request: the chat is not a forum');
  });

  it('closes, reopens and renames a topic, answering TOPIC_NOT_MODIFIED when it is already so', async () => {
    await start();
    const { message_thread_id: thread } = await api.createForumTopic(FORUM, 'one');
    await api.closeForumTopic(FORUM, thread);
    expect(fake.topic(FORUM, thread)?.closed).toBe(true);
    expect(await refusal(api.closeForumTopic(FORUM, thread))).toBe('400 Bad Request: TOPIC_NOT_MODIFIED');
    await api.reopenForumTopic(FORUM, thread);
    expect(await refusal(api.reopenForumTopic(FORUM, thread))).toBe('400 Bad Request: TOPIC_NOT_MODIFIED');
    await api.editForumTopic(FORUM, thread, { name: 'two' });
    expect(await refusal(api.editForumTopic(FORUM, thread, { name: 'two' }))).toBe(
      '400 Bad Request: TOPIC_NOT_MODIFIED',
    );
    expect(fake.topic(FORUM, thread)).toMatchObject({ name: 'two', closed: false });
    const services = fake
      .topicMessages(FORUM, thread)
      .map((m) => Object.keys(m).find((k) => k.startsWith('forum_topic_')));
    expect(services).toEqual([
      'forum_topic_created',
      'forum_topic_closed',
      'forum_topic_reopened',
      'forum_topic_edited',
    ]);
  });

  it('answers "message thread not found" for every call naming a topic deleted by hand', async () => {
    await start();
    const { message_thread_id: thread } = await api.createForumTopic(FORUM, 'one');
    fake.deleteTopic(FORUM, thread);
    const gone = '400 Bad Request: message thread not found';
    expect(await refusal(api.sendMessage(FORUM, 'hi', { message_thread_id: thread }))).toBe(gone);
    expect(
      await refusal(
        api.sendDocument(FORUM, new InputFile(new Uint8Array([1]), 'a.txt'), { message_thread_id: thread }),
      ),
    ).toBe(gone);
    expect(await refusal(api.reopenForumTopic(FORUM, thread))).toBe(gone);
  });

  it('lets only admins post in a closed topic', async () => {
    await start();
    const { message_thread_id: thread } = await api.createForumTopic(FORUM, 'one');
    await api.closeForumTopic(FORUM, thread);
    await api.sendMessage(FORUM, 'as admin', { message_thread_id: thread });
    fake.createForum({ id: FORUM, botStatus: 'member' });
    expect(await refusal(api.sendMessage(FORUM, 'as member', { message_thread_id: thread }))).toBe(
      '400 Bad Request: TOPIC_CLOSED',
    );
  });

  it('uploads photos of at most 10 MB and captions of at most 1024 characters in a topic', async () => {
    await start();
    const { message_thread_id: thread } = await api.createForumTopic(FORUM, 'one');
    const big = new InputFile(new Uint8Array(10 * 1024 * 1024 + 1), 'big.jpg');
    expect(await refusal(api.sendPhoto(FORUM, big, { message_thread_id: thread }))).toMatch(/^400 /);
    const long = 'x'.repeat(1025);
    const small = new InputFile(new Uint8Array([1, 2]), 'small.jpg');
    expect(await refusal(api.sendPhoto(FORUM, small, { caption: long }))).toBe(
      '400 Bad Request: message caption is too long',
    );
    const sent = await api.sendPhoto(FORUM, new InputFile(new Uint8Array([1, 2]), 'ok.jpg'), {
      message_thread_id: thread,
    });
    expect(sent).toMatchObject({ message_thread_id: thread, is_topic_message: true });
  });

  it('has a member write in a topic, as Telegram delivers it', async () => {
    await start();
    const { message_thread_id: thread } = await api.createForumTopic(FORUM, 'one');
    const update = fake.memberWrites({
      chat: FORUM,
      thread,
      from: { id: 7, first_name: 'Ana', last_name: 'Pérez' },
      text: 'hi',
    });
    expect(update.message).toMatchObject({
      chat: { id: FORUM, type: 'supergroup', is_forum: true },
      message_thread_id: thread,
      is_topic_message: true,
      from: { id: 7, is_bot: false, first_name: 'Ana', last_name: 'Pérez' },
    });
  });
});
