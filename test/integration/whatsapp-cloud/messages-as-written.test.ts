/**
 * Messages as people write them on the WhatsApp Cloud API, through the adapter on the fake Cloud
 * API: a reply to one of the bot's messages carries what it said (Meta names it by wamid only, so
 * the adapter keeps the text of what it sends, in Redis, for any replica); a user's edit and revoke
 * (posted as such for a Coexistence number, as `unsupported` otherwise) are never a new question,
 * and reach the core as revisions where Meta says what changed; "stop" is the /stop command.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SENT_TEXT_MAX_CHARS } from '../../../adapters/whatsapp-cloud/sent-texts.js';
import type { ConversationRef, Inbound, InboundRevision } from '../../../src/contract.js';
import { startCloudStack, type CloudStack } from './cloud-stack.js';

const USER = '4915112345678';
const OTHER = '4917600000002';
const conversation: ConversationRef = { bot: 'main', platform: 'whatsapp-cloud', id: USER };
const LISTING = '*Oak Street 12*\n3 bedrooms, 2 baths, $420,000';

const stacks: CloudStack[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
});
async function setup(options: { coexistence?: boolean } = {}): Promise<CloudStack> {
  const stack = await startCloudStack({ fake: { coexistence: options.coexistence ?? false } });
  stacks.push(stack);
  return stack;
}

/** The core's Inbound for a wamid. */
const acceptedAs = (stack: CloudStack, wamid: string): Promise<Inbound> =>
  stack.sink.next((message) => message.platformMessageId === wamid);

/** The user wrote (the 24-hour window is open), then the bot sent `text`; its wamid. */
async function botSays(stack: CloudStack, text: string, from = USER): Promise<string> {
  await acceptedAs(stack, await stack.fake.userSends({ from, text: 'hi' }));
  const sent = await stack.adapter.outbound.send({ ...conversation, id: from }, { text });
  return sent.id;
}

describe('replies', () => {
  it("carries the bot's message a reply quotes, as the bot's, by the text the adapter kept of what it sent", async () => {
    const stack = await setup();
    const listing = await botSays(stack, LISTING);
    const reply = await stack.fake.userSends({ from: USER, text: 'how much is this one?', replyTo: listing });
    const inbound = await acceptedAs(stack, reply);
    expect(inbound.text).toBe('how much is this one?');
    expect(inbound.quoted).toEqual({ text: LISTING, from: 'bot' });
  });

  it('keeps the first 500 characters of a long message, enough to know which it was', async () => {
    const stack = await setup();
    const long = `${'A long answer about Austin. '.repeat(40)}The end.`;
    const sent = await botSays(stack, long);
    const reply = await stack.fake.userSends({ from: USER, text: 'and the second point?', replyTo: sent });
    const { quoted } = await acceptedAs(stack, reply);
    expect(quoted?.from).toBe('bot');
    expect(quoted?.text).toHaveLength(SENT_TEXT_MAX_CHARS);
    expect(long.startsWith(quoted!.text)).toBe(true);
  });

  it('knows what another replica of the bot sent: the text is kept in Redis, not in the process', async () => {
    const stack = await setup();
    await acceptedAs(stack, await stack.fake.userSends({ from: USER, text: 'hi' }));
    const sent = await stack.replica().outbound.send(conversation, { text: LISTING });
    const reply = await stack.fake.userSends({ from: USER, text: 'this one', replyTo: sent.id });
    expect((await acceptedAs(stack, reply)).quoted).toEqual({ text: LISTING, from: 'bot' });
  });

  it("carries no quote for a reply to the user's own message: Meta gives only its id, and the chatbot had its words", async () => {
    const stack = await setup();
    const own = await stack.fake.userSends({ from: USER, text: 'a 3 bedroom in Austin' });
    await acceptedAs(stack, own);
    const reply = await stack.fake.userSends({ from: USER, text: 'with a garden', replyTo: own });
    expect((await acceptedAs(stack, reply)).quoted).toBeUndefined();
  });

  it('never quotes a message the bot sent someone else, whatever the webhook names', async () => {
    const stack = await setup();
    const toUser = await botSays(stack, LISTING);
    await acceptedAs(stack, await stack.fake.userSends({ from: OTHER, text: 'hello' }));
    const reply = await stack.fake.userSends({ from: OTHER, text: 'and this?', replyTo: toUser });
    expect((await acceptedAs(stack, reply)).quoted).toBeUndefined();
  });

  it('takes a button pressed as the button, not as a quote of the message that carried it', async () => {
    const stack = await setup();
    const listing = await botSays(stack, LISTING);
    const pressed = await stack.fake.userSends({
      from: USER,
      buttonReply: { id: 'a:listings:2:', title: 'Next »', contextId: listing },
    });
    const inbound = await acceptedAs(stack, pressed);
    expect(inbound.action).toMatchObject({ value: 'listings:2:' });
    expect(inbound.quoted).toBeUndefined();
  });
});

describe('edits and revokes on a Coexistence number', () => {
  it('hands an edit to the core as the message as it reads now, under its original wamid, never as a new question', async () => {
    const stack = await setup({ coexistence: true });
    const original = await stack.fake.userSends({ from: USER, name: 'Ada', text: 'a 3 bedroom in Austni' });
    await acceptedAs(stack, original);
    const edit = await stack.fake.userSends({
      from: USER,
      name: 'Ada',
      edit: { messageId: original, text: 'a 3 bedroom in Austin' },
    });
    const revision = await stack.sink.nextRevision();
    expect(revision).toMatchObject({
      kind: 'edited',
      message: {
        conversation,
        user: { id: USER, name: 'Ada' },
        text: 'a 3 bedroom in Austin',
        platformMessageId: original,
        addressed: true,
      },
    });
    expect(edit).not.toBe(original);
    expect(stack.sink.received.map((message) => message.platformMessageId)).not.toContain(edit);
    expect(
      stack.sink.calls.map((call) => ('accepted' in call ? call.accepted.platformMessageId : call.revised.kind)),
    ).toEqual([expect.stringMatching(/^welcome:/), original, 'edited']);
  });

  it('reads an edited text as any text: a command word becomes the command, a reply keeps its quote', async () => {
    const stack = await setup({ coexistence: true });
    const listing = await botSays(stack, LISTING);
    const reply = await stack.fake.userSends({ from: USER, text: 'how mcuh?', replyTo: listing });
    await acceptedAs(stack, reply);
    await stack.fake.userSends({ from: USER, edit: { messageId: reply, text: 'how much?' } });
    expect(await stack.sink.nextRevision()).toMatchObject({
      kind: 'edited',
      message: { text: 'how much?', quoted: { text: LISTING, from: 'bot' } },
    });
    const word = await stack.fake.userSends({ from: USER, text: 'hlep' });
    await acceptedAs(stack, word);
    await stack.fake.userSends({ from: USER, edit: { messageId: word, text: 'Help' } });
    const second = await stack.sink.nextRevision(
      (revision) => revision.kind === 'edited' && revision.message.platformMessageId === word,
    );
    expect(second.kind === 'edited' && second.message.text).toBe('/help');
  });

  it('hands a revoke to the core as the deletion of the original wamid, never as a new question', async () => {
    const stack = await setup({ coexistence: true });
    const original = await stack.fake.userSends({ from: USER, name: 'Ada', text: 'never mind' });
    await acceptedAs(stack, original);
    const revoke = await stack.fake.userSends({ from: USER, name: 'Ada', revoke: { messageId: original } });
    expect(await stack.sink.nextRevision()).toEqual<InboundRevision>({
      kind: 'deleted',
      conversation,
      user: { id: USER, name: 'Ada' },
      platformMessageId: original,
    });
    expect(stack.sink.received.map((message) => message.platformMessageId)).not.toContain(revoke);
  });
});

describe('edits and revokes on a number on the Cloud API alone', () => {
  it('acknowledges them (Meta posts them as unsupported, saying nothing of what changed) and answers neither', async () => {
    const stack = await setup();
    const original = await stack.fake.userSends({ from: USER, text: 'a 3 bedroom in Austni' });
    await acceptedAs(stack, original);
    await stack.fake.userSends({ from: USER, edit: { messageId: original, text: 'a 3 bedroom in Austin' } });
    await stack.fake.userSends({ from: USER, revoke: { messageId: original } });
    // Every webhook answered 200 (or Meta would post them again for a week), and in the user's
    // order: once a later message is in, the two before it were dealt with.
    await acceptedAs(stack, await stack.fake.userSends({ from: USER, text: 'anything in Dallas?' }));
    expect(stack.fake.webhookAttempts().map((attempt) => attempt.status)).toEqual([200, 200, 200, 200]);
    expect(stack.sink.received.map((message) => message.text).filter((text) => !text.startsWith('/'))).toEqual([
      'a 3 bedroom in Austni',
      'anything in Dallas?',
    ]);
    expect(stack.sink.revisions).toEqual([]);
  });
});

describe('stop', () => {
  it('takes "stop" as the /stop command when the core answers it, and a sentence with it as a question', async () => {
    const stack = await setup();
    expect((await acceptedAs(stack, await stack.fake.userSends({ from: USER, text: 'Stop' }))).text).toBe('/stop');
    const question = await stack.fake.userSends({ from: USER, text: 'stop showing me Austin' });
    expect((await acceptedAs(stack, question)).text).toBe('stop showing me Austin');
  });
});
