import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';

function file(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cb-config-'));
  const path = join(dir, 'config.yaml');
  writeFileSync(path, yaml);
  return path;
}

function loadError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('loads the shipped default.yaml with embedded defaults', () => {
    const config = loadConfig({ platforms: PLATFORMS, env: {} });
    expect(config.port).toBe(8080);
    expect(config.redisUrl).toBeUndefined();
    expect(config.upstream.baseUrl).toBeUndefined();
    expect(config.service.engine).toEqual({ kind: 'builtin', tokensPerSecond: 40 });
    expect(config.bots).toEqual([{ id: 'main', serialNumber: '', settings: {} }]);
  });

  it('lets environment variables override the file, typed', () => {
    const config = loadConfig({
      platforms: PLATFORMS,
      env: {
        PORT: '9090',
        REDIS_URL: 'redis://10.0.0.1:6379',
        TELEGRAM_BOT_TOKEN: '123:abc',
        TELEGRAM_MODE: 'webhook',
        WHATSAPP_ENABLED: 'yes',
      },
    });
    expect(config.port).toBe(9090);
    expect(config.redisUrl).toBe('redis://10.0.0.1:6379');
    expect(config.bots[0]!.telegram).toMatchObject({ token: '123:abc', mode: 'webhook' });
    expect(config.bots[0]!.whatsapp).toMatchObject({ enabled: true });
  });

  it('names the environment variable and the setting of a bad value', () => {
    const error = loadError(() =>
      loadConfig({
        platforms: PLATFORMS,
        env: { TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_MODE: 'pull', PORT: 'eighty' },
      }),
    );
    expect(error.message).toContain('TELEGRAM_MODE (bots.0.telegram.mode)');
    expect(error.message).toContain('PORT (port)');
    expect(error.problems).toHaveLength(2);
  });

  it('says which variable sets a missing required value', () => {
    const error = loadError(() => loadConfig({ platforms: PLATFORMS, env: { TELEGRAM_MODE: 'webhook' } }));
    expect(error.message).toContain(
      'bots.0.telegram.token: Invalid input: expected string, received undefined (set TELEGRAM_BOT_TOKEN)',
    );
  });

  it('names the path of a bad value in the file and what was expected', () => {
    const path = file('bots:\n  - id: Main Bot\n    telegram:\n      token: not-a-token\n');
    const error = loadError(() => loadConfig({ platforms: PLATFORMS, env: {}, file: path }));
    expect(error.message).toContain('bots.0.id: lowercase letters');
    expect(error.message).toContain('bots.0.telegram.token: a BotFather token');
  });

  it('rejects unknown settings instead of ignoring a typo', () => {
    const error = loadError(() => loadConfig({ platforms: PLATFORMS, env: {}, file: file('prot: 8080\n') }));
    expect(error.message).toMatch(/prot/);
  });

  it('says which file cannot be read or parsed', () => {
    expect(
      loadError(() => loadConfig({ platforms: PLATFORMS, env: {}, file: '/nonexistent/chatbridge.yaml' })).message,
    ).toContain('cannot read /nonexistent/chatbridge.yaml');
    expect(loadError(() => loadConfig({ platforms: PLATFORMS, env: {}, file: file('port: [1,\n') })).message).toContain(
      'is not valid YAML',
    );
  });

  it('accepts a platform section only for the platforms it is given', () => {
    const path = file('bots:\n  - id: main\n    telegram:\n      token: "123:abc"\n');
    expect(loadConfig({ platforms: PLATFORMS, env: {}, file: path }).bots[0]!.telegram).toMatchObject({
      token: '123:abc',
      mode: 'polling',
    });
    expect(loadError(() => loadConfig({ platforms: [], env: {}, file: path })).message).toMatch(
      /bots\.0: Unrecognized key: "telegram"/,
    );
  });

  it('keeps Slack and WhatsApp settings validated, though their adapters are not in this build', () => {
    const error = loadError(() =>
      loadConfig({ platforms: PLATFORMS, env: { SLACK_BOT_TOKEN: 'xoxp-user', WHATSAPP_ENABLED: 'maybe' } }),
    );
    expect(error.message).toContain('SLACK_BOT_TOKEN (bots.0.slack.botToken): a bot token starting with xoxb-');
    expect(error.message).toContain('WHATSAPP_ENABLED (bots.0.whatsapp.enabled)');
  });
});
