/**
 * The Slack adapter on its own, against the fake Slack: what it acknowledges (and
 * when it makes Slack send an event again), and how each Web API refusal reaches the
 * core as a PlatformError kind.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../adapters/slack/index.js';
import { PlatformError } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { signedEventRequest, slashCommandForm, startFakeSlack, type FakeSlack } from '../../../fakes/slack/index.js';
import { CollectingSink } from '../telegram/collecting-sink.js';

const DM = 'D0DM000001';
/** How long a later message is given to overtake an earlier one that waits on Slack (it must not). */
const OVERTAKING_CHANCE_MS = 500;
const conversation = (id: string) => ({ bot: 'main', platform: 'slack', id });

interface Setup {
  fake: FakeSlack;
  adapter: SlackAdapter;
  sink: CollectingSink;
  post(body: object, options?: Parameters<typeof signedEventRequest>[3]): Promise<Response>;
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
  return {
    fake,
    adapter,
    sink,
    post: (body, options) => signedEventRequest(`${base}/slack/events`, fake.signingSecret, body, options),
  };
}

async function refusal(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

describe('Slack adapter (HTTP Events mode)', () => {
  it('answers 500 when the message could not be queued, so that Slack sends it again; the retry is queued', async () => {
    const { fake, sink, post, adapter } = await setup();
    expect(adapter.redeliversOnAcceptFailure).toBe(true);
    sink.failuresToCome = 1;
    const event = fake.build.messageIm({ channel: DM, text: 'hello' });
    expect((await post(event)).status).toBe(500);
    expect(sink.received).toHaveLength(0);
    expect((await post(event, { retryNum: 1, retryReason: 'http_error' })).status).toBe(200);
    expect(sink.received.map((m) => [m.conversation.id, m.text, m.platformMessageId])).toEqual([
      [DM, 'hello', String(event.event.ts)],
    ]);
  });

  it('passes on no bot message, edit, deletion or plain channel message as a message; DM words become commands', async () => {
    const { fake, sink, post } = await setup();
    const first = fake.build.messageIm({ channel: DM, text: 'first' });
    await post(first);
    await post(fake.build.botMessage({ channel: DM, text: 'from another bot' }));
    await post(fake.build.messageIm({ channel: DM, text: 'my own', user: fake.identity.botUserId }));
    await post(fake.build.messageChanged({ channel: DM, ts: String(first.event.ts), text: 'edited' }));
    await post(fake.build.messageDeleted({ channel: DM, ts: String(first.event.ts) }));
    await post(fake.build.channelMessage({ channel: 'C0CHAN0001', text: 'lunch?' }));
    await post(fake.build.messageIm({ channel: DM, text: 'Listings Austin' }));
    await post(fake.build.messageIm({ channel: DM, text: 'help me find a flat' }));
    expect(sink.received.map((m) => m.text)).toEqual(['first', '/listings Austin', 'help me find a flat']);
  });

  it("turns the slash command into the core's commands, acknowledged at once", async () => {
    const { fake, sink, post } = await setup();
    expect(
      (await post(slashCommandForm(fake.build.slashCommand({ command: '/chatbot', text: 'reset', channel: DM }))))
        .status,
    ).toBe(200);
    await post(slashCommandForm(fake.build.slashCommand({ command: '/chatbot', channel: DM })));
    expect(sink.received.map((m) => [m.conversation.id, m.text])).toEqual([
      [DM, '/reset'],
      [DM, '/help'],
    ]);
  });
});

describe("Slack adapter: one channel's messages in the order they were written", () => {
  it("hands a thread's messages to the core in order, even when Slack is slow to say the first one's thread is the bot's", async () => {
    const { fake, adapter, sink, post } = await setup();
    const channel = 'C0CHAN0001';
    const threadTs = '1700000000.000100';
    // Another replica answered in this thread: this process has not seen it, so it asks Slack (conversations.replies).
    await adapter.outbound.send(conversation(`${channel}:${threadTs}`), { text: 'Here are the Austin listings.' });
    const slowSlack = fake.holdNext('conversations.replies');
    const first = post(fake.build.threadMessage({ channel, thread_ts: threadTs, text: 'Which one has a garden?' }));
    await slowSlack.arrived;
    const second = post(fake.build.threadMessage({ channel, thread_ts: threadTs, text: 'And a garage?' }));
    // Every chance to overtake the first while Slack has not answered about it.
    await Promise.race([second, sleep(OVERTAKING_CHANCE_MS)]);
    slowSlack.release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(sink.received.map((m) => [m.conversation.id, m.text])).toEqual([
      [`${channel}:${threadTs}`, 'Which one has a garden?'],
      [`${channel}:${threadTs}`, 'And a garage?'],
    ]);
  });
});

describe('Slack outbound: every Web API refusal as a PlatformError kind', () => {
  it("a 429 is rate-limited with Slack's Retry-After, not waited out by the client", async () => {
    const { fake, adapter } = await setup();
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    const error = await refusal(adapter.outbound.send(conversation(DM), { text: 'hi' }));
    expect([error.kind, error.retryAfterMs]).toEqual(['rate-limited', 7000]);
  });

  it('a 5xx and a reset connection are unreachable; msg_too_long is too-long; cant_update_message and message_not_found', async () => {
    const { fake, adapter } = await setup();
    fake.failNext('chat.postMessage', { status: 503 });
    expect((await refusal(adapter.outbound.send(conversation(DM), { text: 'hi' }))).kind).toBe('unreachable');
    fake.failNext('chat.postMessage', { reset: true });
    expect((await refusal(adapter.outbound.send(conversation(DM), { text: 'hi' }))).kind).toBe('unreachable');
    fake.failNext('chat.postMessage', { error: 'msg_too_long' });
    expect((await refusal(adapter.outbound.send(conversation(DM), { text: 'hi' }))).kind).toBe('too-long');
    const sent = await adapter.outbound.send(conversation(DM), { text: 'hi' });
    fake.failNext('chat.update', { error: 'cant_update_message' });
    expect((await refusal(adapter.outbound.edit!(conversation(DM), sent, 'more'))).kind).toBe('not-editable');
    fake.failNext('chat.update', { error: 'message_not_found' });
    expect((await refusal(adapter.outbound.edit!(conversation(DM), sent, 'more'))).kind).toBe('not-found');
  });

  it('a workspace without native streaming refuses it as unsupported (the relay then edits)', async () => {
    const { fake, adapter } = await setup();
    const thread = conversation(`${DM}:1700000000.000100`);
    const outbound = adapter.outboundFor!(thread, false);
    fake.setStreaming('not_allowed');
    expect((await refusal(outbound.startStream!(thread, { id: 'U0USER0001' }, 'hi'))).kind).toBe('unsupported');
    fake.setStreaming('unknown_method');
    expect((await refusal(outbound.startStream!(thread, { id: 'U0USER0001' }, 'hi'))).kind).toBe('unsupported');
  });

  it('streams natively only in threads, with the recipient outside DMs; "typing" only in assistant (DM) threads', async () => {
    const { fake, adapter } = await setup();
    expect(adapter.outboundFor!(conversation(DM), false).startStream).toBeUndefined();
    expect(adapter.outboundFor!(conversation('C0CHAN0001:1700000000.000100'), true).typing).toBeUndefined();
    const thread = conversation('C0CHAN0001:1700000000.000100');
    const stream = await adapter.outboundFor!(thread, true).startStream!(
      thread,
      { id: 'U0USER0001', team: fake.identity.teamId },
      'Hello',
    );
    await stream.append(' world');
    await stream.stop('.');
    const [message] = fake.visibleMessages('C0CHAN0001', '1700000000.000100');
    expect(message).toMatchObject({
      text: 'Hello world.',
      state: 'done',
      recipient_user_id: 'U0USER0001',
      recipient_team_id: fake.identity.teamId,
    });
  });
});

describe('Slack adapter (Socket Mode)', () => {
  it('receives a DM over the socket opened with the app token, and says Slack will not redeliver', async () => {
    const fake = await startFakeSlack({ rateLimits: false });
    cleanups.push(() => fake.close());
    const adapter = createSlackAdapter({
      bot: 'main',
      botToken: fake.botToken,
      appToken: fake.appToken,
      apiUrl: fake.apiUrl,
      logger: silentLogger(),
    });
    expect([adapter.mode, adapter.redeliversOnAcceptFailure, adapter.routes]).toEqual(['socket', false, []]);
    const sink = new CollectingSink();
    await adapter.start(sink);
    cleanups.push(() => adapter.stop());
    await fake.waitFor(() => fake.socket.openConnections() === 1, { what: 'the socket connection' });
    const envelope = fake.socket.pushEvent(fake.build.messageIm({ channel: DM, text: 'over the socket' }));
    await fake.socket.waitForAck(envelope);
    const received = await sink.next((m) => m.text === 'over the socket');
    expect(received.conversation.id).toBe(DM);
  });

  it('acknowledges envelopes it cannot understand (so Slack does not send them again), passes none on, and still receives a good one', async () => {
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
    const malformed = [
      fake.socket.pushEvent(
        fake.build.envelope({
          type: 'message',
          channel_type: 'im',
          event_ts: '1700000000.000100',
          user: 'U0USER0001',
          text: 'no channel, no ts',
        }),
      ),
      fake.socket.pushInteractive({
        ...fake.build.blockActions({
          channel: DM,
          messageTs: '1700000000.000200',
          actionId: 'chatbridge_button_0',
          value: 'x',
        }),
        actions: 'nope',
      }),
    ];
    for (const envelope of malformed) await fake.socket.waitForAck(envelope);
    await fake.socket.waitForAck(fake.socket.pushEvent(fake.build.messageIm({ channel: DM, text: 'good' })));
    await sink.next((m) => m.text === 'good');
    expect(sink.received.map((m) => m.text)).toEqual(['good']);
  });
});
