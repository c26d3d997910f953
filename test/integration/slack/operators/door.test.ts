/**
 * The Slack operator door with its own app over HTTP: a thread per handoff in the operators'
 * channel, the card at its root; what people write in the thread and press on the card
 * reaches the handoff, named as Slack names them; everything else in the channel does not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PlatformError, type ThreadCard } from '../../../../src/contract.js';
import { OPERATOR, OPS_CHANNEL, startDoorStack, type DoorStack } from './door-stack.js';

const CARD: ThreadCard = {
  title: 'Ana Pérez · WhatsApp',
  markdown: '**User:** Ana Pérez (+34 600 000 000)\n\n**Why:** asked for a person\n\n> I need help with my booking',
  actions: [
    { kind: 'claim', label: 'Claim' },
    { kind: 'hand-back', label: 'Hand back' },
  ],
};

let stack: DoorStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const sectionText = (blocks: unknown[] | undefined): string =>
  ((blocks ?? []).find((b) => (b as { type: string }).type === 'section') as { text: { text: string } }).text.text;
const buttons = (blocks: unknown[] | undefined): { action_id: string; text: { text: string } }[] =>
  ((blocks ?? []).find((b) => (b as { type: string }).type === 'actions') as { elements?: never[] } | undefined)
    ?.elements ?? [];

describe('the Slack operator door, its own app over HTTP', () => {
  it('opens a thread with the card at its root, with a permalink, and updates the card in place', async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake } = stack;
    const thread = await door.open(CARD);
    expect(thread.id).toBe(thread.cardMessageId);
    expect(thread.url).toMatch(new RegExp(`/archives/${OPS_CHANNEL}/p\\d+$`));
    const [card] = fake.visibleMessages(OPS_CHANNEL);
    expect(card!.text).toBe(CARD.title);
    expect(sectionText(card!.blocks)).toContain('*User:* Ana Pérez');
    expect(buttons(card!.blocks).map((b) => b.text.text)).toEqual(['Claim', 'Hand back']);

    await door.updateCard(thread, { ...CARD, markdown: 'Handed back by Ana at 10:02', actions: [] });
    const [updated] = fake.visibleMessages(OPS_CHANNEL);
    expect(updated!.edits).toBe(1);
    expect(sectionText(updated!.blocks)).toBe('Handed back by Ana at 10:02');
    expect(buttons(updated!.blocks)).toEqual([]);
    await expect(door.close(thread)).resolves.toBeUndefined();
  });

  it("posts into the thread in mrkdwn, a long text in several messages within Slack's limit", async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake } = stack;
    const thread = await door.open(CARD);
    await door.post(thread, { markdown: 'The user says: **urgent**, see [the booking](https://example.com/b/1)' });
    await door.post(thread, { markdown: 'word '.repeat(1500) });
    const replies = fake.threadMessages(OPS_CHANNEL, thread.id).filter((m) => m.ts !== thread.id);
    expect(replies[0]!.text).toBe('The user says: *urgent*, see <https://example.com/b/1|the booking>');
    expect(replies.length).toBeGreaterThanOrEqual(4);
    expect(replies.every((m) => m.text.length <= 3000)).toBe(true);
  });

  it("waits out Slack's rate limit between a long post's messages, so none is posted twice or lost", async () => {
    const rateLimits = { 'chat.postMessage': { perMinute: 60, burst: 2, per: 'channel' as const } };
    stack = await startDoorStack({ setup: 'http', fake: { rateLimits } });
    const { door, fake } = stack;
    const thread = await door.open(CARD);
    await door.post(thread, { markdown: Array.from({ length: 1500 }, (_, i) => `w${i}`).join(' ') });
    const replies = fake.visibleMessages(OPS_CHANNEL, thread.id).map((m) => m.text);
    expect(fake.tooManyRequestsCount()).toBeGreaterThan(0);
    expect(replies.length).toBeGreaterThanOrEqual(3);
    expect(replies.join(' ').split(/\s+/)).toEqual(Array.from({ length: 1500 }, (_, i) => `w${i}`));
  });

  it("hands a person's reply in the thread to the handoff, named by users.info, with their e-mail", async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake, sink, deliver } = stack;
    const thread = await door.open(CARD);
    const event = fake.humanWrites({
      channel: OPS_CHANNEL,
      thread_ts: thread.id,
      user: OPERATOR.id,
      text: 'Hi, *Ana* here',
    });
    expect((await deliver(event))?.status).toBe(200);
    expect(sink.messages).toEqual([
      expect.objectContaining({
        thread: thread.id,
        messageId: event.event.ts,
        operator: { id: OPERATOR.id, name: 'Ana', email: 'ana@example.com' },
        text: 'Hi, **Ana** here',
        files: [],
      }),
    ]);
  });

  it('names an operator by their real name without a display name, and by their id when Slack does not know them', async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake, sink, deliver } = stack;
    fake.addUser({ id: 'U0OPER0002', real_name: 'Luis Gómez' });
    const thread = await door.open(CARD);
    await deliver(fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: 'U0OPER0002', text: 'a' }));
    await deliver(fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: 'U0NOBODY01', text: 'b' }));
    expect(sink.messages.map((m) => m.operator)).toEqual([
      { id: 'U0OPER0002', name: 'Luis Gómez' },
      { id: 'U0NOBODY01', name: 'U0NOBODY01' },
    ]);
  });

  it("drops the door's own posts, other bots', edits and the channel's top level", async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake, sink, deliver } = stack;
    const thread = await door.open(CARD);
    const own = fake.build.threadMessage({
      channel: OPS_CHANNEL,
      thread_ts: thread.id,
      user: fake.identity.botUserId,
      text: 'echo',
    });
    (own.event as Record<string, unknown>).bot_id = fake.identity.botId;
    const bot = fake.build.botMessage({ channel: OPS_CHANNEL, thread_ts: thread.id, text: 'another bot' });
    const edit = fake.build.messageChanged({ channel: OPS_CHANNEL, ts: thread.id, text: 'edited' });
    const topLevel = fake.humanWrites({ channel: OPS_CHANNEL, user: OPERATOR.id, text: 'anyone around?' });
    // A file the door uploaded comes back as a file_share of the app's own user, without bot_id.
    const ownUpload = fake.humanWrites({
      channel: OPS_CHANNEL,
      thread_ts: thread.id,
      user: fake.identity.botUserId,
      text: '',
      files: [fake.addFile(new Uint8Array([1]), { name: 'a.bin', mimetype: 'application/octet-stream' })],
    });
    const elsewhere = fake.humanWrites({ channel: 'C0OTHER001', thread_ts: thread.id, user: OPERATOR.id, text: 'x' });
    for (const body of [own, bot, edit, topLevel, ownUpload, elsewhere])
      expect((await deliver(body))?.status).toBe(200);
    expect(sink.messages).toEqual([]);
  });

  it('hands Claim and Hand back presses on the card to the handoff, with the press as its id', async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake, sink, deliver } = stack;
    const thread = await door.open(CARD);
    const claim = fake.humanPresses({
      channel: OPS_CHANNEL,
      messageTs: thread.cardMessageId,
      actionId: 'chatbridge_operator_claim',
      user: OPERATOR.id,
    });
    const handBack = fake.humanPresses({
      channel: OPS_CHANNEL,
      messageTs: thread.cardMessageId,
      actionId: 'chatbridge_operator_hand-back',
      user: OPERATOR.id,
    });
    expect((await deliver(claim))?.status).toBe(200);
    expect((await deliver(handBack))?.status).toBe(200);
    const actionTs = (press: Record<string, unknown>) => (press.actions as { action_ts: string }[])[0]!.action_ts;
    expect(sink.actions).toEqual([
      {
        thread: thread.id,
        kind: 'claim',
        operator: expect.objectContaining({ name: 'Ana' }),
        actionId: `${thread.id}:${actionTs(claim)}`,
      },
      {
        thread: thread.id,
        kind: 'hand-back',
        operator: expect.objectContaining({ name: 'Ana' }),
        actionId: `${thread.id}:${actionTs(handBack)}`,
      },
    ]);
  });

  it("hands Slack's redelivery of a reply on again with the same message id (the handoff drops it)", async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake, sink, deliver } = stack;
    const thread = await door.open(CARD);
    const event = fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: OPERATOR.id, text: 'on it' });
    await deliver(event);
    expect((await deliver(event, { retryNum: 1 }))?.status).toBe(200);
    expect(sink.messages.map((m) => m.messageId)).toEqual([event.event.ts, event.event.ts]);
  });

  it('answers 500 when the handoff could not take a reply, so that Slack sends it again', async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake, sink, deliver } = stack;
    const thread = await door.open(CARD);
    sink.refusing = true;
    const event = fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: OPERATOR.id, text: 'hello?' });
    expect((await deliver(event))?.status).toBe(500);
    sink.refusing = false;
    expect((await deliver(event, { retryNum: 1 }))?.status).toBe(200);
    expect(sink.messages.map((m) => m.text)).toEqual(['hello?']);
  });

  it("answers Slack's url_verification and refuses an unsigned request", async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { fake, eventsUrl } = stack;
    const verified = await fake.postSigned(eventsUrl!, fake.build.urlVerification('abc'));
    expect(await verified.json()).toEqual({ challenge: 'abc' });
    const forged = await fake.postSigned(eventsUrl!, fake.build.urlVerification('abc'), { signWith: 'wrong' });
    expect(forged.status).toBe(401);
  });

  it("names HANDOFF_SLACK_CHANNEL when the app is not in the channel, and keeps Slack's rate limit as one", async () => {
    stack = await startDoorStack({ setup: 'http' });
    const { door, fake } = stack;
    fake.addConversation({ id: OPS_CHANNEL, name: 'support', is_member: false });
    const refused = await door.open(CARD).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PlatformError);
    expect(refused).toMatchObject({
      kind: 'not-found',
      message: expect.stringMatching(/not_in_channel.*HANDOFF_SLACK_CHANNEL/),
    });

    fake.addConversation({ id: OPS_CHANNEL, name: 'support' });
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    await expect(door.open(CARD)).rejects.toMatchObject({ kind: 'rate-limited', retryAfterMs: 7000 });
    fake.failNext('chat.postMessage', { error: 'invalid_auth' });
    await expect(door.open(CARD)).rejects.toMatchObject({
      kind: 'unauthorized',
      message: expect.stringContaining('HANDOFF_SLACK_BOT_TOKEN'),
    });
  });

  it('opens a thread without a link when Slack gives no permalink', async () => {
    stack = await startDoorStack({ setup: 'http' });
    stack.fake.failNext('chat.getPermalink', { error: 'internal_error' });
    const thread = await stack.door.open(CARD);
    expect(thread.url).toBeUndefined();
    expect(thread.id).toMatch(/^\d+\.\d+$/);
  });
});

describe('the Slack operator door in alerts mode', () => {
  it('posts the card, reports no messages, and still hands a press on', async () => {
    stack = await startDoorStack({ setup: 'http', mode: 'alerts' });
    const { door, fake, sink, deliver } = stack;
    expect(door.relays).toBe(false);
    const thread = await door.open(CARD);
    await deliver(fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: OPERATOR.id, text: 'hi' }));
    await deliver(
      fake.humanPresses({
        channel: OPS_CHANNEL,
        messageTs: thread.id,
        actionId: 'chatbridge_operator_claim',
        user: OPERATOR.id,
      }),
    );
    expect(sink.messages).toEqual([]);
    expect(sink.actions.map((a) => a.kind)).toEqual(['claim']);
  });
});
