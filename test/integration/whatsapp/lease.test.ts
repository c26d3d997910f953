/**
 * One browser per WhatsApp number across replicas: two real processes on real Redis ask for
 * the lease; one runs the browser, the other stands by, and takes over when the first dies
 * (after the lease expires) or stops (at once: the lease is released on SIGTERM).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisStateStore } from '../../../src/state/index.js';
import { testRedisUrl } from '../../support/redis.js';

const HOLDER = join(import.meta.dirname, 'lease-holder.ts');
const prefix = `cbtest:wa-lease:${randomUUID().slice(0, 8)}:`;
const children: ChildProcess[] = [];

interface Holder {
  child: ChildProcess;
  lines: string[];
  said(line: string, timeoutMs: number): Promise<void>;
}

function startHolder(ttlMs: number): Holder {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, testRedisUrl(), prefix, String(ttlMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  return {
    child,
    lines,
    said: (line, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const check = () => {
          if (lines.includes(line)) return resolve();
          if (Date.now() > deadline)
            return reject(new Error(`no "${line}" within ${timeoutMs} ms; said: ${lines.join(', ') || 'nothing'}`));
          setTimeout(check, 25);
        };
        check();
      }),
  };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGKILL');
    await exited(child);
  }
  const state = new RedisStateStore({ url: testRedisUrl(), prefix });
  await state.deleteByPrefix();
  await state.close();
});

describe('the WhatsApp browser lease across processes', () => {
  it('lets one process run the browser while the other stands by, and hands it over when the holder is killed -9, once the lease expires', async () => {
    const ttlMs = 2_000;
    const first = startHolder(ttlMs);
    await first.said('ACQUIRED', 10_000);
    const second = startHolder(ttlMs);
    await second.said('STANDBY', 10_000);
    expect(second.lines).not.toContain('ACQUIRED');

    first.child.kill('SIGKILL');
    await exited(first.child);
    await second.said('ACQUIRED', ttlMs + 8_000);
  });

  it('hands the browser over at once when the holder stops (SIGTERM releases the lease), long before it would expire', async () => {
    // A lease that would outlast the test: only a release lets the second process in.
    const ttlMs = 120_000;
    const first = startHolder(ttlMs);
    await first.said('ACQUIRED', 10_000);
    const second = startHolder(ttlMs);
    await second.said('STANDBY', 10_000);

    first.child.kill('SIGTERM');
    await first.said('RELEASED', 10_000);
    await second.said('ACQUIRED', 10_000);
  });
});
