import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisStateStore } from '../../../src/state/index.js';
import { testRedisUrl } from '../../support/redis.js';

const CLI = join(import.meta.dirname, '../../../bin/chatbridge.js');
const prefix = `cbtest:e2e-service:${randomUUID().slice(0, 8)}:`;
const configFile = join(mkdtempSync(join(tmpdir(), 'cb-e2e-service-')), 'chatbridge.yaml');
writeFileSync(configFile, `keyPrefix: "${prefix}"\nconsole: off\n`);

/** Runs `chatbridge service --port 0` until it printed its keys, then stops it. */
async function serviceKeys(env: Record<string, string>): Promise<{ secretKey: string; sessionKey: string }> {
  const child = spawn(process.execPath, [CLI, 'service', '--port', '0'], {
    env: {
      PATH: process.env.PATH,
      CHATBRIDGE_CONFIG: configFile,
      REDIS_URL: testRedisUrl(),
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`chatbridge service printed no keys:\n${out}${err}`)), 20_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const secret = /Authorization \(secret key\): (\S+)/.exec(out);
        const session = /chatrobot-sessionkey \(session key\): (\S+)/.exec(out);
        if (secret && session) {
          clearTimeout(timer);
          resolve({ secretKey: secret[1]!, sessionKey: session[1]! });
        }
      });
      child.once('exit', (code) => reject(new Error(`chatbridge service exited with ${code}:\n${out}${err}`)));
    });
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}

describe('chatbridge service', () => {
  afterAll(async () => {
    const state = new RedisStateStore({ url: testRedisUrl(), prefix });
    await state.deleteByPrefix();
    await state.close();
  });

  it('uses SERVICE_SECRET_KEY when only it is set, and the same kept session key on every start (as `chatbridge start` does)', async () => {
    const first = await serviceKeys({ SERVICE_SECRET_KEY: 'my-own-secret-key' });
    expect(first.secretKey).toBe('my-own-secret-key');
    const second = await serviceKeys({ SERVICE_SECRET_KEY: 'my-own-secret-key' });
    expect(second.sessionKey).toBe(first.sessionKey);
  }, 60_000); // two processes started one after the other: seconds each on a loaded machine
});
