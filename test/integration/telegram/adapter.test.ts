import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTelegramAdapter,
  type TelegramAdapter,
  type TelegramAdapterOptions,
} from '../../../adapters/telegram/index.js';
import { AttachmentTooLargeError, AttachmentUnavailableError } from '../../../src/gateway/media/errors.js';
import { PlatformError, type ConversationRef } from '../../../src/contract.js';
import { silentLogger } from '../../../src/logger.js';
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from '../../../fakes/telegram/index.js';
import { CollectingSink } from './collecting-sink.js';

const USER = { id: 42, first_name: 'Ada', last_name: 'Lovelace', username: 'ada' };
const GROUP = -100500;
const MB = 1024 * 1024;

let fake: FakeTelegram;
let adapter: TelegramAdapter;
let sink: CollectingSink;
let httpServer: Server | undefined;

async function startPolling(
  fakeOptions: FakeTelegramOptions = {},
  adapterOptions: Partial<TelegramAdapterOptions> = {},
): Promise<void> {
  fake = await startFakeTelegram(fakeOptions);
  adapter = createTelegramAdapter({
    bot: 'main',
    token: fake.token,
    apiRoot: fake.apiRoot,
    mode: 'polling',
    logger: silentLogger(),
    botInfo: fake.botInfo,
    ...adapterOptions,
  });
  sink = new CollectingSink();
  await adapter.start(sink);
}

const conversation = (id: number | string): ConversationRef => ({ bot: 'main', platform: 'telegram', id: String(id) });

async function platformError(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

afterEach(async () => {
  await adapter?.stop();
  await fake?.close();
  if (httpServer) await new Promise((resolve) => httpServer?.close(resolve));
  httpServer = undefined;
});

describe('Telegram adapter: inbound', () => {
  it('delivers a private text as an addressed Inbound of that chat and user', async () => {
    await startPolling();
    const update = fake.userSends({ chat: USER.id, from: USER, text: 'Any 2-bed flats in Austin?' });
    const inbound = await sink.next();
    expect(inbound).toMatchObject({
      conversation: conversation(USER.id),
      user: { id: '42', name: 'Ada Lovelace', handle: 'ada' },
      text: 'Any 2-bed flats in Austin?',
      attachments: [],
      isGroup: false,
      addressed: true,
      platformMessageId: String(update.message.message_id),
      sentAt: update.message.date * 1000,
    });
  });

  it('gives a redelivered update the same dedupe key (conversation + platformMessageId)', async () => {
    await startPolling();
    const update = fake.userSends({ chat: USER.id, from: USER, text: 'once' });
    const first = await sink.next();
    fake.redeliver(update);
    await sink.next((m) => m !== first);
    const [, again] = sink.received;
    expect([again?.conversation.id, again?.platformMessageId]).toEqual([
      first.conversation.id,
      first.platformMessageId,
    ]);
  });

  it('passes /start through as text for the core to handle', async () => {
    await startPolling();
    fake.userSends({ chat: USER.id, from: USER, text: '/start' });
    expect((await sink.next()).text).toBe('/start');
  });

  it('in a group, is addressed only when mentioned, replied to or commanded', async () => {
    await startPolling({ rateLimit: false });
    const botName = fake.botInfo.username;
    fake.userSends({ chat: GROUP, from: USER, text: 'just chatting among ourselves' });
    fake.userSends({ chat: GROUP, from: USER, text: `@${botName} what is for rent?` });
    const sent = await adapter.outbound.send(conversation(GROUP), { text: 'I am the bot' });
    fake.userSends({ chat: GROUP, from: USER, text: 'and with a pool?', reply_to_message: Number(sent.id) });
    fake.userSends({ chat: GROUP, from: USER, text: `/help@${botName}` });
    fake.userSends({ chat: GROUP, from: USER, text: '/help@some_other_bot' });
    await sink.next((m) => m.text === '/help@some_other_bot');
    const addressed = Object.fromEntries(sink.received.map((m) => [m.text, m.addressed]));
    expect(addressed).toEqual({
      'just chatting among ourselves': false,
      [`@${botName} what is for rent?`]: true,
      'and with a pool?': true,
      '/help': true,
      '/help@some_other_bot': false,
    });
    expect(sink.received.every((m) => m.isGroup && m.conversation.id === String(GROUP))).toBe(true);
  });

  it('gives each forum topic its own conversation and answers in that topic', async () => {
    await startPolling();
    fake.userSends({
      chat: { id: GROUP, is_forum: true },
      from: USER,
      thread: 7,
      text: `@${fake.botInfo.username} hi`,
    });
    const inbound = await sink.next();
    expect(inbound.conversation.id).toBe(`${GROUP}:7`);
    await adapter.outbound.send(inbound.conversation, { text: 'hello topic' });
    expect(fake.chatLog(GROUP).at(-1)?.params).toMatchObject({ message_thread_id: 7 });
  });

  it('turns an album into one Inbound with every file and the caption', async () => {
    await startPolling();
    const first = fake.addFile(new Uint8Array([1]), { mimeType: 'image/jpeg' });
    const second = fake.addFile(new Uint8Array([2]), { mimeType: 'image/jpeg' });
    const third = fake.addFile(new Uint8Array([3]), { fileName: 'plan.pdf', mimeType: 'application/pdf' });
    const opening = fake.userSends({
      chat: USER.id,
      from: USER,
      photo: first,
      caption: 'Is this one still available?',
      media_group_id: 'album-1',
    });
    fake.userSends({ chat: USER.id, from: USER, photo: second, media_group_id: 'album-1' });
    fake.userSends({ chat: USER.id, from: USER, document: third, media_group_id: 'album-1' });
    const album = await sink.next();
    expect(album.text).toBe('Is this one still available?');
    expect(album.platformMessageId).toBe(String(opening.message.message_id));
    expect(album.attachments.map((a) => [a.kind, a.mimeType, a.fileName])).toEqual([
      ['image', undefined, undefined],
      ['image', undefined, undefined],
      ['document', 'application/pdf', 'plan.pdf'],
    ]);
    await adapter.stop(); // flushes nothing more: the album was one message
    expect(sink.received).toHaveLength(1);
  });

  it('fetches a voice note: getFile, then the bytes', async () => {
    await startPolling();
    const bytes = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 1, 2, 3]);
    fake.userSends({
      chat: USER.id,
      from: USER,
      voice: { ...fake.addFile(bytes, { mimeType: 'audio/ogg' }), duration: 4 },
    });
    const [voice] = (await sink.next()).attachments;
    expect(voice).toMatchObject({ kind: 'voice', mimeType: 'audio/ogg', size: bytes.length, durationSeconds: 4 });
    expect(await voice?.fetch({ maxBytes: MB })).toEqual(bytes);
  });

  it('refuses a file over the cap or over 20 MB before downloading anything', async () => {
    await startPolling();
    fake.userSends({
      chat: USER.id,
      from: USER,
      document: fake.addFile(new Uint8Array(1), { fileName: 'tour.mp4', declaredSize: 25 * MB }),
    });
    const [big] = (await sink.next()).attachments;
    await expect(big?.fetch({ maxBytes: 10 * MB })).rejects.toBeInstanceOf(AttachmentTooLargeError);
    await expect(big?.fetch({ maxBytes: 100 * MB })).rejects.toBeInstanceOf(AttachmentUnavailableError);
    expect(fake.globalLog().filter((c) => c.method === 'getFile')).toEqual([]);
    expect(fake.downloads()).toEqual([]);
  });

  it('stops reading a download that turns out larger than announced', async () => {
    await startPolling();
    const liar = fake.addFile(new Uint8Array(2 * MB), { fileName: 'small.pdf', declaredSize: 1000 });
    fake.userSends({ chat: USER.id, from: USER, document: liar });
    const [file] = (await sink.next()).attachments;
    await expect(file?.fetch({ maxBytes: MB })).rejects.toBeInstanceOf(AttachmentTooLargeError);
  });

  it('with a local Bot API server, downloads files over 20 MB', async () => {
    await startPolling({ localServer: true }, { localApi: true });
    expect(adapter.capabilities.maxDownloadBytes).toBe(2000 * MB);
    const big = fake.addFile(new Uint8Array(21 * MB), { fileName: 'tour.mp4', mimeType: 'video/mp4' });
    fake.userSends({ chat: USER.id, from: USER, video: big });
    const [video] = (await sink.next()).attachments;
    expect((await video?.fetch({ maxBytes: 50 * MB }))?.length).toBe(21 * MB);
  });

  it('delivers a button press as an action, with the button label as text, and answers the query', async () => {
    await startPolling();
    const sent = await adapter.outbound.send(conversation(USER.id), {
      text: 'Rent or buy?',
      buttons: [
        { label: 'Rent', value: 'mode:rent' },
        { label: 'Buy', value: 'mode:buy' },
      ],
    });
    expect(fake.visibleMessages(USER.id)[0]?.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Rent', callback_data: 'mode:rent' }], [{ text: 'Buy', callback_data: 'mode:buy' }]],
    });
    const press = fake.pressButton({ chat: USER.id, messageId: Number(sent.id), data: 'mode:buy', from: USER });
    const inbound = await sink.next();
    expect(inbound).toMatchObject({
      text: 'Buy',
      action: { id: press.callback_query.id, value: 'mode:buy' },
      addressed: true,
    });
    await fake.waitFor(() => fake.callbackAnswer(press.callback_query.id)?.answered === true, {
      what: 'answerCallbackQuery',
    });
  });
});

describe('Telegram adapter: outbound', () => {
  it('sends HTML with suggestions as a resized reply keyboard, one per row, and the placeholder', async () => {
    await startPolling();
    await adapter.outbound.send(conversation(USER.id), {
      text: '<b>3 listings</b> match.',
      suggestions: ['Show the cheapest', 'Only with parking'],
      inputPlaceholder: ` ${'Ask about a listing… '.repeat(5)}`,
    });
    const [message] = fake.visibleMessages(USER.id);
    expect(message?.text).toBe('3 listings match.');
    expect(message?.reply_markup).toMatchObject({
      keyboard: [[{ text: 'Show the cheapest' }], [{ text: 'Only with parking' }]],
      resize_keyboard: true,
    });
    const placeholder = (message?.reply_markup as { input_field_placeholder?: string }).input_field_placeholder;
    expect(placeholder).toHaveLength(64);
    expect(placeholder?.startsWith('Ask about')).toBe(true);
  });

  it('edits a sent message, and reports an identical edit as not-modified', async () => {
    await startPolling({ rateLimit: false });
    const sent = await adapter.outbound.send(conversation(USER.id), { text: 'Looking' });
    await adapter.outbound.edit?.(conversation(USER.id), sent, 'Looking… <i>found 2</i>');
    expect(fake.visibleMessages(USER.id)).toMatchObject([{ text: 'Looking… found 2', edits: 1 }]);
    const same = await platformError(adapter.outbound.edit!(conversation(USER.id), sent, 'Looking… <i>found 2</i>'));
    expect(same.kind).toBe('not-modified');
    const missing = await platformError(adapter.outbound.edit!(conversation(USER.id), { id: '9999' }, 'x'));
    expect(missing.kind).toBe('not-found');
  });

  it('shows drafts in private chats, and offers no draft() in groups (where it streams by edits)', async () => {
    await startPolling();
    await adapter.outbound.draft?.(conversation(USER.id), 1, 'The cheapest is <b>$1,200</b>');
    expect(fake.drafts(USER.id)).toEqual([expect.objectContaining({ draft_id: 1, text: 'The cheapest is $1,200' })]);
    expect(adapter.outboundFor?.(conversation(USER.id), false).draft).toBeTypeOf('function');
    const group = adapter.outboundFor?.(conversation(GROUP), true);
    expect(group?.draft).toBeUndefined();
    expect(group?.edit).toBeTypeOf('function');
  });

  it('attaches buttons to an edit as an inline keyboard, and an edit without them takes them away', async () => {
    await startPolling({ rateLimit: false });
    const sent = await adapter.outbound.send(conversation(USER.id), { text: 'Three homes match' });
    const buttons = [
      { label: 'Next', value: 'listings:next' },
      { label: 'Talk to a person', value: 'handoff' },
    ];
    await adapter.outbound.edit!(conversation(USER.id), sent, 'Three homes <b>match</b>.', { buttons });
    expect(fake.visibleMessages(USER.id)).toMatchObject([
      {
        text: 'Three homes match.',
        reply_markup: {
          inline_keyboard: [
            [{ text: 'Next', callback_data: 'listings:next' }],
            [{ text: 'Talk to a person', callback_data: 'handoff' }],
          ],
        },
      },
    ]);
    await adapter.outbound.edit!(conversation(USER.id), sent, 'Three homes <b>match</b>.');
    expect(fake.visibleMessages(USER.id)[0]?.reply_markup).toBeUndefined();
  });

  it.each(['refused', 'unknown-method'] as const)('reports a draft the server %s as unsupported', async (support) => {
    await startPolling({ drafts: support });
    const error = await platformError(adapter.outbound.draft!(conversation(USER.id), 1, 'partial'));
    expect(error.kind).toBe('unsupported');
  });

  it('reports 429 as rate-limited with the wait Telegram asks for', async () => {
    await startPolling();
    await adapter.outbound.send(conversation(USER.id), { text: 'first' });
    const flooded = await platformError(adapter.outbound.send(conversation(USER.id), { text: 'second, too soon' }));
    expect(flooded.kind).toBe('rate-limited');
    expect(flooded.retryAfterMs).toBe(1000);
    fake.failNext('editMessageText', { errorCode: 429, retryAfter: 5 });
    const injected = await platformError(adapter.outbound.edit!(conversation(USER.id), { id: '1' }, 'x'));
    expect(injected).toMatchObject({ kind: 'rate-limited', retryAfterMs: 5000 });
  });

  it('reports broken HTML as bad-format and an over-long text as too-long', async () => {
    await startPolling({ rateLimit: false });
    expect((await platformError(adapter.outbound.send(conversation(USER.id), { text: 'a<br>b' }))).kind).toBe(
      'bad-format',
    );
    expect((await platformError(adapter.outbound.send(conversation(USER.id), { text: 'x'.repeat(4097) }))).kind).toBe(
      'too-long',
    );
  });

  it('shows typing with sendChatAction', async () => {
    await startPolling();
    await adapter.outbound.typing?.(conversation(USER.id));
    expect(fake.chatActions(USER.id)).toEqual(['typing']);
  });
});

async function startWebhook(secret: string): Promise<string> {
  fake = await startFakeTelegram({ webhookRetryDelayMs: 20 });
  const app = express();
  httpServer = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  adapter = createTelegramAdapter({
    bot: 'main',
    token: fake.token,
    apiRoot: fake.apiRoot,
    mode: 'webhook',
    webhookSecret: secret,
    webhookPublicUrl: base,
    logger: silentLogger(),
    botInfo: fake.botInfo,
  });
  // The adapter declares where its webhook lives; the runtime mounts it the same way.
  expect(adapter.routes.map((route) => route.path)).toEqual(['/telegram/main']);
  for (const route of adapter.routes) app.use(route.path, route.handler);
  sink = new CollectingSink();
  await adapter.start(sink);
  return base;
}

describe('Telegram adapter: start and webhook mode', () => {
  it('explains a rejected token by naming the setting', async () => {
    fake = await startFakeTelegram();
    adapter = createTelegramAdapter({
      bot: 'main',
      token: '1:wrong',
      apiRoot: fake.apiRoot,
      mode: 'polling',
      logger: silentLogger(),
    });
    await expect(adapter.start(new CollectingSink())).rejects.toThrow(/TELEGRAM_BOT_TOKEN/);
  });

  it("registers its webhook with the secret, accepts Telegram's posts and refuses a wrong secret token", async () => {
    const secret = 'correct_secret-123';
    const base = await startWebhook(secret);

    fake.userSends({ chat: USER.id, from: USER, text: 'via webhook' });
    expect((await sink.next()).text).toBe('via webhook');
    await fake.waitFor(() => fake.webhookAttempts().length > 0, { what: 'the webhook answer' });
    expect(fake.webhookAttempts()).toEqual([expect.objectContaining({ status: 200, secretToken: secret })]);

    const forged = fake.userSends({ chat: USER.id, from: USER, text: 'forged' });
    const response = await fetch(`${base}/telegram/main`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': 'wrong' },
      body: JSON.stringify({ ...forged, update_id: forged.update_id + 1000 }),
    });
    expect(response.status).toBe(401);
    await sink.next((m) => m.text === 'forged'); // the genuine delivery of the same text
    expect(sink.received.filter((m) => m.text === 'forged')).toHaveLength(1);
  });

  it('answers 500 when the gateway cannot queue an update, so Telegram delivers it again', async () => {
    await startWebhook('s3cret');
    sink.failuresToCome = 1;
    fake.userSends({ chat: USER.id, from: USER, text: 'do not lose me' });
    expect((await sink.next()).text).toBe('do not lose me');
    await fake.waitFor(() => fake.webhookAttempts().length === 2, { what: 'the redelivery' });
    expect(fake.webhookAttempts().map((a) => a.status)).toEqual([500, 200]);
  });
});
