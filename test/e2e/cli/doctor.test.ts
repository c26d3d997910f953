import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor as doctor } from '../../support/doctor-process.js';
import { FakeSmtpServer } from '../../../fakes/smtp/server.js';
import { startFakeTelegram, type FakeTelegram } from '../../../fakes/telegram/index.js';
import { testRedisUrl } from '../../support/redis.js';

describe('chatbridge doctor', () => {
  let telegram: FakeTelegram;
  let smtp: FakeSmtpServer;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    smtp = await FakeSmtpServer.start();
  });
  afterAll(async () => {
    await telegram.close();
    await smtp.stop();
  });

  it('checks the configuration, Redis, every platform credential and SMTP, and passes when all answer', async () => {
    const { output, code } = await doctor({
      REDIS_URL: testRedisUrl(),
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      SMTP_URL: smtp.url,
    });
    // ok or warn by the date (test/unit/cli/node-releases.test.ts); either way it names the Node it runs on, and a
    // warning does not fail doctor.
    expect(output).toMatch(
      new RegExp(`^(ok {4}|warn {2})node: Node ${process.version.replaceAll('.', '\\.')}[ ,]`, 'm'),
    );
    expect(output).toMatch(/^ok {4}configuration:/m);
    expect(output).toMatch(/^ok {4}state: Redis at /m);
    expect(output).toMatch(new RegExp(`^ok {4}telegram:main: @${telegram.botInfo.username}`, 'm'));
    expect(output).toMatch(/^ok {4}smtp: /m);
    expect(code).toBe(0);
  });

  it('fails, naming the setting, when a credential or a server is wrong', async () => {
    const { output, code } = await doctor({
      REDIS_URL: 'redis://127.0.0.1:1',
      TELEGRAM_BOT_TOKEN: '999:wrong_token',
      TELEGRAM_API_ROOT: telegram.apiRoot,
      SMTP_URL: 'smtp://127.0.0.1:1',
    });
    expect(output).toMatch(
      /^FAIL {2}state: REDIS_URL \(redisUrl\) redis:\/\/127.0.0.1:1 is not reachable \(connect ECONNREFUSED/m,
    );
    expect(output).toMatch(/^FAIL {2}telegram:main: .*TELEGRAM_BOT_TOKEN/m);
    expect(output).toMatch(/^FAIL {2}smtp: SMTP_URL/m);
    expect(code).toBe(1);
  });
});
