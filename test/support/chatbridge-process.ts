import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatEndpoint, RedisStateStore } from '../../src/state/index.js';
import { DEFAULT_GATEWAY_POLICY } from '../../src/gateway/index.js';
import { testRedisClusterNodes, testRedisUrl, type TestTopology } from './redis.js';

const CLI = join(import.meta.dirname, '../../bin/chatbridge.js');

export interface ChatbridgeProcess {
  child: ChildProcess;
  /** The key prefix of its state in the test Redis (pass it to another start for a restart or a replica). */
  prefix: string;
  /** The HTTP port from the "chatbridge is running" log line. */
  port: number;
  /** Everything it wrote to stderr (its JSON log). */
  log(): string;
  /** SIGTERM, then resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Stops it if running and deletes its Redis keys. */
  cleanup(): Promise<void>;
}

/**
 * How long a start may take before the test gives up: a start is ~2 s on an idle machine, but the
 * whole suite on 2 cores runs several gateway processes at once (the replica tests two each).
 */
const START_TIMEOUT_MS = 45_000;

export interface StartChatbridgeOptions {
  port?: number;
  /**
   * Resolve as soon as the process is spawned, not once it says it runs (needs `port`): for a
   * test of what the port answers while the gateway is still starting.
   */
  early?: boolean;
  /** The state's key prefix; default a new private one. Reuse another process's to share its state. */
  prefix?: string;
  /** Config `gateway:` settings (lock timings, grace period…). */
  gateway?: Record<string, number>;
  /** 'cluster': the process uses the test Redis Cluster (REDIS_CLUSTER_NODES) instead of one Redis. */
  topology?: TestTopology;
  /** The bin/chatbridge.js to run; default this checkout's (another: an earlier version, test/support/earlier-build.ts). */
  cli?: string;
}

/**
 * The burst window of the tests that set none: each message answered on its own. Most process tests send
 * messages back to back and specify each one's answer (delivery, outages, the handoff, the CLI); a burst
 * (gateway.burstMs) would also add its wait to every answer they wait for. The default set-up's own tests
 * (default-demo, messages-as-written) set it to the default: `defaultBursts`.
 */
const ANSWER_EACH_MESSAGE = { CHATBRIDGE_BURST_MS: '0' };

/** The env a test passes to keep the default burst window, as a user gets it. */
export const defaultBursts = (): Record<string, string> => ({
  CHATBRIDGE_BURST_MS: String(DEFAULT_GATEWAY_POLICY.burstMs),
});

/**
 * `chatbridge start` as a real process on real Redis, under a private key prefix, with the console off: the one
 * way the process tests start a gateway (the builders in test/support add a platform's fake and its variables).
 * `env` adds the test's settings; a `CHATBRIDGE_CONFIG` in it replaces the generated config file. Bursts are off
 * unless `env` or `gateway` sets them (ANSWER_EACH_MESSAGE).
 */
export async function startChatbridge(
  env: Record<string, string>,
  options: StartChatbridgeOptions = {},
): Promise<ChatbridgeProcess> {
  if (options.early && !options.port)
    throw new Error('startChatbridge: `early` needs a `port` chosen before the start');
  const prefix = options.prefix ?? `cbtest:e2e:${randomUUID().slice(0, 8)}:`;
  const nodes = options.topology === 'cluster' ? testRedisClusterNodes() : [];
  const gatewaySettings = Object.entries(options.gateway ?? {}).map(([key, value]) => `  ${key}: ${value}\n`);
  const configFile = join(mkdtempSync(join(tmpdir(), 'cb-e2e-')), 'chatbridge.yaml');
  writeFileSync(
    configFile,
    `keyPrefix: "${prefix}"\nconsole: off\nport: ${options.port ?? 0}\nhost: 127.0.0.1\n` +
      (gatewaySettings.length > 0 ? `gateway:\n${gatewaySettings.join('')}` : ''),
  );
  const child = spawn(process.execPath, [options.cli ?? CLI, 'start'], {
    env: {
      PATH: process.env.PATH,
      CHATBRIDGE_CONFIG: configFile,
      ...(nodes.length > 0
        ? { REDIS_CLUSTER_NODES: nodes.map(formatEndpoint).join(',') }
        : { REDIS_URL: testRedisUrl() }),
      LOG_LEVEL: 'info',
      ...(options.gateway?.burstMs === undefined ? ANSWER_EACH_MESSAGE : {}),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const port = options.early
    ? options.port!
    : await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`chatbridge did not start:\n${stderr.join('')}`)),
          START_TIMEOUT_MS,
        );
        child.stderr!.on('data', () => {
          const running = /"port":(\d+),[^\n]*"msg":"chatbridge is running"/.exec(stderr.join(''));
          if (running) {
            clearTimeout(timer);
            resolve(Number(running[1]));
          }
        });
        child.once('exit', (code) => reject(new Error(`chatbridge exited with ${code}:\n${stderr.join('')}`)));
      });
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    return new Promise<number | null>((resolve) => child.once('exit', resolve));
  };
  return {
    child,
    prefix,
    port,
    log: () => stderr.join(''),
    stop,
    async cleanup() {
      await stop();
      const state =
        nodes.length > 0
          ? new RedisStateStore({ topology: { kind: 'cluster', nodes }, prefix })
          : new RedisStateStore({ url: testRedisUrl(), prefix });
      await state.deleteByPrefix();
      await state.close();
    },
  };
}
