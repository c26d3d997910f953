import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisStateStore } from '../../src/state/index.js';
import { testRedisUrl } from './redis.js';

const CLI = join(import.meta.dirname, '../../bin/chatbridge.js');

/** How long a SIGTERM may take before the test kills the service outright. */
const STOP_GRACE_MS = 10_000;

export const SERVICE_SECRET = 'e2e-service-secret-key';
export const SERVICE_SESSION_KEY = 'e2e-service-session-key';

export interface ServiceProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` from the "Chatbot Service at" line. */
  url: string;
  /** The child's resident memory now (VmRSS of /proc/<pid>/status), in bytes. */
  rssBytes(): number;
  /** POSTs JSON with the secret key, as the gateway does. */
  call(
    path: string,
    body: unknown,
  ): Promise<{ status: number; body: { Success: boolean; Code: number; Message: string; Data?: unknown } }>;
  log(): string;
  /** SIGTERM (SIGKILL if it does not exit), then delete its Redis keys. */
  cleanup(): Promise<void>;
}

/**
 * `chatbridge service --port 0` as a real process on real Redis, under a private
 * key prefix, with the demo chatbot seeded and known keys.
 */
export async function startServiceProcess(): Promise<ServiceProcess> {
  const prefix = `cbtest:e2e-svc:${randomUUID().slice(0, 8)}:`;
  const configFile = join(mkdtempSync(join(tmpdir(), 'cb-e2e-svc-')), 'chatbridge.yaml');
  writeFileSync(configFile, `keyPrefix: "${prefix}"\nconsole: off\n`);
  const child = spawn(process.execPath, [CLI, 'service', '--port', '0'], {
    env: {
      PATH: process.env.PATH,
      CHATBRIDGE_CONFIG: configFile,
      REDIS_URL: testRedisUrl(),
      LOG_LEVEL: 'warn',
      SERVICE_SECRET_KEY: SERVICE_SECRET,
      SERVICE_SESSION_KEY: SERVICE_SESSION_KEY,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chatbridge service did not start:\n${out}${err}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const at = /Chatbot Service at (\S+)/.exec(out);
      if (at) {
        clearTimeout(timer);
        resolve(at[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`chatbridge service exited with ${code}:\n${out}${err}`)));
  });

  return {
    child,
    url,
    rssBytes() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
      if (!kb) throw new Error(`No VmRSS in /proc/${child.pid}/status`);
      return Number(kb[1]) * 1024;
    },
    async call(path, body) {
      const response = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: SERVICE_SECRET },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        body: (await response.json()) as Awaited<ReturnType<ServiceProcess['call']>>['body'],
      };
    },
    log: () => err,
    async cleanup() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        // A process whose event loop is blocked cannot run its SIGTERM handler: do not wait for it forever.
        const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(kill);
      }
      const state = new RedisStateStore({ url: testRedisUrl(), prefix });
      await state.deleteByPrefix();
      await state.close();
    },
  };
}
