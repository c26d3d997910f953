import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Api, GrammyError, InputFile } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from '../../../fakes/telegram/index.js';

const PRIVATE = 42;
const GROUP = -1001;

let fake: FakeTelegram;
let api: Api;

async function start(options: FakeTelegramOptions = {}): Promise<void> {
  fake = await startFakeTelegram(options);
  api = new Api(fake.token, { apiRoot: fake.apiRoot });
}

async function refusal(call: Promise<unknown>): Promise<GrammyError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrammyError);
  return error as GrammyError;
}

afterEach(async () => {
  await fake?.close();
});

describe('fake Telegram: protocol', () => {
  it('answers getMe for the right token and 401 Unauthorized for a wrong one', async () => {
    await start();
    expect((await api.getMe()).username).toBe('chatbridge_test_bot');
    const wrong = new Api('1:wrong', { apiRoot: fake.apiRoot });
    const error = await refusal(wrong.getMe());
    expect(error.error_code).toBe(401);
    expect(error.description).toBe('Unauthorized');
  });

  it('answers an unknown method with 404 Not Found in the Bot API envelope', async () => {
    await start();
    const response = await fetch(`${fake.apiRoot}/bot${fake.token}/sendTelepathy`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ ok: false, error_code: 404, description: 'Not Found' });
  });

  it('accepts urlencoded and query-string parameters like the real server', async () => {
    await start();
    const response = await fetch(`${fake.apiRoot}/bot${fake.token}/sendMessage?chat_id=${PRIVATE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'text=%3Cb%3Ehi%3C%2Fb%3E&parse_mode=HTML',
    });
    const body = (await response.json()) as { ok: boolean; result: { text: string; date: number } };
    expect(body.ok).toBe(true);
    expect(body.result.text).toBe('hi');
    expect(body.result.date).toBeLessThan(10_000_000_000); // seconds, not milliseconds
  });

  it('accepts multipart uploads (sendPhoto with an InputFile) and stores them', async () => {
    await start();
    const sent = await api.sendPhoto(PRIVATE, new InputFile(new Uint8Array([1, 2, 3]), 'dot.png'), {
      caption: '<i>look</i>',
      parse_mode: 'HTML',
    });
    expect(sent.caption).toBe('look');
    expect(fake.visibleMessages(PRIVATE)).toMatchObject([{ sentWith: 'sendPhoto', text: 'look' }]);
  });
});

describe('fake Telegram: HTML parse mode is as strict as Telegram', () => {
  it('accepts the documented tags and shows the decoded text', async () => {
    await start({ rateLimit: false });
    const html =
      '<b>bold</b> <a href="https://x.y/?a=1&amp;b=2">link</a> <pre><code class="language-ts">a &lt; b</code></pre> <tg-spoiler>s</tg-spoiler>';
    const sent = await api.sendMessage(PRIVATE, html, { parse_mode: 'HTML' });
    expect(sent.text).toBe('bold link a < b s');
    expect(sent.entities).toContainEqual({ type: 'text_link', offset: 5, length: 4, url: 'https://x.y/?a=1&b=2' });
    expect(sent.entities).toContainEqual({ type: 'pre', offset: 10, length: 5, language: 'ts' });
  });

  it.each([
    ['line<br>break', 'Unsupported start tag "br"'],
    ['<b>bold <i>both</b></i>', 'Unmatched end tag'],
    ['<b>never closed', `Can't find end tag corresponding to start tag "b"`],
    ['closing only</i>', 'Unexpected end tag'],
    ['<span>hidden</span>', 'Tag "span" must have class "tg-spoiler"'],
    ['a <b', 'Unclosed start tag'],
  ])("refuses %j with 400 can't parse entities", async (html, reason) => {
    await start({ rateLimit: false });
    const error = await refusal(api.sendMessage(PRIVATE, html, { parse_mode: 'HTML' }));
    expect(error.error_code).toBe(400);
    expect(error.description).toContain("Bad Request: can't parse entities: ");
    expect(error.description).toContain(reason);
  });

  it('counts the limit of 4096 characters after entity parsing', async () => {
    await start({ rateLimit: false });
    const fits = '&amp;'.repeat(4096); // 20480 characters of source, 4096 visible
    expect((await api.sendMessage(PRIVATE, fits, { parse_mode: 'HTML' })).text).toHaveLength(4096);
    const error = await refusal(api.sendMessage(PRIVATE, 'x'.repeat(4097)));
    expect(error.description).toBe('Bad Request: message is too long');
  });
});

describe('fake Telegram: flood limits', () => {
  it('allows one message per second per chat, answering 429 with retry_after beyond that', async () => {
    let clock = 1_700_000_000_000;
    await start({ now: () => clock });
    await api.sendMessage(PRIVATE, 'one');
    const error = await refusal(api.sendMessage(PRIVATE, 'two'));
    expect(error.error_code).toBe(429);
    expect(error.description).toBe('Too Many Requests: retry after 1');
    expect(error.parameters.retry_after).toBe(1);
    await api.sendMessage(PRIVATE + 1, 'another chat is not limited');
    clock += 1000;
    await api.sendMessage(PRIVATE, 'two, after waiting');
    expect(fake.tooManyRequestsCount()).toBe(1);
    expect(fake.visibleMessages(PRIVATE).map((m) => m.text)).toEqual(['one', 'two, after waiting']);
  });

  it('counts edits like messages', async () => {
    let clock = 1_700_000_000_000;
    await start({ now: () => clock });
    const sent = await api.sendMessage(PRIVATE, 'draft');
    const error = await refusal(api.editMessageText(PRIVATE, sent.message_id, 'final'));
    expect(error.error_code).toBe(429);
    clock += 1000;
    await api.editMessageText(PRIVATE, sent.message_id, 'final');
    expect(fake.visibleMessages(PRIVATE)).toMatchObject([{ text: 'final', edits: 1 }]);
  });

  it('allows at most 20 messages per minute in a group even when the per-second pace is kept', async () => {
    let clock = 1_700_000_000_000;
    await start({ now: () => clock });
    for (let n = 0; n < 20; n++) {
      await api.sendMessage(GROUP, `message ${n}`);
      clock += 1000;
    }
    const error = await refusal(api.sendMessage(GROUP, 'the 21st'));
    expect(error.parameters.retry_after).toBe(40);
  });

  it('allows about 30 messages per second for the whole bot across chats, counting sends, edits and media but not drafts or chat actions', async () => {
    let clock = 1_700_000_000_000;
    // Per-chat limits loose enough that only the bot-wide one (3/s here) can bite.
    await start({ now: () => clock, rateLimit: { perBotPerSecond: 3, perChatPerSecond: 100, burst: 10 } });
    const first = await api.sendMessage(PRIVATE, 'one');
    await api.editMessageText(PRIVATE, first.message_id, 'one, edited');
    await api.sendPhoto(PRIVATE + 1, new InputFile(new Uint8Array([1]), 'p.png'));
    await api.sendMessageDraft(PRIVATE + 2, 1, 'drafts are free');
    await api.sendChatAction(PRIVATE + 2, 'typing');
    const error = await refusal(api.sendMessage(PRIVATE + 2, 'a third chat, over the bot-wide limit'));
    expect(error.error_code).toBe(429);
    expect(error.parameters.retry_after).toBe(1);
    clock += 1000;
    await api.sendMessage(PRIVATE + 2, 'a third chat, a second later');
    expect(fake.visibleMessages(PRIVATE + 2).map((m) => m.text)).toEqual(['a third chat, a second later']);
    expect(fake.tooManyRequestsCount()).toBe(1);
  });

  it('defaults to 30 messages per second per bot, and 0 turns the bot-wide limit off', async () => {
    const clock = 1_700_000_000_000;
    await start({ now: () => clock });
    for (let chat = 1; chat <= 30; chat++) await api.sendMessage(chat, 'bulk');
    expect((await refusal(api.sendMessage(31, 'the 31st chat'))).error_code).toBe(429);
    fake.setRateLimit({ perBotPerSecond: 0 });
    for (let chat = 100; chat < 140; chat++) await api.sendMessage(chat, 'bulk');
    expect(fake.tooManyRequestsCount()).toBe(1);
  });

  it('sends without limits when started unlimited, and injects scripted failures', async () => {
    await start({ rateLimit: false });
    for (let n = 0; n < 30; n++) await api.sendMessage(GROUP, `burst ${n}`);
    fake.failNext('sendMessage', { errorCode: 429, retryAfter: 7 });
    fake.failNext('sendMessage', { errorCode: 500 });
    expect((await refusal(api.sendMessage(PRIVATE, 'a'))).parameters.retry_after).toBe(7);
    expect((await refusal(api.sendMessage(PRIVATE, 'b'))).error_code).toBe(500);
    await api.sendMessage(PRIVATE, 'c');
    expect(fake.visibleMessages(PRIVATE).map((m) => m.text)).toEqual(['c']);
  });
});

describe('fake Telegram: messages, edits, drafts, files', () => {
  it('says "message is not modified" and "message to edit not found" like Telegram', async () => {
    await start({ rateLimit: false });
    const sent = await api.sendMessage(PRIVATE, '<b>same</b>', { parse_mode: 'HTML' });
    const same = await refusal(api.editMessageText(PRIVATE, sent.message_id, '<b>same</b>', { parse_mode: 'HTML' }));
    expect(same.description).toMatch(/^Bad Request: message is not modified/);
    const missing = await refusal(api.editMessageText(PRIVATE, 999, 'x'));
    expect(missing.description).toBe('Bad Request: message to edit not found');
  });

  it('stores the inline keyboard an edit gives, returns it, and drops it on an edit without one', async () => {
    await start({ rateLimit: false });
    const sent = await api.sendMessage(PRIVATE, 'Three homes match');
    const keyboard = { inline_keyboard: [[{ text: 'Next', callback_data: 'listings:next' }]] };
    const edited = await api.editMessageText(PRIVATE, sent.message_id, 'Three homes match.', {
      reply_markup: keyboard,
    });
    expect(edited).toMatchObject({ reply_markup: keyboard });
    expect(fake.visibleMessages(PRIVATE)).toMatchObject([
      { text: 'Three homes match.', reply_markup: keyboard, edits: 1 },
    ]);
    // Same text, buttons taken away: a change, not "not modified".
    const bare = await api.editMessageText(PRIVATE, sent.message_id, 'Three homes match.');
    expect(bare).not.toHaveProperty('reply_markup');
    expect(fake.visibleMessages(PRIVATE)[0]?.reply_markup).toBeUndefined();
  });

  it('stores reply keyboards with their placeholder and refuses a placeholder over 64 characters', async () => {
    await start({ rateLimit: false });
    await api.sendMessage(PRIVATE, 'pick', {
      reply_markup: {
        keyboard: [[{ text: 'Rent' }], [{ text: 'Buy' }]],
        resize_keyboard: true,
        input_field_placeholder: 'City?',
      },
    });
    expect(fake.visibleMessages(PRIVATE)[0]?.reply_markup).toMatchObject({ input_field_placeholder: 'City?' });
    const error = await refusal(
      api.sendMessage(PRIVATE, 'pick', {
        reply_markup: { keyboard: [[{ text: 'a' }]], input_field_placeholder: 'p'.repeat(65) },
      }),
    );
    expect(error.error_code).toBe(400);
  });

  it('shows drafts in private chats only, and can refuse them like an older server', async () => {
    await start({ rateLimit: false });
    await api.sendMessageDraft(PRIVATE, 5, 'Thinking <i>hard</i>', { parse_mode: 'HTML' });
    expect(fake.drafts(PRIVATE)).toMatchObject([{ draft_id: 5, text: 'Thinking hard' }]);
    expect((await refusal(api.sendMessageDraft(GROUP, 5, 'no'))).error_code).toBe(400);
    fake.setDraftSupport('unknown-method');
    expect((await refusal(api.sendMessageDraft(PRIVATE, 6, 'no'))).error_code).toBe(404);
  });

  it('records chat actions', async () => {
    await start();
    await api.sendChatAction(PRIVATE, 'typing');
    expect(fake.chatActions(PRIVATE)).toEqual(['typing']);
  });

  it('serves files through getFile and /file/bot…, refusing files over 20 MB unless it is a local server', async () => {
    await start();
    const small = fake.addFile(new Uint8Array([7, 8, 9]), { fileName: 'v.ogg', mimeType: 'audio/ogg' });
    const file = await api.getFile(small.file_id);
    const response = await fetch(`${fake.apiRoot}/file/bot${fake.token}/${file.file_path ?? ''}`);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([7, 8, 9]));
    const big = fake.addFile(new Uint8Array(1), { declaredSize: 25 * 1024 * 1024 });
    expect((await refusal(api.getFile(big.file_id))).description).toBe('Bad Request: file is too big');
    await fake.close();

    await start({ localServer: true });
    const bigLocal = fake.addFile(new Uint8Array(1), { declaredSize: 25 * 1024 * 1024 });
    expect((await api.getFile(bigLocal.file_id)).file_size).toBe(25 * 1024 * 1024);
  });
});

describe('fake Telegram: update delivery', () => {
  it('long polling waits for an update, then delivers it once offset confirms it', async () => {
    await start();
    const waiting = api.getUpdates({ timeout: 10 });
    const sent = fake.userSends({ chat: PRIVATE, text: 'hello' });
    const first = await waiting;
    expect(first.map((u) => u.update_id)).toEqual([sent.update_id]);
    expect(first[0]?.message?.text).toBe('hello');
    const confirmed = await api.getUpdates({ offset: sent.update_id + 1, timeout: 0 });
    expect(confirmed).toEqual([]);
    fake.redeliver(sent);
    const again = await api.getUpdates({ offset: sent.update_id + 1, timeout: 0 });
    expect(again.map((u) => u.update_id)).toEqual([sent.update_id]);
  });

  it('filters by allowed_updates and honours limit', async () => {
    await start();
    fake.userSends({ chat: PRIVATE, text: 'one' });
    fake.userSends({ chat: PRIVATE, text: 'two' });
    const sent = await api.sendMessage(PRIVATE, 'buttons', {
      reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] },
    });
    fake.pressButton({ chat: PRIVATE, messageId: sent.message_id, data: 'a' });
    const limited = await api.getUpdates({ limit: 1, timeout: 0 });
    expect(limited.map((u) => u.message?.text)).toEqual(['one']);
    const onlyCallbacks = await api.getUpdates({ allowed_updates: ['callback_query'], timeout: 0 });
    expect(onlyCallbacks.map((u) => u.callback_query?.data)).toEqual(['a']);
  });

  it('marks @mentions and /commands in user text like the server does', async () => {
    await start();
    const update = fake.userSends({ chat: GROUP, text: '/help@chatbridge_test_bot hi @chatbridge_test_bot' });
    expect(update.message.entities).toEqual([
      { type: 'bot_command', offset: 0, length: 25 },
      { type: 'mention', offset: 29, length: 20 },
    ]);
  });

  it('posts to a webhook with the secret token header and retries until it gets a 2xx', async () => {
    await start({ webhookRetryDelayMs: 10 });
    const received: { secret: string | undefined; body: string }[] = [];
    const receiver = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ secret: req.headers['x-telegram-bot-api-secret-token'] as string | undefined, body });
        res.statusCode = received.length === 1 ? 500 : 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await api.setWebhook(url, { secret_token: 'S3cret_token-1' });
      expect((await refusal(api.getUpdates())).error_code).toBe(409);
      const update = fake.userSends({ chat: PRIVATE, text: 'via webhook' });
      await fake.waitFor(() => fake.webhookAttempts().some((a) => a.status === 200), {
        what: 'a successful webhook delivery',
      });
      expect(fake.webhookAttempts().map((a) => a.status)).toEqual([500, 200]);
      expect(received.every((r) => r.secret === 'S3cret_token-1')).toBe(true);
      expect(JSON.parse(received[1]?.body ?? '{}')).toMatchObject({
        update_id: update.update_id,
        message: { text: 'via webhook' },
      });
      expect((await api.getWebhookInfo()).pending_update_count).toBe(0);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('posts webhooks over several connections, one update of a chat at a time: a refused update holds up only its own chat', async () => {
    await start({ webhookRetryDelayMs: 10, webhookConnections: 4 });
    const refusals = { left: 3 };
    const receiver = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const chat = (JSON.parse(body) as { message: { chat: { id: number } } }).message.chat.id;
        res.statusCode = chat === PRIVATE && refusals.left-- > 0 ? 503 : 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      await api.setWebhook(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
      const first = fake.userSends({ chat: PRIVATE, text: 'first' });
      const second = fake.userSends({ chat: PRIVATE, text: 'second' });
      const other = fake.userSends({ chat: GROUP, text: 'other chat' });
      await fake.waitFor(() => fake.webhookAttempts().filter((a) => a.status === 200).length === 3, {
        what: 'all three delivered',
      });
      const attempts = fake.webhookAttempts();
      const delivered = attempts.filter((a) => a.status === 200).map((a) => a.update_id);
      // The other chat did not wait for the refused one; the refused chat's updates kept their order.
      expect(delivered).toEqual([other.update_id, first.update_id, second.update_id]);
      expect(attempts.filter((a) => a.update_id === second.update_id)).toHaveLength(1);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('fake Telegram: what a user does to messages', () => {
  it("edits a user message in place (text, entities, edit_date) and refuses to edit the bot's", async () => {
    await start({ rateLimit: false });
    const sent = fake.userSends({ chat: PRIVATE, text: 'hi' });
    const update = fake.userEdits({ chat: PRIVATE, messageId: sent.message.message_id, text: '/help me' });
    expect(update.edited_message).toMatchObject({
      message_id: sent.message.message_id,
      text: '/help me',
      entities: [{ type: 'bot_command', offset: 0, length: 5 }],
    });
    expect(update.edited_message.edit_date).toBeGreaterThanOrEqual(sent.message.date);
    const own = await api.sendMessage(PRIVATE, 'from the bot');
    expect(() => fake.userEdits({ chat: PRIVATE, messageId: own.message_id, text: 'x' })).toThrow(/the bot's/);
  });

  it('replies with the replied message (without its own reply) and a quote that must be part of it', async () => {
    await start({ rateLimit: false });
    const own = await api.sendMessage(PRIVATE, 'Loft, Austin: $2,100');
    const first = fake.userSends({ chat: PRIVATE, text: 'this one?', reply_to_message: own.message_id });
    const second = fake.userSends({
      chat: PRIVATE,
      text: 'and that?',
      reply_to_message: first.message.message_id,
      quote: 'one',
    });
    expect(second.message.reply_to_message).not.toHaveProperty('reply_to_message');
    expect(second.message.quote).toEqual({ text: 'one', position: 5, is_manual: true });
    expect(first.message.reply_to_message?.from?.is_bot).toBe(true);
    expect(() =>
      fake.userSends({ chat: PRIVATE, text: 'no', reply_to_message: own.message_id, quote: 'Dallas' }),
    ).toThrow(/not part of/);
  });

  it('presses the stop button only under a draft that has one', async () => {
    await start();
    await api.sendMessageDraft(PRIVATE, 3, 'thinking');
    expect(() => fake.userStopsDraft({ chat: PRIVATE })).toThrow(/without can_stop/);
    await api.sendMessageDraft(PRIVATE, 4, 'thinking', { can_stop: true });
    const update = fake.userStopsDraft({ chat: PRIVATE });
    expect(update.stopped_message_generation).toMatchObject({ chat: { id: PRIVATE, type: 'private' }, draft_id: 4 });
  });
});
