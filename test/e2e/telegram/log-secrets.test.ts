import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

const TOKEN = '123456789:AAH-never_in_the_log_0123456789abcdef';
const ADMIN_TOKEN = 'admin-token-never-in-the-log-42';
const USER = { id: 7331, first_name: 'Grace', username: 'grace' };

/** Lines of the gateway's stderr that mention getUpdates (its failures, in whatever form). */
const getUpdatesLines = (log: string) => log.split('\n').filter((line) => line.includes('getUpdates'));

describe('chatbridge start with the Bot API unreachable while polling', () => {
  let fake: FakeTelegram;
  let proxy: TcpProxy;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    fake = await startFakeTelegram({ token: TOKEN });
    proxy = await startTcpProxy({ port: Number(new URL(fake.apiRoot).port) });
    gateway = await startChatbridge({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: proxy.url, ADMIN_TOKEN });
  }, 30_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await proxy?.close();
    await fake?.close();
  });

  it('logs each failed getUpdates as JSON without the bot token, and answers again once Telegram is back', async () => {
    await proxy.cut();
    await fake.waitFor(() => getUpdatesLines(gateway.log()).length >= 3, {
      timeoutMs: 60_000,
      what: 'three failed getUpdates in the log',
    });
    await proxy.restore();
    fake.userSends({ chat: USER.id, from: USER, text: 'Do you have homes for sale in Austin?' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('MLS TX-10452')), {
      timeoutMs: 60_000,
      what: 'the answer after Telegram came back',
    });
    expect(await gateway.stop()).toBe(0);

    const log = gateway.log();
    for (const secret of [TOKEN, encodeURIComponent(TOKEN), TOKEN.split(':')[1]!, ADMIN_TOKEN])
      expect(log).not.toContain(secret);
    // The failures did reach the log, saying what the network did (undici's errors carry no request URL,
    // so no token to take out; the logger's redaction of URLs is tested in test/unit/logging).
    expect(getUpdatesLines(log).some((line) => /ECONNREFUSED|ECONNRESET/.test(line))).toBe(true);
    const lines = log.split('\n').filter((line) => line.trim() !== '');
    const notJson = lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
  }, 150_000);
});
