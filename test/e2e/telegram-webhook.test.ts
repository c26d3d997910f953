import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStateStore } from '../../src/state/index.js';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/index.js';
import { testRedisUrl } from '../support/redis.js';

const CLI = join(import.meta.dirname, '../../bin/chatbridge.js');
const USER = { id: 5151, first_name: 'Linus', username: 'linus' };
const SECRET = 'e2e_webhook_secret-123';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

describe('chatbridge start in Telegram webhook mode', () => {
  let fake: FakeTelegram;
  let child: ChildProcess;
  let port: number;
  const stderr: string[] = [];
  const prefix = `cbtest:e2e-wh:${randomUUID().slice(0, 8)}:`;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'cb-e2e-wh-'));
    const configFile = join(dir, 'chatbridge.yaml');
    writeFileSync(configFile, `keyPrefix: "${prefix}"\nconsole: off\nhost: 127.0.0.1\n`);
    child = spawn(process.execPath, [CLI, 'start'], {
      env: {
        PATH: process.env.PATH,
        CHATBRIDGE_CONFIG: configFile,
        PORT: String(port),
        REDIS_URL: testRedisUrl(),
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.apiRoot,
        TELEGRAM_MODE: 'webhook',
        TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}`,
        TELEGRAM_WEBHOOK_SECRET: SECRET,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`chatbridge did not start:\n${stderr.join('')}`)), 20_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr.push(chunk.toString());
        if (stderr.join('').includes('chatbridge is running')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`chatbridge exited with ${code}:\n${stderr.join('')}`)));
    });
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

  it('registers its webhook with the secret and answers updates Telegram posts to it', async () => {
    const registration = fake.globalLog().find((call) => call.method === 'setWebhook');
    expect(registration?.params).toMatchObject({ url: `http://127.0.0.1:${port}/telegram/main`, secret_token: SECRET });
    fake.userSends({ chat: USER.id, from: USER, text: 'Anything for rent in Portland?' });
    await fake.waitFor(() => fake.visibleMessages(USER.id).some((m) => m.text.includes('1200 NW Marshall')), { timeoutMs: 15_000, what: 'the answer' });
    expect(fake.webhookAttempts().some((attempt) => attempt.status === 200)).toBe(true);
  });

  it('refuses a webhook request without the secret token', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/telegram/main`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ update_id: 1, message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: 'hi' } }),
    });
    expect(response.status).toBe(401);
  });
});
