import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';

const USER = { id: 4242, first_name: 'Ada', username: 'ada' };

describe('chatbridge start, as a process, with a Telegram bot', () => {
  let fake: FakeTelegram;
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    gateway = await startChatbridge({ TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot });
  }, 30_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake.close();
  });

  it('answers a question with a streamed answer that ends on the full text', async () => {
    fake.userSends({ chat: USER.id, from: USER, text: 'Do you have homes for sale in Austin?' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('MLS TX-10452')), {
      timeoutMs: 15_000,
      what: 'the final answer',
    });
    const answer = fake.visibleMessages(USER.id).at(-1)!;
    expect(answer.text).toContain('1812 Elm St');
    expect(answer.text).toContain('300 Bowie St');
    // A private chat streams through drafts before the final message is sent.
    expect(fake.drafts(USER.id).length).toBeGreaterThan(0);
    expect(fake.chatLog(USER.id).some((call) => call.method === 'sendMessageDraft')).toBe(true);
  });

  it('greets /start with the chatbot welcome message and its suggestions', async () => {
    fake.userSends({ chat: USER.id, from: USER, text: '/start' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('Oakridge Homes assistant')), {
      timeoutMs: 10_000,
      what: 'the welcome',
    });
    const greeting = fake
      .chatLog(USER.id)
      .find((call) => call.method === 'sendMessage' && String(call.params.text).includes('Oakridge Homes assistant'));
    expect(JSON.stringify(greeting?.params.reply_markup)).toContain('3 bedroom homes for sale in Austin');
  });

  it('offers its commands, /human included, in the Telegram "/" menu', async () => {
    const menu = fake.globalLog().find((call) => call.method === 'setMyCommands');
    const names = (menu?.params.commands as { command: string }[] | undefined)?.map((c) => c.command);
    expect(names).toEqual(expect.arrayContaining(['start', 'help', 'reset', 'listings', 'human']));
  });

  it('serves health, readiness and metrics of the work done on its HTTP port', async () => {
    expect((await fetch(`http://127.0.0.1:${gateway.port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${gateway.port}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${gateway.port}/metrics`)).text();
    // The answers of the tests above were counted.
    expect(metrics).toMatch(/chatbridge_messages_accepted_total\{platform="telegram",bot="main"\} [1-9]/);
    expect(metrics).toMatch(
      /chatbridge_answers_delivered_total\{platform="telegram",bot="main",renderer="draft"\} [1-9]/,
    );
    expect(metrics).toMatch(/chatbridge_answer_seconds_count\{platform="telegram"\} [1-9]/);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await gateway.stop()).toBe(0);
  });
});
