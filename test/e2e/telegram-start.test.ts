import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStateStore } from '../../src/state/index.js';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/index.js';
import { testRedisUrl } from '../support/redis.js';

const CLI = join(import.meta.dirname, '../../bin/chatbridge.js');
const USER = { id: 4242, first_name: 'Ada', username: 'ada' };

/** Resolves with the gateway's port once its log says it is running. */
function waitUntilRunning(child: ChildProcess, stderr: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chatbridge did not start:\n${stderr.join('')}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr.push(chunk.toString());
      const running = /"port":(\d+),[^\n]*"msg":"chatbridge is running"/.exec(stderr.join(''));
      if (running) {
        clearTimeout(timer);
        resolve(Number(running[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`chatbridge exited with ${code}:\n${stderr.join('')}`)));
  });
}

describe('chatbridge start, as a process, with a Telegram bot', () => {
  let fake: FakeTelegram;
  let child: ChildProcess;
  let port: number;
  const stderr: string[] = [];
  const prefix = `cbtest:e2e:${randomUUID().slice(0, 8)}:`;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    const dir = mkdtempSync(join(tmpdir(), 'cb-e2e-'));
    const configFile = join(dir, 'chatbridge.yaml');
    writeFileSync(configFile, `keyPrefix: "${prefix}"\nconsole: off\nport: 0\nhost: 127.0.0.1\n`);
    child = spawn(process.execPath, [CLI, 'start'], {
      env: {
        PATH: process.env.PATH,
        CHATBRIDGE_CONFIG: configFile,
        REDIS_URL: testRedisUrl(),
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.apiRoot,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    port = await waitUntilRunning(child, stderr);
  }, 30_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await fake.close();
    const state = new RedisStateStore({ url: testRedisUrl(), prefix });
    await state.deleteByPrefix();
    await state.close();
  });

  it('answers a question with a streamed answer that ends on the full text', async () => {
    fake.userSends({ chat: USER.id, from: USER, text: 'Do you have homes for sale in Austin?' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('MLS TX-10452')), { timeoutMs: 15_000, what: 'the final answer' });
    const answer = fake.visibleMessages(USER.id).at(-1)!;
    expect(answer.text).toContain('1812 Elm St');
    expect(answer.text).toContain('300 Bowie St');
    // A private chat streams through drafts before the final message is sent.
    expect(fake.drafts(USER.id).length).toBeGreaterThan(0);
    expect(fake.chatLog(USER.id).some((call) => call.method === 'sendMessageDraft')).toBe(true);
  });

  it('greets /start with the chatbot welcome message and its suggestions', async () => {
    fake.userSends({ chat: USER.id, from: USER, text: '/start' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('Oakridge Homes assistant')), { timeoutMs: 10_000, what: 'the welcome' });
    const greeting = fake.chatLog(USER.id).find((call) => call.method === 'sendMessage' && String(call.params.text).includes('Oakridge Homes assistant'));
    expect(JSON.stringify(greeting?.params.reply_markup)).toContain('3 bedroom homes for sale in Austin');
  });

  it('serves health and readiness on its HTTP port', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain('chatbridge_');
  });

  it('stops cleanly on SIGTERM', async () => {
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });
});
