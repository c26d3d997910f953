/**
 * The WhatsApp connection against the fake whatsapp-web.js, on real Redis: linking by QR and
 * by pairing code, the session kept in Redis and resumed by another process without a QR, and
 * the watchdog: a disconnect re-creates the client (session kept), a logout or a refused
 * session clears it and asks for a new QR, a client that stops answering getState() is replaced.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WhatsAppConnection, type ConnectionTimings } from '../../../adapters/whatsapp/connection.js';
import type { WaClient } from '../../../adapters/whatsapp/library.js';
import { sessionKey } from '../../../adapters/whatsapp/session-store.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { testRedisUrl } from '../../support/redis.js';

const SESSION = 'RemoteAuth-main';
/**
 * Short enough for a test; the backoff still doubles between tries. The watchdog runs only in
 * its own test: on a busy machine a slow getState() would count as a hang and replace a client
 * just as another test's event reaches it (a replaced client's events are rightly ignored).
 */
const TIMINGS: Partial<ConnectionTimings> = {
  restartMinMs: 100,
  restartMaxMs: 400,
  watchdogEveryMs: 600_000,
  watchdogTimeoutMs: 1_000,
  ttlMs: 5_000,
  renewEveryMs: 1_000,
  retryEveryMs: 200,
};
/** The watchdog's own test: checks often, and its timeout stays above a busy machine's getState(). */
const WATCHDOG: Partial<ConnectionTimings> = { watchdogEveryMs: 300, watchdogTimeoutMs: 1_000 };

let fake: FakeWhatsApp;
const state = new RedisStateStore({ url: testRedisUrl(), prefix: `cbtest:wa-conn:${randomUUID().slice(0, 8)}:` });
const storage = platformStorage(state, 'whatsapp', 'main');
const running: WhatsAppConnection[] = [];

function connect(timings: Partial<ConnectionTimings> = {}): {
  connection: WhatsAppConnection;
  attached: WaClient[];
  log: { msg: string }[];
} {
  const log: { msg: string }[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        log.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  );
  const attached: WaClient[] = [];
  const connection = new WhatsAppConnection({
    bot: 'main',
    logger,
    storage,
    library: async () => fake.library,
    // The fake only checks that an executable is there.
    chromiumPath: process.execPath,
    attach: (client) => attached.push(client),
    terminalQr: false,
    timings: { ...TIMINGS, ...timings },
  });
  running.push(connection);
  return { connection, attached, log };
}

const waitFor = (predicate: () => boolean, what: string, timeoutMs = 8_000) =>
  fake.waitFor(predicate, { what, timeoutMs });

beforeAll(() => {
  // The fake's RemoteAuth saves after this instead of the real one's 60 s.
  process.env.FAKE_WHATSAPP_BACKUP_SYNC_MS = '200';
});

afterEach(async () => {
  for (const connection of running.splice(0)) await connection.stop();
  await fake?.close();
  await state.deleteByPrefix();
});

afterAll(async () => {
  delete process.env.FAKE_WHATSAPP_BACKUP_SYNC_MS;
  await state.close();
});

/** Starts a connection and links it by QR; resolves once the session is in Redis. */
async function linked(timings: Partial<ConnectionTimings> = {}) {
  const side = connect(timings);
  await side.connection.start();
  await waitFor(() => side.connection.link().state === 'waiting-for-scan', 'a QR');
  fake.scanQr();
  await waitFor(() => side.connection.client() !== undefined, 'ready');
  await waitFor(() => side.log.some((line) => line.msg.startsWith('WhatsApp session saved')), 'the session saved');
  return side;
}

describe('the WhatsApp connection', () => {
  it('shows the QR, and once scanned is connected with the number; the session is kept in Redis as one binary key', async () => {
    fake = await startFakeWhatsApp({ qrIntervalMs: 5_000 });
    const { connection, attached, log } = connect();
    await connection.start();
    await waitFor(() => connection.link().state === 'waiting-for-scan', 'a QR');
    const link = connection.link();
    expect(link.state === 'waiting-for-scan' && link.qr).toBe(fake.clients()[0]!.qr);
    expect(connection.status()).toEqual({
      connected: false,
      waiting: 'operator',
      reason: 'waiting for the QR to be scanned at /whatsapp/main/qr',
    });
    expect(connection.client()).toBeUndefined();

    fake.scanQr();
    await waitFor(() => connection.client() !== undefined, 'ready');
    expect(connection.link()).toEqual({ state: 'linked', number: fake.number, name: 'Chatbridge' });
    expect(connection.status()).toEqual({ connected: true });
    expect(connection.client()).toBe(attached[0]);
    await waitFor(() => log.some((line) => line.msg.startsWith('WhatsApp session saved')), 'the session saved');
    await state
      .getBytes(`platform:whatsapp:main:${sessionKey(SESSION)}`)
      .then((bytes) => expect(Buffer.from(bytes!).subarray(0, 4).toString('latin1')).toBe('PK\x03\x04'));
  });

  it('resumes the stored session in a new process (another folder) without a QR', async () => {
    fake = await startFakeWhatsApp({ qrIntervalMs: 5_000 });
    const first = await linked();
    await first.connection.stop();

    const second = connect();
    await second.connection.start();
    await waitFor(() => second.connection.client() !== undefined, 'ready without a scan');
    expect(fake.clients().every((client) => client.qr === undefined || client.state === 'closed')).toBe(true);
  });

  it('re-creates a client that was disconnected (NAVIGATION), keeping the session: ready again without a QR', async () => {
    fake = await startFakeWhatsApp({ qrIntervalMs: 5_000 });
    const { connection, attached, log } = await linked();
    fake.disconnect('NAVIGATION');
    // Waits for the re-creation this disconnect caused, then for its client to be the ready one.
    await waitFor(
      () => log.some((line) => line.msg === 'WhatsApp Web disconnected; re-creating the client'),
      'the disconnect handled',
    );
    await waitFor(() => attached.length >= 2 && connection.client() === attached.at(-1), 'a new client, ready');
    expect(await storage.exists(sessionKey(SESSION))).toBe(true);
  });

  it('after a logout on the phone clears the stored session and asks for a new QR, saying why', async () => {
    fake = await startFakeWhatsApp({ qrIntervalMs: 5_000 });
    const { connection, attached } = await linked();
    fake.disconnect('LOGOUT');
    await waitFor(() => connection.link().state === 'waiting-for-scan' && attached.length === 2, 'a new QR');
    expect(connection.link()).toMatchObject({ notice: 'the phone logged this device out; link the number again' });
    expect(await storage.exists(sessionKey(SESSION))).toBe(false);
    fake.scanQr();
    await waitFor(() => connection.client() === attached[1], 'linked again');
  });

  it('after auth_failure (WhatsApp refuses the stored session) clears it and asks for a new QR', async () => {
    fake = await startFakeWhatsApp({ qrIntervalMs: 5_000 });
    const first = await linked();
    await first.connection.stop();
    fake.refuseSession();

    const second = connect();
    await second.connection.start();
    await waitFor(() => second.connection.link().state === 'waiting-for-scan', 'a new QR');
    expect(second.log.some((line) => line.msg.startsWith('WhatsApp refused the stored session'))).toBe(true);
    expect(second.connection.link()).toMatchObject({
      notice: expect.stringContaining('WhatsApp refused the stored session'),
    });
    expect(await storage.exists(sessionKey(SESSION))).toBe(false);
  });

  it('restarts a client that stops answering getState()', async () => {
    fake = await startFakeWhatsApp({ qrIntervalMs: 5_000 });
    const { connection, attached, log } = await linked(WATCHDOG);
    fake.hangGetState();
    await waitFor(
      () => log.some((line) => line.msg === 'WhatsApp Web stopped answering; restarting the client'),
      'the watchdog',
    );
    fake.hangGetState(false);
    await waitFor(() => attached.length >= 2 && connection.client() === attached.at(-1), 'a new client, ready');
  });

  it('stands by while another process holds the number, and takes over at once when that one stops', async () => {
    fake = await startFakeWhatsApp({ qrIntervalMs: 5_000 });
    const holder = await linked();
    const standby = connect();
    await standby.connection.start();
    await waitFor(() => standby.connection.link().state === 'standby', 'standby');
    expect(standby.connection.status()).toEqual({
      connected: false,
      waiting: 'standby',
      reason: 'standby: another process runs this number',
    });
    expect(standby.attached).toHaveLength(0);

    await holder.connection.stop();
    await waitFor(() => standby.connection.client() !== undefined, 'the standby ready');
    expect(fake.linkedClients()).toHaveLength(1);
  });
});
