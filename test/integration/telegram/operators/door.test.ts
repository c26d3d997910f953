import { afterEach, describe, expect, it } from 'vitest';
import { PlatformError, ThreadGoneError, type ThreadRef } from '../../../../src/contract.js';
import { ANA, CARD, FORUM, startSharedDoor, type SharedDoorStack } from './door-stack.js';

let stack: SharedDoorStack | undefined;

afterEach(async () => {
  await stack?.stop();
  stack = undefined;
});

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('Telegram operator door: topics', () => {
  it('opens a topic named after the user and posts the card in it, with Claim and Hand back', async () => {
    stack = await startSharedDoor();
    const { fake, door } = stack;
    const thread = await door.open(CARD);
    expect(fake.topic(FORUM, Number(thread.id))).toMatchObject({ name: 'Ada Lovelace · WhatsApp', closed: false });
    expect(thread.url).toBe(`https://t.me/c/1234567890/${thread.id}`);
    const card = fake
      .topicMessages(FORUM, Number(thread.id))
      .find((m) => String(m.message_id) === thread.cardMessageId);
    expect(card?.text).toContain('Ada Lovelace (+44 20 7946 0000) on WhatsApp');
    expect(card?.entities).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'bold' })]));
    expect(card?.reply_markup?.inline_keyboard.flat().map((b) => b.text)).toEqual(['Claim', 'Hand back']);
  });

  it('cuts a title longer than a topic name may be to 128 characters', async () => {
    stack = await startSharedDoor();
    const thread = await stack.door.open({ ...CARD, title: 'A'.repeat(300) });
    const name = stack.fake.topic(FORUM, Number(thread.id))?.name ?? '';
    expect([...name].length).toBe(128);
    expect(name.endsWith('…')).toBe(true);
  });

  it("reopens the user's topic at their next handoff: same topic, renamed, a new card", async () => {
    stack = await startSharedDoor();
    const { fake, door } = stack;
    const first = await door.open(CARD);
    await door.close(first);
    expect(fake.topic(FORUM, Number(first.id))?.closed).toBe(true);
    const second = await door.open({ ...CARD, title: 'Ada L. · WhatsApp' }, first);
    expect(second.id).toBe(first.id);
    expect(second.cardMessageId).not.toBe(first.cardMessageId);
    expect(fake.topic(FORUM, Number(first.id))).toMatchObject({ name: 'Ada L. · WhatsApp', closed: false });
  });

  it('reopening a topic that is still open, under the same name, is fine', async () => {
    stack = await startSharedDoor();
    const first = await stack.door.open(CARD);
    const again = await stack.door.open(CARD, first);
    expect(again.id).toBe(first.id);
  });

  it('says a topic deleted by hand is gone (ThreadGoneError), and a new one opens instead', async () => {
    stack = await startSharedDoor();
    const { fake, door } = stack;
    const first = await door.open(CARD);
    fake.deleteTopic(FORUM, Number(first.id));
    expect(await rejection(door.open(CARD, first))).toBeInstanceOf(ThreadGoneError);
    expect(await rejection(door.post(first, { markdown: 'hello?' }))).toBeInstanceOf(ThreadGoneError);
    const fresh = await door.open(CARD);
    expect(fresh.id).not.toBe(first.id);
    expect(fake.topic(FORUM, Number(fresh.id))?.deleted).toBe(false);
  });

  it('closes the topic when the handoff ends, and closing it again is fine', async () => {
    stack = await startSharedDoor();
    const thread = await stack.door.open(CARD);
    await stack.door.close(thread);
    await stack.door.close(thread);
    expect(stack.fake.topic(FORUM, Number(thread.id))?.closed).toBe(true);
  });

  it('updates the card and removes its buttons once handed back; the same card again is no error', async () => {
    stack = await startSharedDoor();
    const { fake, door } = stack;
    const thread = await door.open(CARD);
    const handedBack = { ...CARD, markdown: `${CARD.markdown}\n\nHanded back by _Ana Pérez_`, actions: [] };
    await door.updateCard(thread, handedBack);
    await door.updateCard(thread, handedBack);
    const card = fake
      .topicMessages(FORUM, Number(thread.id))
      .find((m) => String(m.message_id) === thread.cardMessageId);
    expect(card?.text).toContain('Handed back by Ana Pérez');
    expect(card?.reply_markup).toBeUndefined();
  });

  it("posts a user's long message into the topic in messages of at most 4096 characters", async () => {
    stack = await startSharedDoor();
    const thread = await stack.door.open(CARD);
    await stack.door.post(thread, { markdown: `${'word '.repeat(1500)}**end**` });
    const posted = stack.fake
      .topicMessages(FORUM, Number(thread.id))
      .filter((m) => m.from?.is_bot && m.text && String(m.message_id) !== thread.cardMessageId);
    expect(posted.length).toBe(2);
    expect(posted.every((m) => (m.text ?? '').length <= 4096)).toBe(true);
    expect(posted.at(-1)?.text?.endsWith('end')).toBe(true);
  });

  it('names HANDOFF_TELEGRAM_CHAT when the bot may not manage topics', async () => {
    stack = await startSharedDoor({ forum: { canManageTopics: false } });
    const error = await rejection(stack.door.open(CARD));
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toMatch(
      /not enough rights.*HANDOFF_TELEGRAM_CHAT.*admin allowed to manage topics/,
    );
  });

  it("passes Telegram's 429 on as rate-limited with its wait", async () => {
    stack = await startSharedDoor();
    const thread = await stack.door.open(CARD);
    stack.fake.failNext('sendMessage', { errorCode: 429, retryAfter: 7 });
    const error = (await rejection(stack.door.post(thread, { markdown: 'hi' }))) as PlatformError;
    expect([error.kind, error.retryAfterMs]).toEqual(['rate-limited', 7000]);
  });

  it('works with a public group named by @username', async () => {
    stack = await startSharedDoor({ forum: { username: 'acme_support' }, chat: '@acme_support' });
    const thread: ThreadRef = await stack.door.open(CARD);
    expect(thread.url).toBe(`https://t.me/acme_support/${thread.id}`);
    stack.fake.memberWrites({ chat: FORUM, thread: Number(thread.id), from: ANA, text: 'on it' });
    await stack.fake.waitFor(() => stack!.sink.messages.length === 1, { what: 'the operator message' });
  });
});
