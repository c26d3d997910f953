/**
 * The first seconds of `chatbridge start` in Telegram webhook mode (issue 17.1, the same
 * window as Slack's). The webhook stays registered with Telegram across a restart, so
 * Telegram posts what it holds as soon as the port opens, before the adapter has started.
 * Such an update waits for the start and is answered; while the Bot API cannot be reached
 * (the bot unknown to grammY) it is refused at once with a status Telegram retries (503),
 * not held open, and answered when it comes again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { freePort } from '../../support/net.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

const SECRET = 'e2e_webhook_start-secret';
const QUESTION = 'Anything for rent in Portland?';
/** In the demo's listings: an answer to QUESTION names it. */
const PORTLAND_LISTING = '1200 NW Marshall';
/** Far above the gateway's own wait for a start: a request that takes this long was held open. */
const REQUEST_TIMEOUT_MS = 20_000;
const ANSWER = { timeoutMs: 45_000 };

let fake: FakeTelegram | undefined;
let proxy: TcpProxy | undefined;
let gateway: ChatbridgeProcess | undefined;
afterEach(async () => {
  await gateway?.cleanup();
  await proxy?.close();
  await fake?.close();
  gateway = undefined;
  proxy = undefined;
  fake = undefined;
});

/** An update as Telegram posts it: a private message from `user`. */
function update(updateId: number, user: number, text: string): string {
  const from = { id: user, is_bot: false, first_name: `User ${user}` };
  return JSON.stringify({
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: user, type: 'private', first_name: from.first_name },
      from,
      text,
    },
  });
}

function postUpdate(port: number, body: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/telegram/main`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

async function until(
  condition: () => Promise<boolean>,
  what: string,
  log: () => string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}; the gateway's log:\n${log()}`);
    await sleep(10);
  }
}

const webhookEnv = (apiRoot: string, port: number) => ({
  TELEGRAM_BOT_TOKEN: fake!.token,
  TELEGRAM_API_ROOT: apiRoot,
  TELEGRAM_MODE: 'webhook',
  TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}`,
  TELEGRAM_WEBHOOK_SECRET: SECRET,
});

describe('Telegram webhook mode in the first seconds of a start', () => {
  it('answers 200 to an update posted as soon as the port opens, and answers it once', async () => {
    fake = await startFakeTelegram();
    const port = await freePort();
    gateway = await startChatbridge(webhookEnv(fake.apiRoot, port), { port, early: true });
    const running = gateway;
    await until(
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok,
      'the port to open',
      () => running.log(),
    );

    const user = 7171;
    expect((await postUpdate(port, update(900_001, user, QUESTION))).status).toBe(200);
    await fake.waitFor(() => fake!.visibleMessages(user).some((message) => message.text.includes(PORTLAND_LISTING)), {
      ...ANSWER,
      what: 'the answer',
    });
    expect(fake.visibleMessages(user)).toHaveLength(1);
  }, 90_000);

  it('answers 503 at once while the Bot API cannot be reached, and the update sent again once it is back', async () => {
    fake = await startFakeTelegram();
    proxy = await startTcpProxy({ port: Number(new URL(fake.apiRoot).port) });
    await proxy.cut();
    const port = await freePort();
    gateway = await startChatbridge(webhookEnv(proxy.url, port), { port });
    const running = gateway;

    const user = 7272;
    const body = update(900_002, user, QUESTION);
    const refused = await postUpdate(port, body);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    await proxy.restore();
    await until(
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
      '/readyz 200 once the Bot API is back',
      () => running.log(),
    );
    expect((await postUpdate(port, body)).status).toBe(200);
    await fake.waitFor(() => fake!.visibleMessages(user).some((message) => message.text.includes(PORTLAND_LISTING)), {
      ...ANSWER,
      what: 'the answer',
    });
    expect(fake.visibleMessages(user)).toHaveLength(1);
  }, 120_000);
});
