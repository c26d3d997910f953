import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, Assistant, ExpressReceiver, LogLevel } from '@slack/bolt';
import { WebClient, type WebAPIPlatformError, type WebAPIRateLimitedError } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import {
  interactivityForm,
  signedEventRequest,
  slashCommandForm,
  startFakeSlack,
  type FakeSlack,
  type FakeSlackOptions,
} from '../../../fakes/slack/index.js';

const DM = 'D0DM000001';
const CHANNEL = 'C0CHANNEL1';

let slack: FakeSlack;
let client: WebClient;
const cleanups: (() => Promise<void>)[] = [];

/** A fixed clock, so rate limits depend only on the calls made, never on how fast the machine is. */
let clock = Date.UTC(2026, 0, 1);

async function start(options: FakeSlackOptions = {}): Promise<void> {
  slack = await startFakeSlack({ now: () => clock, ...options });
  // Rate-limited calls are rejected rather than waited out, so a test sees the 429 itself.
  client = new WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    logLevel: LogLevel.ERROR,
  });
}

async function refusal(call: Promise<unknown>): Promise<string> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as WebAPIPlatformError | undefined;
  expect(error?.code).toBe('slack_webapi_platform_error');
  return error?.data.error ?? '';
}

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await slack?.close();
});

describe('fake Slack: Web API protocol', () => {
  it('answers auth.test for the bot token with its ids and granted scopes, and not_authed / invalid_auth otherwise', async () => {
    await start({ scopes: ['chat:write', 'im:history'] });
    const auth = await client.auth.test();
    expect(auth).toMatchObject({ ok: true, user_id: 'U0BOTUSER1', bot_id: 'B0FAKEBOT1', team_id: 'T0FAKETEAM' });
    expect(auth.response_metadata?.scopes).toEqual(['chat:write', 'im:history']);
    expect(await refusal(new WebClient('xoxb-wrong', { slackApiUrl: slack.apiUrl }).auth.test())).toBe('invalid_auth');
    const anonymous = await fetch(`${slack.apiUrl}auth.test`, { method: 'POST' });
    expect(await anonymous.json()).toEqual({ ok: false, error: 'not_authed' });
  });

  it('takes JSON bodies as well as form-encoded ones, and answers unknown_method for a method it does not know', async () => {
    await start();
    const response = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        channel: DM,
        text: 'from JSON',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'from JSON' } }],
      }),
    });
    expect(await response.json()).toMatchObject({ ok: true, channel: DM });
    expect(slack.visibleMessages(DM)[0]).toMatchObject({ text: 'from JSON', blocks: [{ type: 'section' }] });
    expect(await refusal(client.apiCall('chat.telepathy'))).toBe('unknown_method');
  });

  it('shows posted messages, thread replies and updates as the user sees them, and logs every call', async () => {
    await start({ rateLimits: false });
    const posted = await client.chat.postMessage({ channel: DM, text: 'first *draft*' });
    const reply = await client.chat.postMessage({ channel: DM, thread_ts: posted.ts, text: 'in the thread' });
    await client.chat.update({ channel: DM, ts: posted.ts as string, text: 'final *answer*' });
    expect(slack.visibleMessages(DM).map((m) => [m.text, m.edits, m.thread_ts])).toEqual([
      ['final *answer*', 1, undefined],
      ['in the thread', 0, posted.ts],
    ]);
    expect(slack.visibleMessages(DM, posted.ts).map((m) => m.ts)).toEqual([reply.ts]);
    expect(slack.calls('chat.update')[0]).toMatchObject({
      ok: true,
      channel: DM,
      params: { ts: posted.ts, text: 'final *answer*' },
    });
    expect(await refusal(client.chat.update({ channel: DM, ts: '1.000009', text: 'x' }))).toBe('message_not_found');
  });

  it('refuses what Slack refuses: text over 40,000 characters, more than 50 blocks, no text at all, an unknown channel', async () => {
    await start({ rateLimits: false });
    expect(await refusal(client.chat.postMessage({ channel: DM, text: 'x'.repeat(40_001) }))).toBe('msg_too_long');
    const blocks = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    expect(await refusal(client.chat.postMessage({ channel: DM, text: 'x', blocks }))).toBe('invalid_blocks');
    expect(await refusal(client.chat.postMessage({ channel: DM, text: '' }))).toBe('no_text');
    expect(await refusal(client.chat.postMessage({ channel: 'nowhere', text: 'x' }))).toBe('channel_not_found');
    await client.chat.postMessage({ channel: DM, text: 'x'.repeat(40_000), blocks: blocks.slice(0, 50) });
    expect(slack.visibleMessages(DM)).toHaveLength(1);
  });

  it('answers 429 with Retry-After past 1 message/s in a channel, other channels unaffected, and lets the message through a second later', async () => {
    await start();
    await client.chat.postMessage({ channel: DM, text: 'one' });
    const limited = (await client.chat
      .postMessage({ channel: DM, text: 'two' })
      .catch((e: unknown) => e)) as WebAPIRateLimitedError;
    expect(limited.code).toBe('slack_webapi_rate_limited_error');
    expect(limited.retryAfter).toBe(1);
    await client.chat.postMessage({ channel: CHANNEL, text: 'elsewhere' });
    clock += 1000;
    await client.chat.postMessage({ channel: DM, text: 'two' });
    expect(slack.visibleMessages(DM).map((m) => m.text)).toEqual(['one', 'two']);
    expect(slack.tooManyRequestsCount()).toBe(1);
  });

  it('plays scripted failures in order: an ok:false error, a 429, a 503, a reset connection, then success', async () => {
    await start({ rateLimits: false });
    slack.failNext('chat.update', { error: 'not_allowed' });
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    slack.failNext('chat.postMessage', { status: 503 });
    slack.failNext('chat.postMessage', { reset: true });
    expect(await refusal(client.chat.update({ channel: DM, ts: '1.000001', text: 'x' }))).toBe('not_allowed');
    expect(
      ((await client.chat.postMessage({ channel: DM, text: 'a' }).catch((e: unknown) => e)) as WebAPIRateLimitedError)
        .retryAfter,
    ).toBe(7);
    const unavailable = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.botToken}` },
    });
    expect(unavailable.status).toBe(503);
    await expect(fetch(`${slack.apiUrl}chat.postMessage`, { method: 'POST' })).rejects.toThrow();
    await client.chat.postMessage({ channel: DM, text: 'through' });
    expect(slack.calls('chat.postMessage').map((c) => c.status)).toEqual([429, 503, 0, 200]);
  });

  it("web-api's default client waits out a 429's Retry-After and succeeds", async () => {
    await start({ rateLimits: false });
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const patient = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR });
    await patient.chat.postMessage({ channel: DM, text: 'after the wait' });
    expect(slack.visibleMessages(DM).map((m) => m.text)).toEqual(['after the wait']);
  });
});

describe('fake Slack: native streaming and assistant threads', () => {
  it("shows a stream written through web-api's chatStream (chunks and markdown_text) as one message in the thread", async () => {
    await start({ rateLimits: false });
    const streamer = client.chatStream({ channel: DM, thread_ts: '1767225600.000001', buffer_size: 10 });
    await streamer.append({ markdown_text: 'Hello **wor' });
    await streamer.append({ markdown_text: 'ld**, and more' });
    await streamer.stop({ markdown_text: '!' });
    const [message] = slack.visibleMessages(DM, '1767225600.000001');
    expect(message).toMatchObject({
      text: 'Hello **world**, and more!',
      sentWith: 'chat.startStream',
      state: 'done',
      format: 'markdown',
    });
    expect(slack.calls().map((c) => c.method)).toEqual(['chat.startStream', 'chat.appendStream', 'chat.stopStream']);
    expect(typeof slack.calls('chat.stopStream')[0]?.params.chunks).not.toBe('string');
  });

  it('requires the recipient outside DMs, caps markdown_text at 12,000 per call, and refuses appends after the stop', async () => {
    await start({ rateLimits: false });
    expect(await refusal(client.chat.startStream({ channel: CHANNEL, thread_ts: '1.000001' }))).toBe(
      'missing_recipient_user_id',
    );
    const started = await client.chat.startStream({
      channel: CHANNEL,
      thread_ts: '1.000001',
      recipient_user_id: 'U0USER0001',
      recipient_team_id: 'T0FAKETEAM',
    });
    const ts = started.ts as string;
    expect(await refusal(client.chat.appendStream({ channel: CHANNEL, ts, markdown_text: 'x'.repeat(12_001) }))).toBe(
      'msg_too_long',
    );
    await client.chat.appendStream({ channel: CHANNEL, ts, markdown_text: 'x'.repeat(12_000) });
    await client.chat.stopStream({ channel: CHANNEL, ts });
    expect(await refusal(client.chat.appendStream({ channel: CHANNEL, ts, markdown_text: 'late' }))).toBe(
      'message_not_in_streaming_state',
    );
    expect(slack.visibleMessages(CHANNEL)[0]?.text).toHaveLength(12_000);
  });

  it('answers not_allowed or unknown_method to streaming when the workspace cannot stream', async () => {
    await start({ streaming: 'not_allowed' });
    expect(await refusal(client.chat.startStream({ channel: DM, thread_ts: '1.000001' }))).toBe('not_allowed');
    slack.setStreaming('unknown_method');
    expect(await refusal(client.chat.startStream({ channel: DM, thread_ts: '1.000001' }))).toBe('unknown_method');
    expect(slack.visibleMessages(DM)).toEqual([]);
  });

  it('records assistant status, up to 4 suggested prompts and the title; refuses a fifth prompt', async () => {
    await start();
    await client.assistant.threads.setStatus({ channel_id: DM, thread_ts: '1.000001', status: 'is thinking…' });
    const prompts = Array.from({ length: 4 }, (_, n) => ({ title: `P${n}`, message: `prompt ${n}` }));
    await client.assistant.threads.setSuggestedPrompts({ channel_id: DM, prompts: prompts as [(typeof prompts)[0]] });
    await client.assistant.threads.setTitle({ channel_id: DM, thread_ts: '1.000001', title: 'Flats in Paris' });
    expect(
      await refusal(
        client.assistant.threads.setSuggestedPrompts({
          channel_id: DM,
          prompts: [...prompts, prompts[0]] as [(typeof prompts)[0]],
        }),
      ),
    ).toBe('invalid_arguments');
    expect(slack.assistantCalls(DM).map((c) => [c.method, c.status ?? c.prompts?.length ?? c.title])).toEqual([
      ['assistant.threads.setStatus', 'is thinking…'],
      ['assistant.threads.setSuggestedPrompts', 4],
      ['assistant.threads.setTitle', 'Flats in Paris'],
    ]);
  });

  it('describes conversations: D… as a DM with its user, C… as a channel, declared ones as declared', async () => {
    await start();
    slack.addConversation({ id: 'C0PRIVATE1', is_private: true, name: 'secret' });
    expect((await client.conversations.info({ channel: DM })).channel).toMatchObject({
      is_im: true,
      user: 'U0USER0001',
    });
    expect((await client.conversations.info({ channel: CHANNEL })).channel).toMatchObject({
      is_im: false,
      is_channel: true,
    });
    expect((await client.conversations.info({ channel: 'C0PRIVATE1' })).channel).toMatchObject({
      is_private: true,
      name: 'secret',
    });
  });
});

describe('fake Slack: files', () => {
  it('serves a shared file with the bot token and the HTML login page (status 200) without it', async () => {
    await start();
    const file = slack.addFile(Buffer.from('voice bytes'), {
      name: 'audio_message.mp4',
      mimetype: 'audio/mp4',
      subtype: 'slack_audio',
    });
    const ok = await fetch(file.url_private_download, { headers: { authorization: `Bearer ${slack.botToken}` } });
    expect(ok.headers.get('content-type')).toMatch(/^audio\/mp4/);
    expect(Buffer.from(await ok.arrayBuffer()).toString()).toBe('voice bytes');
    const anonymous = await fetch(file.url_private_download);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('content-type')).toMatch(/^text\/html/);
    expect(slack.downloads()).toEqual([
      { fileId: file.id, authorized: true },
      { fileId: file.id, authorized: false },
    ]);
    expect(slack.build.fileShare({ channel: DM, files: [file] }).event).toMatchObject({
      subtype: 'file_share',
      channel_type: 'im',
      files: [{ size: 11 }],
    });
  });
});

/** A real Bolt app on an ExpressReceiver, its Web API pointed at the fake; returns its events URL. */
async function startBoltOverHttp(setup: (app: App) => void): Promise<string> {
  const receiver = new ExpressReceiver({ signingSecret: slack.signingSecret, logLevel: LogLevel.ERROR });
  const app = new App({
    token: slack.botToken,
    receiver,
    clientOptions: { slackApiUrl: slack.apiUrl },
    logLevel: LogLevel.ERROR,
  });
  setup(app);
  const server: Server = await new Promise((resolve) => {
    const s = receiver.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
}

describe('fake Slack: signed events into a real Bolt app', () => {
  it('delivers a signed DM, a mention, a button press and a slash command that Bolt accepts, and Bolt answers through the fake', async () => {
    await start({ now: Date.now, rateLimits: false });
    const seen: string[] = [];
    const url = await startBoltOverHttp((app) => {
      app.message(async ({ message, say }) => {
        seen.push(`message:${'text' in message ? message.text : ''}`);
        await say('answered in the DM');
      });
      app.event('app_mention', async ({ event, say }) => {
        seen.push(`mention:${event.text}`);
        await say({ text: 'answered in the thread', thread_ts: event.thread_ts ?? event.ts });
      });
      app.action('reset', async ({ ack, action }) => {
        await ack();
        seen.push(`action:${'value' in action ? action.value : ''}`);
      });
      app.command('/chatbot', async ({ ack, command }) => {
        await ack();
        seen.push(`command:${command.text}`);
      });
    });
    const dm = await signedEventRequest(
      url,
      slack.signingSecret,
      slack.build.messageIm({ channel: DM, text: 'hello' }),
    );
    expect(dm.status).toBe(200);
    const mention = slack.build.appMention({ channel: CHANNEL, text: 'what is new?' });
    await signedEventRequest(url, slack.signingSecret, mention);
    await signedEventRequest(
      url,
      slack.signingSecret,
      interactivityForm(
        slack.build.blockActions({ channel: DM, messageTs: '1.000001', actionId: 'reset', value: 'yes' }),
      ),
    );
    await signedEventRequest(
      url,
      slack.signingSecret,
      slashCommandForm(slack.build.slashCommand({ command: '/chatbot', text: 'help', channel: DM })),
    );
    await slack.waitFor(
      () => seen.length === 4 && slack.visibleMessages(DM).length === 1 && slack.visibleMessages(CHANNEL).length === 1,
    );
    expect(seen).toEqual(['message:hello', 'mention:<@U0BOTUSER1> what is new?', 'action:yes', 'command:help']);
    expect(slack.visibleMessages(CHANNEL)[0]?.thread_ts).toBe(mention.event.ts);
  });

  it('is refused by Bolt when forged or older than 5 minutes, and carries X-Slack-Retry-Num on a redelivery', async () => {
    await start({ now: Date.now });
    const retries: (number | undefined)[] = [];
    const url = await startBoltOverHttp((app) => {
      app.message(async ({ context }) => {
        retries.push(context.retryNum);
      });
    });
    const body = slack.build.messageIm({ channel: DM, text: 'hi' });
    expect((await signedEventRequest(url, slack.signingSecret, body, { signWith: 'not-the-secret' })).status).toBe(401);
    expect(
      (
        await signedEventRequest(url, slack.signingSecret, body, {
          timestampSeconds: Math.floor(Date.now() / 1000) - 6 * 60,
        })
      ).status,
    ).toBe(401);
    expect((await signedEventRequest(url, slack.signingSecret, body, { retryNum: 1 })).status).toBe(200);
    await slack.waitFor(() => retries.length === 1);
    expect(retries).toEqual([1]);
  });

  it('answers a url_verification challenge through Bolt', async () => {
    await start({ now: Date.now });
    const url = await startBoltOverHttp(() => undefined);
    const response = await signedEventRequest(url, slack.signingSecret, slack.build.urlVerification('abc123'));
    expect(await response.json()).toEqual({ challenge: 'abc123' });
  });

  it("plays an assistant thread that Bolt's Assistant recognises: started, context changed, then the user's question in the thread", async () => {
    await start({ now: Date.now, rateLimits: false });
    const seen: string[] = [];
    const url = await startBoltOverHttp((app) => {
      app.assistant(
        new Assistant({
          threadStarted: async ({ event, setSuggestedPrompts }) => {
            seen.push(`started:${event.assistant_thread.thread_ts}`);
            await setSuggestedPrompts({ prompts: [{ title: 'Flats', message: 'Flats in Paris?' }] });
          },
          threadContextChanged: async ({ event }) => {
            seen.push(`context:${event.assistant_thread.context.channel_id ?? ''}`);
          },
          userMessage: async ({ message, setStatus, setTitle, say }) => {
            seen.push(`question:${'text' in message ? message.text : ''}`);
            await setStatus('is thinking…');
            await setTitle('Flats in Paris');
            await say('Here are three.');
          },
        }),
      );
    });
    const started = slack.build.assistantThreadStarted({ channel: DM });
    const threadTs = started.event.assistant_thread;
    await signedEventRequest(url, slack.signingSecret, started);
    await signedEventRequest(
      url,
      slack.signingSecret,
      slack.build.assistantThreadContextChanged({
        channel: DM,
        thread_ts: threadTs.thread_ts,
        contextChannel: CHANNEL,
      }),
    );
    await slack.waitFor(() => seen.length === 2);
    await signedEventRequest(
      url,
      slack.signingSecret,
      slack.build.messageIm({ channel: DM, text: 'Flats in Paris?', thread_ts: threadTs.thread_ts }),
    );
    await slack.waitFor(() => slack.visibleMessages(DM, threadTs.thread_ts).length === 1);
    expect(seen).toEqual([`started:${threadTs.thread_ts}`, `context:${CHANNEL}`, 'question:Flats in Paris?']);
    expect(slack.assistantCalls(DM).map((c) => c.method)).toEqual([
      'assistant.threads.setSuggestedPrompts',
      'assistant.threads.setStatus',
      'assistant.threads.setTitle',
    ]);
    expect(slack.visibleMessages(DM, threadTs.thread_ts)[0]?.text).toBe('Here are three.');
  });
});

describe('fake Slack: what a user does to messages', () => {
  it('edits a message in place: the change has its own ts, the message keeps its own and `previous_message` holds it as it was', async () => {
    await start();
    const original = slack.build.messageIm({ channel: DM, thread_ts: '1700000000.000100', text: 'helo' });
    const change = slack.build.messageChanged({ original: original.event, text: 'hello' }).event;
    expect(change).toMatchObject({
      type: 'message',
      subtype: 'message_changed',
      hidden: true,
      channel: DM,
      channel_type: 'im',
      message: {
        ts: original.event.ts,
        thread_ts: '1700000000.000100',
        text: 'hello',
        edited: { user: original.event.user },
      },
      previous_message: { ts: original.event.ts, text: 'helo' },
    });
    expect(change.ts).not.toBe(original.event.ts);
    expect(change).not.toHaveProperty('user');
  });

  it('deletes a message: its ts in `deleted_ts`, the message as it was in `previous_message`', async () => {
    await start();
    const original = slack.build.messageIm({ channel: DM, text: 'never mind' });
    expect(slack.build.messageDeleted({ original: original.event }).event).toMatchObject({
      subtype: 'message_deleted',
      deleted_ts: original.event.ts,
      previous_message: { ts: original.event.ts, user: original.event.user, text: 'never mind' },
    });
  });

  it("shares one of the bot's messages as an `is_share` attachment naming the bot, and refuses a message it does not hold", async () => {
    await start();
    const posted = await client.chat.postMessage({ channel: DM, text: 'Loft, Austin' });
    const shared = slack.messageToShare(DM, posted.ts!);
    const event = slack.build.messageShare({ channel: DM, text: 'this one?', shared }).event;
    expect(event.attachments).toEqual([
      expect.objectContaining({
        is_share: true,
        is_msg_unfurl: true,
        text: 'Loft, Austin',
        author_id: slack.identity.botUserId,
        bot_id: slack.identity.botId,
        ts: posted.ts,
      }),
    ]);
    expect(() => slack.messageToShare(DM, '1.000001')).toThrow(/has no message/);
  });
});
