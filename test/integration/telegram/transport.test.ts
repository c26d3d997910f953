import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Bot, GrammyError, HttpError, InputFile } from 'grammy';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toPlatformError } from '../../../adapters/telegram/errors.js';
import { undiciFetch } from '../../../adapters/telegram/transport.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';

const CHAT = 4242;

describe('grammY over the undici transport, against the fake Bot API', () => {
  let fake: FakeTelegram;
  let agent: Agent;
  let bot: Bot;

  beforeAll(async () => {
    fake = await startFakeTelegram({ rateLimit: false });
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    agent = new Agent();
    bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot, fetch: undiciFetch(agent) }, botInfo: fake.botInfo });
  });
  afterEach(async () => {
    await agent.close();
  });

  it('makes JSON calls: getMe answers the bot, sendMessage shows the text in the chat', async () => {
    expect((await bot.api.getMe()).username).toBe(fake.botInfo.username);
    const sent = await bot.api.sendMessage(CHAT, 'Hello <b>there</b>', { parse_mode: 'HTML' });
    expect(sent.chat.id).toBe(CHAT);
    expect(fake.visibleMessages(CHAT).map((m) => m.text)).toContain('Hello there');
  });

  it("reads a refusal as GrammyError with Telegram's code and description, mapped for the core", async () => {
    const refused = await bot.api.editMessageText(CHAT, 999_999, 'nothing to edit').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GrammyError);
    expect((refused as GrammyError).error_code).toBe(400);
    expect(toPlatformError(refused, 'editMessageText').kind).toBe('not-found');
  });

  it('uploads a file as multipart (sendPhoto with bytes)', async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251);
    const sent = await bot.api.sendPhoto(CHAT, new InputFile(bytes, 'house.jpg'), { caption: 'The house' });
    expect(sent.photo?.at(-1)?.file_size).toBe(bytes.length);
    expect(
      fake.chatLog(CHAT).some((call) => call.method === 'sendPhoto' && call.ok && call.visibleText === 'The house'),
    ).toBe(true);
  });

  it("ends a long getUpdates when its signal aborts (the runner's stop), as HttpError", async () => {
    const stop = new AbortController();
    const polling = bot.api
      .getUpdates({ timeout: 30 }, stop.signal as Parameters<typeof bot.api.getUpdates>[1])
      .catch((error: unknown) => error);
    await fake.waitFor(() => true);
    stop.abort();
    // The test's own timeout is the deadline: a 30 s long poll that ignored the signal would exceed it.
    expect(await polling).toBeInstanceOf(HttpError);
  });
});

describe('the undici transport when the Bot API is not there', () => {
  const token = '123456789:AAH-never_in_an_error_0123456789abc';
  let server: Server;
  let root: string;
  let connections = 0;

  beforeAll(async () => {
    // A proxy in front of the Bot API that fails with an HTML page, and counts the sockets it was given.
    server = createServer((req, res) => {
      if (req.url?.endsWith('/getMe')) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: true, result: { id: 1, is_bot: true, first_name: 'B', username: 'b_bot' } }));
      } else {
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
      }
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('maps a refused connection to unreachable, with no token in the message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const bot = new Bot(token, { client: { apiRoot: `http://127.0.0.1:${port}`, fetch: undiciFetch(new Agent()) } });

    const failed = await bot.api.sendMessage(CHAT, 'hi').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(HttpError);
    const mapped = toPlatformError(failed, 'sendMessage');
    expect(mapped.kind).toBe('unreachable');
    expect(`${mapped.message} ${((failed as HttpError).error as Error).message}`).not.toContain(token.split(':')[1]);
  });

  it("maps a page that is not JSON (a proxy's 502) to unreachable", async () => {
    const bot = new Bot(token, { client: { apiRoot: root, fetch: undiciFetch(new Agent()) } });
    const failed = await bot.api.sendMessage(CHAT, 'hi').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(HttpError);
    expect(toPlatformError(failed, 'sendMessage').kind).toBe('unreachable');
  });

  it('keeps sockets open between calls instead of connecting for each', async () => {
    const agent = new Agent();
    const bot = new Bot(token, { client: { apiRoot: root, fetch: undiciFetch(agent) } });
    const before = connections;
    for (let n = 0; n < 10; n++) await bot.api.getMe();
    // A second socket may open while the first is still being released after its answer was read.
    expect(connections - before).toBeLessThanOrEqual(2);
    await agent.close();
  });
});
