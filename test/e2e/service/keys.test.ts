import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisStateStore } from '../../../src/state/index.js';
import { startChatbridge } from '../../support/chatbridge-process.js';
import { testRedisUrl } from '../../support/redis.js';

const CLI = join(import.meta.dirname, '../../../bin/chatbridge.js');
// Both starts and the CLI share one key prefix, as a gateway restarted on the same Redis does.
const prefix = `cbtest:e2e-keys:${randomUUID().slice(0, 8)}:`;
const configFile = join(mkdtempSync(join(tmpdir(), 'cb-e2e-keys-')), 'chatbridge.yaml');
writeFileSync(configFile, `keyPrefix: "${prefix}"\nconsole: off\nport: 0\nhost: 127.0.0.1\n`);
const env = { CHATBRIDGE_CONFIG: configFile };

/** `chatbridge service keys` as an operator runs it; resolves with its stdout. */
function printKeys(): Promise<string> {
  const child = spawn(process.execPath, [CLI, 'service', 'keys'], {
    env: { PATH: process.env.PATH, REDIS_URL: testRedisUrl(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`chatbridge service keys exited with ${code}:\n${err}`)),
    );
  });
}

/** Whether the gateway's embedded service accepts the secret key (ModelList needs it). */
async function serviceAccepts(port: number, secretKey: string): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/chat/Chatbot/ModelList`, {
    headers: { Authorization: secretKey },
  });
  return response.status === 200;
}

describe('the embedded Chatbot Service keys', () => {
  afterAll(async () => {
    const state = new RedisStateStore({ url: testRedisUrl(), prefix });
    await state.deleteByPrefix();
    await state.close();
  });

  it('are never written to the log: the first start says they were generated and how to print them, the CLI prints the ones the gateway uses', async () => {
    const first = await startChatbridge(env);
    let firstLog: string;
    let printed: string;
    try {
      printed = await printKeys();
      const secretKey = /^SERVICE_SECRET_KEY=(\S+)$/m.exec(printed)?.[1];
      const sessionKey = /^SERVICE_SESSION_KEY=(\S+)$/m.exec(printed)?.[1];
      expect(secretKey).toBeDefined();
      expect(sessionKey).toBeDefined();
      expect(await serviceAccepts(first.port, secretKey!)).toBe(true);
      expect(await serviceAccepts(first.port, 'not-the-secret-key')).toBe(false);
      firstLog = first.log();
      expect(firstLog).toContain('Generated the embedded Chatbot Service keys');
      expect(firstLog).toContain('chatbridge service keys');
      expect(firstLog).not.toContain(secretKey!);
      expect(firstLog).not.toContain(sessionKey!);
    } finally {
      await first.stop();
    }

    // A restart on the same Redis keeps the keys, and says nothing more about them.
    const second = await startChatbridge(env);
    try {
      expect(await printKeys()).toBe(printed);
      const secretKey = /^SERVICE_SECRET_KEY=(\S+)$/m.exec(printed)![1]!;
      const sessionKey = /^SERVICE_SESSION_KEY=(\S+)$/m.exec(printed)![1]!;
      expect(await serviceAccepts(second.port, secretKey)).toBe(true);
      const secondLog = second.log();
      expect(secondLog).not.toContain('Generated the embedded Chatbot Service keys');
      expect(secondLog).not.toContain(secretKey);
      expect(secondLog).not.toContain(sessionKey);
    } finally {
      await second.stop();
    }
  }, 90_000);
});
