/**
 * The door's other two set-ups: its own app over Socket Mode (Bolt against the fake's socket),
 * and the bot's own Slack app, whose adapter hands the operators' channel to the door while
 * everything else (a user's DM) still goes to the bot's intake. And the one it cannot have:
 * no app at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { slackOperatorDoor } from '../../../../adapters/slack/operators/module.js';
import type { ThreadCard } from '../../../../src/contract.js';
import { silentLogger } from '../../../../src/logger.js';
import { platformStorage } from '../../../../src/runtime/platform-storage.js';
import { MemoryStateStore } from '../../../../src/state/index.js';
import { OPERATOR, OPS_CHANNEL, startDoorStack, type DoorStack } from './door-stack.js';

const CARD: ThreadCard = {
  title: 'Luis · Telegram',
  markdown: 'Asked for a person',
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

describe('the Slack operator door, its own app over Socket Mode', () => {
  it('hands a reply in the thread and a press on the card to the handoff', async () => {
    stack = await startDoorStack({ setup: 'socket' });
    const { door, fake, sink, deliver } = stack;
    expect(door.routes).toEqual([]);
    const thread = await door.open(CARD);
    await deliver(fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: OPERATOR.id, text: 'hello' }));
    await deliver(
      fake.humanPresses({
        channel: OPS_CHANNEL,
        messageTs: thread.id,
        actionId: 'chatbridge_operator_claim',
        user: OPERATOR.id,
      }),
    );
    await fake.waitFor(() => sink.messages.length === 1 && sink.actions.length === 1, {
      what: 'the reply and the press',
    });
    expect(sink.messages[0]).toMatchObject({ thread: thread.id, text: 'hello', operator: { name: 'Ana' } });
    expect(sink.actions[0]).toMatchObject({ thread: thread.id, kind: 'claim' });
  });

  it("hands Slack's redelivered envelope on with the same message id", async () => {
    stack = await startDoorStack({ setup: 'socket' });
    const { door, fake, sink, deliver } = stack;
    const thread = await door.open(CARD);
    const event = fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: OPERATOR.id, text: 'again' });
    await deliver(event);
    await deliver(event, { retryNum: 1 });
    await fake.waitFor(() => sink.messages.length === 2, { what: 'both deliveries' });
    expect(sink.messages.map((m) => m.messageId)).toEqual([event.event.ts, event.event.ts]);
  });
});

describe("the Slack operator door on the bot's own Slack app", () => {
  it("takes the operators' channel from the bot's adapter; a user's DM still goes to the bot", async () => {
    stack = await startDoorStack({ setup: 'shared' });
    const { door, fake, sink, intake, deliver } = stack;
    const thread = await door.open(CARD);
    const reply = fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: OPERATOR.id, text: 'I got it' });
    expect((await deliver(reply))?.status).toBe(200);
    const press = fake.humanPresses({
      channel: OPS_CHANNEL,
      messageTs: thread.id,
      actionId: 'chatbridge_operator_hand-back',
      user: OPERATOR.id,
    });
    expect((await deliver(press))?.status).toBe(200);
    // A mention of the bot in the operators' channel is the door's too (the bot does not answer there).
    expect(
      (await deliver(fake.build.appMention({ channel: OPS_CHANNEL, thread_ts: thread.id, text: 'hey' })))?.status,
    ).toBe(200);
    expect((await deliver(fake.build.messageIm({ channel: 'D0DM000001', text: 'Is the flat free?' })))?.status).toBe(
      200,
    );

    expect(sink.messages.map((m) => m.text)).toEqual(['I got it']);
    expect(sink.actions.map((a) => a.kind)).toEqual(['hand-back']);
    expect(intake.map((m) => [m.conversation.id, m.text])).toEqual([['D0DM000001', 'Is the flat free?']]);
  });

  it("takes the operators' channel from the bot's adapter over Socket Mode too", async () => {
    stack = await startDoorStack({ setup: 'shared-socket' });
    const { door, fake, sink, intake, deliver } = stack;
    const thread = await door.open(CARD);
    await deliver(fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: OPERATOR.id, text: 'mine' }));
    await deliver(
      fake.humanPresses({
        channel: OPS_CHANNEL,
        messageTs: thread.id,
        actionId: 'chatbridge_operator_claim',
        user: OPERATOR.id,
      }),
    );
    await deliver(fake.build.messageIm({ channel: 'D0DM000001', text: 'hello bot' }));
    await fake.waitFor(() => sink.messages.length === 1 && sink.actions.length === 1 && intake.length === 1, {
      what: 'the door and the intake each given theirs',
    });
    expect(sink.messages[0]).toMatchObject({ text: 'mine', operator: { name: 'Ana' } });
    expect(intake.map((m) => m.text)).toEqual(['hello bot']);
  });

  it('answers 500 for the channel while the door cannot take it, so that Slack sends it again', async () => {
    stack = await startDoorStack({ setup: 'shared' });
    const { door, fake, sink, deliver, intake } = stack;
    const thread = await door.open(CARD);
    sink.refusing = true;
    const reply = fake.humanWrites({ channel: OPS_CHANNEL, thread_ts: thread.id, user: OPERATOR.id, text: 'x' });
    expect((await deliver(reply))?.status).toBe(500);
    expect(intake).toEqual([]);
  });
});

describe('a Slack operator door without any Slack app', () => {
  it('cannot be created, and says which variable to set', () => {
    const context = {
      bot: 'main',
      logger: silentLogger(),
      storage: platformStorage(new MemoryStateStore(), 'slack', 'main'),
    };
    const section = slackOperatorDoor.configSection.parse({ channel: OPS_CHANNEL });
    expect(() => slackOperatorDoor.create(section, context)).toThrow(
      /HANDOFF_SLACK_BOT_TOKEN.*bots\[\]\.handoff\.slack\.botToken/,
    );
    const tokenOnly = slackOperatorDoor.configSection.parse({ channel: OPS_CHANNEL, botToken: 'xoxb-1' });
    expect(() => slackOperatorDoor.create(tokenOnly, context)).toThrow(
      /HANDOFF_SLACK_SIGNING_SECRET.*HANDOFF_SLACK_APP_TOKEN/,
    );
  });

  it('refuses a section that is not a channel id, or has an unknown key', () => {
    expect(slackOperatorDoor.configSection.safeParse({ channel: '#support' }).success).toBe(false);
    expect(slackOperatorDoor.configSection.safeParse({ channel: OPS_CHANNEL, chanel: 'x' }).success).toBe(false);
    expect(slackOperatorDoor.configSection.parse({ channel: 'G0PRIVATE1' })).toEqual({
      channel: 'G0PRIVATE1',
      mode: 'threads',
    });
  });
});
