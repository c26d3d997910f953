import { afterEach, describe, expect, it } from 'vitest';
import { ANA, CARD, FORUM, startSharedDoor, type SharedDoorStack } from './door-stack.js';

let stack: SharedDoorStack | undefined;

afterEach(async () => {
  await stack?.stop();
  stack = undefined;
});

/** Waits until `predicate` holds, checked on each change of the fake. */
const until = (predicate: () => boolean, what: string) => stack!.fake.waitFor(predicate, { what });

async function openTopic(options: Parameters<typeof startSharedDoor>[0] = {}): Promise<number> {
  stack = await startSharedDoor(options);
  return Number((await stack.door.open(CARD)).id);
}

describe.each(['polling', 'webhook'] as const)('Telegram operator door on the bot of its own adapter (%s)', (mode) => {
  it("hands a person's message in a topic to the sink under their first and last name", async () => {
    const thread = await openTopic({ mode });
    const update = stack!.fake.memberWrites({ chat: FORUM, thread, from: ANA, text: 'Hi Ada, I can help.' });
    await until(() => stack!.sink.messages.length === 1, 'the operator message');
    expect(stack!.sink.messages[0]).toEqual({
      thread: String(thread),
      messageId: `${FORUM}:${update.message.message_id}`,
      operator: { id: String(ANA.id), name: 'Ana Pérez' },
      text: 'Hi Ada, I can help.',
      files: [],
      sentAt: update.message.date * 1000,
    });
  });

  it("keeps the operators' group away from the users' intake, and a user's private chat away from the door", async () => {
    const thread = await openTopic({ mode });
    stack!.fake.memberWrites({ chat: FORUM, thread, from: ANA, text: 'for the user' });
    stack!.fake.userSends({ chat: 42, from: { id: 42, first_name: 'Ada' }, text: 'hello bot' });
    await stack!.intake.next((m) => m.text === 'hello bot');
    await until(() => stack!.sink.messages.length === 1, 'the operator message');
    expect(stack!.intake.received.map((m) => m.text)).toEqual(['hello bot']);
    expect(stack!.sink.messages.map((m) => m.text)).toEqual(['for the user']);
  });

  it('delivers a message the handoff could not take at first, once, when it can', async () => {
    const thread = await openTopic({ mode });
    stack!.sink.failuresToCome = 2;
    const update = stack!.fake.memberWrites({ chat: FORUM, thread, from: ANA, text: 'while Redis is down' });
    await until(() => stack!.sink.messages.length === 1, 'the message after the outage');
    expect(stack!.sink.failed).toBe(2);
    expect(stack!.sink.messages.map((m) => m.messageId)).toEqual([`${FORUM}:${update.message.message_id}`]);
    // Polling tried it again itself; a webhook answered 500 and Telegram sent it again (the fake
    // records an answer once it has arrived, after the door handled the message).
    const attempts = () => stack!.fake.webhookAttempts().filter((a) => a.update_id === update.update_id);
    const expected = mode === 'webhook' ? [500, 500, 200] : [];
    await until(() => attempts().length === expected.length, "the webhook's attempts");
    expect(attempts().map((a) => a.status)).toEqual(expected);
  });
});

describe('Telegram operator door: what people write and press', () => {
  it('gives a redelivered update the same messageId', async () => {
    const thread = await openTopic();
    const update = stack!.fake.memberWrites({ chat: FORUM, thread, from: ANA, text: 'once' });
    await until(() => stack!.sink.messages.length === 1, 'the first delivery');
    stack!.fake.redeliver(update);
    await until(() => stack!.sink.messages.length === 2, 'the redelivery');
    const [first, again] = stack!.sink.messages;
    expect(again?.messageId).toBe(first?.messageId);
  });

  it('names an operator without a last name by first name, and one without names by username', async () => {
    const thread = await openTopic();
    stack!.fake.memberWrites({ chat: FORUM, thread, from: { id: 7, first_name: 'Bo' }, text: 'a' });
    stack!.fake.memberWrites({ chat: FORUM, thread, from: { id: 8, first_name: '', username: 'cy' }, text: 'b' });
    await until(() => stack!.sink.messages.length === 2, 'both messages');
    expect(stack!.sink.messages.map((m) => m.operator.name)).toEqual(['Bo', 'cy']);
  });

  it('turns /handback, /handback@<bot> and /claim into actions', async () => {
    const thread = await openTopic();
    const bot = stack!.fake.botInfo.username;
    const claim = stack!.fake.memberWrites({ chat: FORUM, thread, from: ANA, text: '/claim' });
    stack!.fake.memberWrites({ chat: FORUM, thread, from: ANA, text: `/handback@${bot}` });
    stack!.fake.memberWrites({ chat: FORUM, thread, from: ANA, text: '/handback@another_bot' });
    stack!.fake.memberWrites({ chat: FORUM, thread, from: ANA, text: '/handback' });
    await until(() => stack!.sink.actions.length === 3, 'three actions');
    expect(stack!.sink.actions.map((a) => a.kind)).toEqual(['claim', 'hand-back', 'hand-back']);
    expect(stack!.sink.actions[0]).toEqual({
      thread: String(thread),
      kind: 'claim',
      operator: { id: String(ANA.id), name: 'Ana Pérez' },
      actionId: `${FORUM}:${claim.message.message_id}`,
    });
    expect(stack!.sink.messages).toEqual([]);
  });

  it("turns a press of the card's buttons into its action and answers the press", async () => {
    stack = await startSharedDoor();
    const ref = await stack.door.open(CARD);
    const card = stack.fake
      .topicMessages(FORUM, Number(ref.id))
      .find((m) => String(m.message_id) === ref.cardMessageId);
    const handBack = card?.reply_markup?.inline_keyboard.flat().find((b) => b.text === 'Hand back');
    const data = handBack && 'callback_data' in handBack ? (handBack.callback_data ?? '') : '';
    const press = stack.fake.pressButton({ chat: FORUM, messageId: Number(ref.cardMessageId), data, from: ANA });
    await until(() => stack!.sink.actions.length === 1, 'the press');
    expect(stack.sink.actions[0]).toEqual({
      thread: ref.id,
      kind: 'hand-back',
      operator: { id: String(ANA.id), name: 'Ana Pérez' },
      actionId: `callback:${press.callback_query.id}`,
    });
    await until(
      () => stack!.fake.callbackAnswer(press.callback_query.id)?.answered === true,
      'the answer to the press',
    );
  });

  it("drops other bots' messages, its own service messages, and the General topic", async () => {
    const thread = await openTopic();
    const { fake } = stack!;
    fake.memberWrites({
      chat: FORUM,
      thread,
      from: { id: 9, is_bot: true, first_name: 'Other bot' } as never,
      text: 'beep',
    });
    fake.userSends({ chat: { id: FORUM, is_forum: true }, from: ANA, text: 'in General' });
    fake.memberWrites({ chat: FORUM, thread, from: ANA, text: 'last' });
    await until(() => stack!.sink.messages.length >= 1, 'the last message');
    // The topic's creation (a service message from the bot itself) came before all of these.
    expect(fake.topicMessages(FORUM, thread)[0]?.forum_topic_created).toBeDefined();
    expect(stack!.sink.messages.map((m) => m.text)).toEqual(['last']);
    expect(stack!.intake.received).toEqual([]);
  });

  it("hands an operator's photo (its largest size) and document as files fetched on demand", async () => {
    const thread = await openTopic();
    const { fake } = stack!;
    const small = fake.addFile(new Uint8Array([1]), { mimeType: 'image/jpeg' });
    const large = fake.addFile(new Uint8Array([1, 2, 3]), { mimeType: 'image/jpeg' });
    const pdf = fake.addFile(new Uint8Array([37, 80, 68, 70]), { fileName: 'terms.pdf', mimeType: 'application/pdf' });
    fake.memberWrites({ chat: FORUM, thread, from: ANA, photo: [small, large], caption: 'the floor plan' });
    fake.memberWrites({ chat: FORUM, thread, from: ANA, document: pdf });
    await until(() => stack!.sink.messages.length === 2, 'both files');
    const [photo, document] = stack!.sink.messages;
    expect(photo?.text).toBe('the floor plan');
    expect(photo?.files.map((f) => f.kind)).toEqual(['image']);
    expect(await photo?.files[0]?.fetch({ maxBytes: 1024 })).toEqual(new Uint8Array([1, 2, 3]));
    expect(document).toMatchObject({
      text: '',
      files: [{ kind: 'document', fileName: 'terms.pdf', mimeType: 'application/pdf' }],
    });
    expect(await document?.files[0]?.fetch({ maxBytes: 1024 })).toEqual(new Uint8Array([37, 80, 68, 70]));
  });
});
