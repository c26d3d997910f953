import { describe, expect, it } from 'vitest';
import { buildConfigSchema, configSecrets } from '../../../src/config/index.js';
import { REDACTED, SecretRedactor } from '../../../src/logger.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';

describe('SecretRedactor', () => {
  const token = '123456789:AAH-secret_part';
  const password = 'p@ss word"\\x';

  it('takes a secret out of any position of a serialized line: raw, URL-encoded and JSON-escaped', () => {
    const redactor = new SecretRedactor();
    redactor.add(token, password);
    const cause = new Error(`request to https://api.telegram.org/bot${token}/getUpdates failed`);
    const line = JSON.stringify({
      err: { message: 'outer', cause: { message: cause.message, stack: cause.stack } },
      url: `/bot${encodeURIComponent(token)}/x`,
      smtp: `smtp://u:${encodeURIComponent(password)}@h`,
      raw: password,
    });
    const redacted = redactor.redact(line);
    for (const form of [
      token,
      encodeURIComponent(token),
      encodeURIComponent(password),
      JSON.stringify(password).slice(1, -1),
    ])
      expect(redacted).not.toContain(form);
    expect(redacted.split(REDACTED).length - 1).toBe(5);
    expect(() => JSON.parse(redacted)).not.toThrow();
  });

  it('leaves lines without secrets alone, and ignores values too short to be secrets', () => {
    const redactor = new SecretRedactor();
    redactor.add('abc', '', undefined);
    expect(redactor.redact('{"msg":"abc def"}')).toBe('{"msg":"abc def"}');
  });
});

describe('configSecrets', () => {
  it('names every secret of the configuration, passwords inside URLs included', () => {
    const config = buildConfigSchema(PLATFORMS).parse({
      redisUrl: 'redis://:redis-pass-1@127.0.0.1:6379',
      smtp: { url: 'smtps://mailer:smtp%2Fpass@mail.example.com' },
      admin: { token: 'admin-token-0123456789' },
      handoff: { secret: 'handoff-secret-0123456789' },
      upstream: { secretKey: 'upstream-secret', sessionKey: 'upstream-session' },
      service: { secretKey: 'service-secret', sessionKey: 'service-session' },
      bots: [
        {
          id: 'main',
          telegram: { token: '42:tg-secret', webhookSecret: 'hook-secret' },
          slack: { botToken: 'xoxb-slack-bot', appToken: 'xapp-slack-app', signingSecret: 'slack-signing' },
        },
      ],
    });
    expect(configSecrets(config, PLATFORMS)).toEqual(
      expect.arrayContaining([
        'redis-pass-1',
        'smtp%2Fpass',
        'smtp/pass',
        'admin-token-0123456789',
        'handoff-secret-0123456789',
        'upstream-secret',
        'upstream-session',
        'service-secret',
        'service-session',
        '42:tg-secret',
        'tg-secret',
        'hook-secret',
        'xoxb-slack-bot',
        'xapp-slack-app',
        'slack-signing',
      ]),
    );
  });
});
