/**
 * Messages as people write them on Slack, through the real adapter and the fake Slack: an edit or a
 * deletion revises the message it changes (never a new one, never the bot's own), a shared message
 * is carried as quoted, and `/chatbot stop`, "stop" in a DM and an agent session's stop button ask
 * the core to stop.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../adapters/slack/index.js';
import type { Inbound, InboundRevision } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import {
  signedEventRequest,
  slashCommandForm,
  startFakeSlack,
  type FakeSlack,
  type UserMessageEvent,
} from '../../../fakes/slack/index.js';
import { CollectingSink } from '../telegram/collecting-sink.js';

const DM = 'D0DM000001';
const CHANNEL = 'C0CHAN0001';
const ASSISTANT_THREAD = '1700000000.000100';

interface Setup {
  fake: FakeSlack;
  adapter: SlackAdapter;
  sink: CollectingSink;
  post(body: object): Promise<Response>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(): Promise<Setup> {
  const fake = await startFakeSlack({ rateLimits: false });
  cleanups.push(() => fake.close());
  const adapter = createSlackAdapter({
    bot: 'main',
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
    logger: silentLogger(),
  });
  const app = express();
  for (const route of adapter.routes) app.use(route.path, route.handler);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const sink = new CollectingSink();
  await adapter.start(sink);
  cleanups.push(() => adapter.stop());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (body: object): Promise<Response> => {
    const response = await signedEventRequest(`${base}/slack/events`, fake.signingSecret, body);
    expect(response.status).toBe(200);
    return response;
  };
  return { fake, adapter, sink, post };
}

const edited = (revision: InboundRevision): Inbound => {
  if (revision.kind !== 'edited') throw new Error(`expected an edit, got ${revision.kind}`);
  return revision.message;
};

describe('Slack adapter: edits and deletions', () => {
  it('hands an edited DM message to revise() in its new form, under its own ts, and never as a new message', async () => {
    const { fake, sink, post } = await setup();
    const original = fake.build.messageIm({ channel: DM, text: 'a 2 bedrom in Austin' });
    await post(original);
    await post(fake.build.messageChanged({ original: original.event, text: 'a 3 bedroom in Austin' }));
    expect(edited(await sink.nextRevision())).toMatchObject({
      conversation: { bot: 'main', platform: 'slack', id: DM },
      user: { id: original.event.user, team: fake.identity.teamId },
      text: 'a 3 bedroom in Austin',
      platformMessageId: original.event.ts,
      isGroup: false,
    });
    expect(sink.received.map((m) => m.text)).toEqual(['a 2 bedrom in Austin']);
  });

  it('hands a deleted DM message to revise() as deleted, with its conversation, user and ts', async () => {
    const { fake, sink, post } = await setup();
    const original = fake.build.messageIm({ channel: DM, text: 'never mind this one' });
    await post(original);
    await post(fake.build.messageDeleted({ original: original.event }));
    expect(await sink.nextRevision()).toEqual({
      kind: 'deleted',
      conversation: { bot: 'main', platform: 'slack', id: DM },
      user: { id: original.event.user, team: fake.identity.teamId },
      platformMessageId: original.event.ts,
    });
  });

  it("revises a message of a DM thread (the assistant pane's) in that thread's conversation", async () => {
    const { fake, sink, post } = await setup();
    const original = fake.build.messageIm({ channel: DM, thread_ts: ASSISTANT_THREAD, text: 'pets allowd?' });
    await post(original);
    await post(fake.build.messageChanged({ original: original.event, text: 'pets allowed?' }));
    await post(fake.build.messageDeleted({ original: original.event }));
    await sink.nextRevision((r) => r.kind === 'deleted');
    expect(
      sink.revisions.map((r) => [r.kind, r.kind === 'edited' ? r.message.conversation.id : r.conversation.id]),
    ).toEqual([
      ['edited', `${DM}:${ASSISTANT_THREAD}`],
      ['deleted', `${DM}:${ASSISTANT_THREAD}`],
    ]);
  });

  it("revises a mention in the mention's thread, and no message of a channel the bot does not answer in", async () => {
    const { fake, sink, post } = await setup();
    const chatter = fake.build.channelMessage({ channel: CHANNEL, text: 'lunch?' });
    await post(chatter);
    await post(fake.build.messageChanged({ original: chatter.event, text: 'lunch at 1?' }));
    const mention = fake.build.appMention({ channel: CHANNEL, text: 'any lofts?' });
    await post(mention);
    await post(
      fake.build.messageChanged({ original: mention.event, text: `<@${fake.identity.botUserId}> any lofts downtown?` }),
    );
    await sink.nextRevision();
    expect(sink.revisions.map((r) => [edited(r).conversation.id, edited(r).text, edited(r).platformMessageId])).toEqual(
      [[`${CHANNEL}:${mention.event.ts}`, 'any lofts downtown?', mention.event.ts]],
    );
  });

  it("takes none of the bot's own edits, nor Slack's changes that change nothing asked, as revisions", async () => {
    const { fake, sink, post } = await setup();
    const answer = fake.build.messageIm({ channel: DM, text: 'Here are three lofts', user: fake.identity.botUserId });
    const ownMessage: UserMessageEvent = { ...answer.event, bot_id: fake.identity.botId };
    await post(fake.build.messageChanged({ original: ownMessage, text: 'Here are three lofts in Austin' }));
    const question = fake.build.messageIm({ channel: DM, text: 'which has a garden?' });
    await post(question);
    // A reply in its thread: Slack sends the root again, changed only in what it counts.
    await post(fake.build.messageChanged({ original: { ...question.event, reply_count: 1 } }));
    await post(fake.build.messageChanged({ original: question.event, text: 'which has a garden and a garage?' }));
    await sink.nextRevision();
    expect(sink.revisions.map((r) => edited(r).text)).toEqual(['which has a garden and a garage?']);
  });

  it('revises over Socket Mode as over HTTP', async () => {
    const fake = await startFakeSlack({ rateLimits: false });
    cleanups.push(() => fake.close());
    const adapter = createSlackAdapter({
      bot: 'main',
      botToken: fake.botToken,
      appToken: fake.appToken,
      apiUrl: fake.apiUrl,
      logger: silentLogger(),
    });
    const sink = new CollectingSink();
    await adapter.start(sink);
    cleanups.push(() => adapter.stop());
    await fake.waitFor(() => fake.socket.openConnections() === 1, { what: 'the socket connection' });
    const original = fake.build.messageIm({ channel: DM, text: 'over the socket' });
    await fake.socket.waitForAck(fake.socket.pushEvent(original));
    fake.socket.pushEvent(fake.build.messageChanged({ original: original.event, text: 'over the socket, edited' }));
    expect(edited(await sink.nextRevision()).text).toBe('over the socket, edited');
  });
});

describe('Slack adapter: shared messages', () => {
  it("carries one of the bot's answers shared into a DM as quoted from the bot", async () => {
    const { fake, adapter, sink, post } = await setup();
    const listing = await adapter.outbound.send(
      { bot: 'main', platform: 'slack', id: DM },
      { text: '*Loft, Austin*: $2,100 a month' },
    );
    const shared = fake.messageToShare(DM, listing.id);
    await post(fake.build.messageShare({ channel: DM, text: 'how much is this one with parking?', shared }));
    expect(await sink.next()).toMatchObject({
      text: 'how much is this one with parking?',
      quoted: { text: '*Loft, Austin*: $2,100 a month', from: 'bot' },
    });
  });

  it("carries a person's message shared into a DM as quoted from that user, by name", async () => {
    const { fake, sink, post } = await setup();
    fake.addUser({ id: 'U0GRACE001', real_name: 'Grace Hopper' });
    const written = fake.humanWrites({ channel: CHANNEL, user: 'U0GRACE001', text: 'Is the loft near the river?' });
    const shared = fake.messageToShare(CHANNEL, written.event.ts);
    await post(fake.build.messageShare({ channel: DM, text: 'same question', shared }));
    expect((await sink.next()).quoted).toEqual({
      text: 'Is the loft near the river?',
      from: 'user',
      author: 'Grace Hopper',
    });
  });

  it('revises a message whose pasted link to a message Slack unfurled after it was posted, with what it quotes', async () => {
    const { fake, adapter, sink, post } = await setup();
    const listing = await adapter.outbound.send({ bot: 'main', platform: 'slack', id: DM }, { text: 'Loft, Austin' });
    const original = fake.build.messageIm({
      channel: DM,
      text: 'how much is <https://fakeworkspace.slack.com/archives/x>?',
    });
    await post(original);
    await post(fake.build.messageChanged({ original: original.event, unfurled: fake.messageToShare(DM, listing.id) }));
    expect(edited(await sink.nextRevision())).toMatchObject({
      platformMessageId: original.event.ts,
      quoted: { text: 'Loft, Austin', from: 'bot' },
    });
  });

  it('carries no quote on a message that shares nothing', async () => {
    const { fake, sink, post } = await setup();
    await post(fake.build.messageIm({ channel: DM, text: 'hello' }));
    expect((await sink.next()).quoted).toBeUndefined();
  });
});

describe('Slack adapter: stop', () => {
  it('turns `/chatbot stop`, and "stop" written in a DM or its thread, into /stop in that conversation', async () => {
    const { fake, sink, post } = await setup();
    await post(slashCommandForm(fake.build.slashCommand({ command: '/chatbot', text: 'stop', channel: DM })));
    await post(fake.build.messageIm({ channel: DM, text: 'Stop' }));
    await post(fake.build.messageIm({ channel: DM, thread_ts: ASSISTANT_THREAD, text: 'stop' }));
    await post(fake.build.messageIm({ channel: DM, text: 'stop showing me lofts' }));
    expect(sink.received.map((m) => [m.conversation.id, m.text])).toEqual([
      [DM, '/stop'],
      [DM, '/stop'],
      [`${DM}:${ASSISTANT_THREAD}`, '/stop'],
      [DM, 'stop showing me lofts'],
    ]);
  });

  it("turns an agent session's stop button into /stop in the session's thread, once per press", async () => {
    const { fake, sink, post } = await setup();
    const press = fake.build.agentSessionStopped({ channel: DM, thread_ts: ASSISTANT_THREAD });
    await post(press);
    expect(await sink.next()).toMatchObject({
      conversation: { bot: 'main', platform: 'slack', id: `${DM}:${ASSISTANT_THREAD}` },
      user: { id: 'U0USER0001' },
      text: '/stop',
      platformMessageId: `agent-session-stopped:${String(press.event.event_ts)}`,
    });
  });
});
