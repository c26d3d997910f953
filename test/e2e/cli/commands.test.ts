/**
 * The CLI as a newcomer meets it: run as a process on the README's default set-up (no
 * Redis, no platform), and against a running gateway on Redis for doctor's round trip.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStateStore } from '../../../src/state/index.js';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { testRedisUrl } from '../../support/redis.js';

const ROOT = join(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'bin/chatbridge.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `chatbridge <args>` with only these settings (and console off). */
function chatbridge(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, CHATBRIDGE_CONSOLE: 'off', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('chatbridge, the command line', () => {
  it('prints its version with --version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const run = await chatbridge(['--version']);
    expect(run.stdout.trim()).toBe(version);
    expect(run.code).toBe(0);
  });

  it('says "unknown command" for a typo and lists the commands, instead of starting the gateway', async () => {
    const run = await chatbridge(['strat']);
    expect(run.stderr).toContain('unknown command "strat"');
    expect(run.stderr).toMatch(/Commands: start, service, ask, doctor, settings, listings/);
    expect(run.code).toBe(1);
  });

  it('refuses unknown settings and bad values, all at once, before calling the service', async () => {
    const run = await chatbridge([
      'settings',
      'set',
      'Bogus=1',
      'Temperature=5',
      'EnableUploadImage=yes',
      'WelcomeMessage=Hi',
    ]);
    expect(run.stderr).toContain('nothing was changed; fix these 3 and run it again');
    expect(run.stderr).toContain('Bogus is not a chatbot setting');
    expect(run.stderr).toContain('Temperature must be at most 2.');
    expect(run.stderr).toContain('EnableUploadImage must be true or false.');
    // Refused before any connection: on this set-up a call would have failed for want of a gateway.
    expect(run.stderr).not.toMatch(/gateway|REDIS_URL/);
    expect(run.code).toBe(1);
  });

  it('reports every missing field of every listing in one run', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cb-listings-')), 'listings.json');
    writeFileSync(file, JSON.stringify([{ SaleType: 'for_sale', CurrencySymbol: '$' }, { SaleType: 'for_rent' }]));
    const run = await chatbridge(['listings', 'create', file]);
    expect(run.stderr).toContain('nothing was created');
    for (const field of ['PropertyType', 'Bedrooms', 'MLSNumber', 'YearBuilt']) {
      expect(run.stderr).toContain(`listing 1: ${field} is required.`);
      expect(run.stderr).toContain(`listing 2: ${field} is required.`);
    }
    expect(run.stderr).toContain('listing 2: CurrencySymbol is required.');
    expect(run.stderr).not.toContain('listing 1: CurrencySymbol');
    expect(run.code).toBe(1);
  });

  it('on the default set-up (no Redis), says an admin command needs a running gateway with Redis or SERVICE_* keys', async () => {
    const run = await chatbridge(['ask', 'hello']);
    expect(run.stderr).toContain('call the embedded Chatbot Service inside a running gateway');
    expect(run.stderr).toContain('SERVICE_SECRET_KEY and SERVICE_SESSION_KEY');
    expect(run.stderr).not.toContain('UPSTREAM_BASE_URL is reachable');
    expect(run.code).toBe(1);
  });

  it('with keys but no gateway running, says no gateway answers rather than blaming UPSTREAM_BASE_URL', async () => {
    const run = await chatbridge(['ask', 'hello'], {
      PORT: '1',
      SERVICE_SECRET_KEY: 'doctor-secret-key-0123456789',
      SERVICE_SESSION_KEY: 'doctor-session-key-0123456789',
    });
    expect(run.stderr).toContain('No gateway answers at http://127.0.0.1:1');
    expect(run.stderr).not.toContain('UPSTREAM_BASE_URL is reachable');
    expect(run.code).toBe(1);
  });
});

describe('chatbridge start on a busy port', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('says which PORT is in use and how to choose another, and exits', async () => {
    const child = spawn(process.execPath, [CLI, 'start'], {
      env: { PATH: process.env.PATH, CHATBRIDGE_CONSOLE: 'off', PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).toContain(`PORT ${port} is in use (set PORT=`);
    expect(code).toBe(1);
  }, 60_000);
});

describe('chatbridge doctor against the configured upstream', () => {
  const prefix = `cbtest:e2e:${randomUUID().slice(0, 8)}:`;
  let gateway: ChatbridgeProcess;
  let configFile: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-doctor-'));
    const gatewayConfig = join(dir, 'gateway.yaml');
    writeFileSync(gatewayConfig, `keyPrefix: "${prefix}"\nconsole: off\nport: 0\nhost: 127.0.0.1\n`);
    gateway = await startChatbridge({ CHATBRIDGE_CONFIG: gatewayConfig });
    // doctor with the gateway's key prefix and port: it finds the generated keys in Redis and the service on the port.
    configFile = join(dir, 'doctor.yaml');
    writeFileSync(configFile, `keyPrefix: "${prefix}"\nconsole: off\nport: ${gateway.port}\n`);
  }, 60_000);
  afterAll(async () => {
    await gateway.cleanup();
    const state = new RedisStateStore({ url: testRedisUrl(), prefix });
    await state.deleteByPrefix();
    await state.close();
  });

  it("asks the running gateway's embedded service one real question (GetSession + ClientAsk)", async () => {
    const run = await chatbridge(['doctor'], { CHATBRIDGE_CONFIG: configFile, REDIS_URL: testRedisUrl() });
    expect(run.stdout).toMatch(
      new RegExp(
        `^ok {4}upstream: embedded Chatbot Service of the gateway at http://127.0.0.1:${gateway.port}: GetSession and a streamed ClientAsk work`,
        'm',
      ),
    );
    expect(run.code).toBe(0);
  }, 60_000);

  it('fails the upstream check when the service refuses the keys `ask` would use', async () => {
    const run = await chatbridge(['doctor'], {
      CHATBRIDGE_CONFIG: configFile,
      REDIS_URL: testRedisUrl(),
      SERVICE_SECRET_KEY: 'not-the-gateways-secret-key-0123',
      SERVICE_SESSION_KEY: 'not-the-gateways-session-key-0123',
    });
    expect(run.stdout).toMatch(/^FAIL {2}upstream: The gateway at .* refused the keys/m);
    expect(run.code).toBe(1);
  }, 60_000);

  it("settings get prints what the gateway applies: the embedded service's record, with an edit made through settings set", async () => {
    const env = { CHATBRIDGE_CONFIG: configFile, REDIS_URL: testRedisUrl() };
    const before = JSON.parse((await chatbridge(['settings', 'get'], env)).stdout) as Record<string, unknown>;
    // The demo chatbot takes photos and voice notes: the service's record says so, not a copy.
    expect(before).toMatchObject({ EnableUploadImage: true, EnablePushToTalk: true });
    const set = await chatbridge(['settings', 'set', 'WelcomeMessage=Hello from the CLI'], env);
    expect(set.code).toBe(0);
    const after = JSON.parse((await chatbridge(['settings', 'get'], env)).stdout) as Record<string, unknown>;
    expect(after.WelcomeMessage).toBe('Hello from the CLI');
  }, 60_000);

  it('on the default set-up, does not say the upstream is fine when nothing could be asked', async () => {
    const run = await chatbridge(['doctor'], { PORT: '1' });
    expect(run.stdout).toMatch(/^warn {2}upstream: embedded Chatbot Service: not checked/m);
    expect(run.stdout).not.toMatch(/^ok {4}upstream/m);
  }, 60_000);
});
