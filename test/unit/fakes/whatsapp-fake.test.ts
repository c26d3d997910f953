/**
 * The fake WhatsApp enforces the rules the adapter's tests rely on: linking and the
 * session zip as RemoteAuth handles it, WhatsApp's limits on text and edits, media that
 * expired, an unreachable page, and a client in another process through the module hook.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WaClient, WaMessage, WaRemoteStore } from '../../../adapters/whatsapp/library.js';
import { readZip, startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import { testRedisUrl } from '../../support/redis.js';

const USER = '4915112345678';
const USER_CHAT = `${USER}@c.us`;

let fake: FakeWhatsApp;
let redis: Redis;
let prefix: string;
let dataPath: string;
const clients: WaClient[] = [];

/**
 * RemoteAuth's store on real Redis: the zip's bytes as they are in one key. It keeps this test's
 * prefix and data folder: a client of an earlier test still saving must not write into this one's.
 */
function redisStore(folder = dataPath): WaRemoteStore & { saved: Buffer[]; deleted: string[] } {
  const ownPrefix = prefix;
  const key = (session: string) => `${ownPrefix}${session}`;
  const saved: Buffer[] = [];
  const deleted: string[] = [];
  return {
    saved,
    deleted,
    sessionExists: async ({ session }) => (await redis.exists(key(session))) === 1,
    save: async ({ session }) => {
      const bytes = await readFile(path.join(folder, `${session}.zip`));
      saved.push(bytes);
      await redis.set(key(session), bytes);
    },
    extract: async ({ session, path: target }) => {
      const bytes = await redis.getBuffer(key(session));
      if (bytes) await writeFile(target, bytes);
    },
    delete: async ({ session }) => {
      deleted.push(session);
      await redis.del(key(session));
    },
  };
}

function newClient(
  store?: WaRemoteStore,
  extra: Record<string, unknown> = {},
  folder = dataPath,
): WaClient & { events: Array<[string, unknown[]]>; messages: WaMessage[] } {
  const { Client, RemoteAuth } = fake.library;
  const authStrategy = store
    ? new RemoteAuth({ store, clientId: 'bot1', dataPath: folder, backupSyncIntervalMs: 60_000 })
    : undefined;
  const client = new Client({ authStrategy, ...extra }) as WaClient & {
    events: Array<[string, unknown[]]>;
    messages: WaMessage[];
  };
  client.events = [];
  client.messages = [];
  for (const event of [
    'qr',
    'code',
    'authenticated',
    'auth_failure',
    'ready',
    'disconnected',
    'remote_session_saved',
  ] as const) {
    client.on(event, (...args: unknown[]) => client.events.push([event, args]));
  }
  client.on('message', (message) => client.messages.push(message));
  clients.push(client);
  return client;
}

const names = (client: { events: Array<[string, unknown[]]> }) => client.events.map(([name]) => name);

async function linkedClient(store?: WaRemoteStore) {
  const client = newClient(store);
  await client.initialize();
  await fake.waitFor(() => names(client).includes('qr'), { what: 'a QR' });
  fake.scanQr();
  await fake.waitFor(() => names(client).includes('ready'), { what: 'ready' });
  return client;
}

beforeEach(async () => {
  process.env.FAKE_WHATSAPP_BACKUP_SYNC_MS = '100';
  fake = await startFakeWhatsApp({ qrIntervalMs: 100 });
  redis = new Redis(testRedisUrl());
  prefix = `cbtest:wafake:${Math.random().toString(36).slice(2, 10)}:`;
  dataPath = await mkdtemp(path.join(tmpdir(), 'wa-fake-'));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.destroy()));
  await fake.close();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  delete process.env.FAKE_WHATSAPP_BACKUP_SYNC_MS;
});

describe('fake WhatsApp: linking and the session', () => {
  it('shows QRs until scanned, then is ready as the number; saves a real zip, deleted after save; a new client restores it without a QR', async () => {
    const store = redisStore();
    const first = await linkedClient(store);
    expect(names(first).slice(-2)).toEqual(['authenticated', 'ready']);
    expect(first.info.wid).toEqual({ _serialized: '15550001111@c.us', user: '15550001111' });
    await fake.waitFor(() => names(first).includes('remote_session_saved'), { what: 'remote_session_saved' });
    const entries = readZip(store.saved[0]!);
    expect(entries.map((e) => e.name)).toContain('Default/session.json');
    // As the real RemoteAuth, the zip is removed after the event (in its `finally`), so wait for it.
    await fake.waitFor(() => !existsSync(path.join(dataPath, 'RemoteAuth-bot1.zip')), {
      what: 'the zip deleted after the save',
    });
    await first.destroy();

    const second = newClient(store);
    await second.initialize();
    await fake.waitFor(() => names(second).includes('ready'));
    expect(names(second)).not.toContain('qr');
    expect(fake.linkedClients().map((c) => c.id)).toHaveLength(1);
  });

  it('refuses a backup interval under 60 s, as the real RemoteAuth', () => {
    expect(() => new fake.library.RemoteAuth({ store: redisStore(), backupSyncIntervalMs: 1000 })).toThrow(/60000/);
  });

  it('links by pairing code when asked to', async () => {
    const client = newClient(undefined, { pairWithPhoneNumber: { phoneNumber: '15550001111' } });
    await client.initialize();
    await fake.waitFor(() => names(client).includes('code'));
    const code = client.events.find(([name]) => name === 'code')![1][0] as string;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    fake.enterPairingCode(code);
    await fake.waitFor(() => names(client).includes('ready'));
    expect(names(client)).not.toContain('qr');
  });

  it('LOGOUT: disconnected, the stored session deleted, the client unusable', async () => {
    const store = redisStore();
    const client = await linkedClient(store);
    await fake.waitFor(() => names(client).includes('remote_session_saved'));
    fake.disconnect('LOGOUT');
    await fake.waitFor(() => names(client).includes('disconnected'));
    await expect.poll(() => store.sessionExists({ session: 'RemoteAuth-bot1' })).toBe(false);
    await expect(client.getState()).rejects.toThrow(/Session closed/);
  });

  it('a second client on the same session: the first gets CONFLICT, its RemoteAuth deletes the stored session (as real ones on any disconnect)', async () => {
    const store = redisStore();
    const first = await linkedClient(store);
    await fake.waitFor(() => names(first).includes('remote_session_saved'));
    // Another process, as in production: its own profile folder (the first keeps saving into its own).
    const secondFolder = await mkdtemp(path.join(tmpdir(), 'wa-fake-second-'));
    const second = newClient(redisStore(secondFolder), {}, secondFolder);
    await second.initialize();
    await fake.waitFor(() => names(first).includes('disconnected'));
    expect(first.events.find(([name]) => name === 'disconnected')![1]).toEqual(['CONFLICT']);
    expect(names(second)).toContain('ready');
    expect(fake.linkedClients()).toHaveLength(1);
    // Asked of the first client's store (the second, now linked, saves the session again soon after).
    await expect.poll(() => store.deleted).toEqual(['RemoteAuth-bot1']);
  });

  it('a refused stored session is auth_failure', async () => {
    const store = redisStore();
    const first = await linkedClient(store);
    await fake.waitFor(() => names(first).includes('remote_session_saved'));
    await first.destroy();
    fake.refuseSession();
    const second = newClient(store);
    await second.initialize();
    expect(names(second)).toEqual(['auth_failure']);
  });
});

describe('fake WhatsApp: conversations', () => {
  it('delivers a private text with the real fields, and shows the answer, its edits and their history', async () => {
    const client = await linkedClient();
    fake.userSends({ from: USER, text: 'hello', name: 'Ana' });
    await fake.waitFor(() => client.messages.length === 1);
    const incoming = client.messages[0]!;
    expect(incoming.id._serialized).toMatch(new RegExp(`^false_${USER_CHAT}_3EB0`));
    expect(incoming).toMatchObject({
      from: USER_CHAT,
      to: fake.botId,
      type: 'chat',
      body: 'hello',
      fromMe: false,
      rawData: { notifyName: 'Ana' },
    });
    expect(incoming.timestamp).toBeLessThan(Date.now() / 100); // seconds, not ms

    const answer = await client.sendMessage(USER_CHAT, 'Hel');
    expect(await answer.edit('Hello there')).not.toBeNull();
    fake.refuseNextEdit();
    expect(await answer.edit('Hello there!')).toBeNull();
    expect(await incoming.edit('not mine')).toBeNull();
    expect(fake.screen(USER_CHAT)).toEqual(['Hello there']);
    expect(fake.renders(USER_CHAT)).toEqual(['Hel', 'Hello there']);

    fake.setEditWindowMs(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await answer.edit('late')).toBeNull();
    await expect(client.sendMessage(USER_CHAT, 'x'.repeat(65_537))).rejects.toThrow(/too long/);
  });

  it('groups: author, mention of the bot, reply to the bot with its quoted message', async () => {
    const client = await linkedClient();
    const botMessage = await client.sendMessage('120363000000000001@g.us', 'I am the bot');
    fake.userSends({ from: USER, group: '120363000000000001', text: 'hi', mentionsBot: true });
    fake.userSends({ from: USER, group: '120363000000000001', text: 'and?', quoting: botMessage.id._serialized });
    await fake.waitFor(() => client.messages.length === 2);
    const [mention, reply] = client.messages as [WaMessage, WaMessage];
    expect(mention).toMatchObject({ from: '120363000000000001@g.us', author: USER_CHAT, mentionedIds: [fake.botId] });
    expect(reply.hasQuotedMsg).toBe(true);
    expect((await reply.getQuotedMessage()).id._serialized).toBe(botMessage.id._serialized);

    fake.userSends({ from: USER, chat: 'status@broadcast', text: 'my status' });
    fake.userSends({ from: USER, chat: '120363000000000002@newsletter', text: 'news' });
    await fake.waitFor(() => client.messages.length === 4);
    expect(client.messages[2]).toMatchObject({ isStatus: true, broadcast: true, author: USER_CHAT });
    expect(client.messages[3]).toMatchObject({ from: '120363000000000002@newsletter', isStatus: false });
  });

  it('media: the bytes with the size known before download; null once expired, undefined when the download fails', async () => {
    const client = await linkedClient();
    const bytes = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 255]);
    const voice = fake.userSends({
      from: USER,
      type: 'ptt',
      media: { bytes, mimetype: 'audio/ogg; codecs=opus', duration: 3 },
    });
    fake.userSends({ from: USER, type: 'image', media: { bytes, mimetype: 'image/jpeg', failDownload: true } });
    await fake.waitFor(() => client.messages.length === 2);
    const [ptt, image] = client.messages as [WaMessage, WaMessage];
    expect(ptt).toMatchObject({ type: 'ptt', hasMedia: true, duration: '3', rawData: { size: 6 } });
    expect(Buffer.from((await ptt.downloadMedia())!.data, 'base64')).toEqual(Buffer.from(bytes));
    fake.expireMedia(voice.id._serialized);
    expect(await ptt.downloadMedia()).toBeNull();
    expect(await image.downloadMedia()).toBeUndefined();
  });

  it("files from the bot: a MessageMedia only, as media up to 16 MB or as a document up to 100 MB, past them WhatsApp Web's opaque failure", async () => {
    const client = await linkedClient();
    const { MessageMedia } = fake.library;
    const base64 = (size: number) => Buffer.alloc(size, 1).toString('base64');
    await client.sendMessage(USER_CHAT, new MessageMedia('image/jpeg', base64(10), 'a.jpg'), { caption: 'photo' });
    await client.sendMessage(USER_CHAT, new MessageMedia('application/pdf', base64(10), 'b.pdf'), { caption: 'doc' });
    await client.sendMessage(USER_CHAT, new MessageMedia('image/png', base64(10), 'c.png'), {
      sendMediaAsDocument: true,
    });
    expect(fake.sentMedia(USER_CHAT).map((m) => [m.type, m.filename, m.caption])).toEqual([
      ['image', 'a.jpg', 'photo'],
      ['document', 'b.pdf', 'doc'],
      ['document', 'c.png', ''],
    ]);
    const plain = { mimetype: 'image/jpeg', data: base64(10) };
    await expect(client.sendMessage(USER_CHAT, plain)).rejects.toThrow(/MessageMedia/);
    const large = new MessageMedia('video/mp4', base64(16 * 1024 * 1024 + 1), 'v.mp4');
    await expect(client.sendMessage(USER_CHAT, large)).rejects.toThrow('Evaluation failed: a');
    await client.sendMessage(USER_CHAT, large, { sendMediaAsDocument: true });
    expect(fake.sentMedia(USER_CHAT).at(-1)?.type).toBe('document');
  });

  it('typing lasts until cleared or the next message; seen when marked', async () => {
    const client = await linkedClient();
    const chat = await client.getChatById(USER_CHAT);
    await chat.sendStateTyping();
    expect(fake.typing(USER_CHAT)).toBe(true);
    await client.sendMessage(USER_CHAT, 'done', { sendSeen: false });
    expect(fake.typing(USER_CHAT)).toBe(false);
    expect(fake.seen(USER_CHAT)).toBe(false);
    await chat.sendSeen();
    expect(fake.seen(USER_CHAT)).toBe(true);
  });

  it('unreachable: calls fail as puppeteer does, and messages sent meanwhile arrive on coming back; a duplicate keeps its id', async () => {
    const client = await linkedClient();
    fake.goUnreachable();
    await expect(client.sendMessage(USER_CHAT, 'x')).rejects.toThrow(
      'Protocol error (Runtime.callFunctionOn): Session closed.',
    );
    const sent = fake.userSends({ from: USER, text: 'while away' });
    fake.comeBack();
    fake.redeliver(sent);
    await fake.waitFor(() => client.messages.length === 2);
    expect(client.messages.map((m) => m.id._serialized)).toEqual([sent.id._serialized, sent.id._serialized]);
  });

  it('getState can hang (a stuck page), for a watchdog', async () => {
    const client = await linkedClient();
    expect(await client.getState()).toBe('CONNECTED');
    fake.hangGetState();
    const outcome = await Promise.race([
      client.getState(),
      new Promise((resolve) => setTimeout(() => resolve('no answer'), 300)),
    ]);
    expect(outcome).toBe('no answer');
  });
});

describe('fake WhatsApp: in another process', () => {
  it('register.mjs makes import("whatsapp-web.js") the fake, reaching the world at FAKE_WHATSAPP_URL', async () => {
    const script = `
      const { default: lib } = await import('whatsapp-web.js');
      const client = new lib.Client({});
      client.on('message', (m) => { void client.sendMessage(m.from, 'echo: ' + m.body); });
      await client.initialize();`;
    const child = spawn(
      process.execPath,
      ['--import', path.resolve('fakes/whatsapp/register.mjs'), '--import', 'tsx', '--input-type=module', '-e', script],
      {
        env: { ...process.env, FAKE_WHATSAPP_URL: fake.url },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await fake.waitFor(() => fake.clients().some((c) => c.state === 'waiting-for-qr'), {
        timeoutMs: 10_000,
        what: `a QR from the child (stderr: ${stderr})`,
      });
      fake.scanQr();
      fake.userSends({ from: USER, text: 'ping' });
      await fake.waitFor(() => fake.screen(USER_CHAT).length > 0, { timeoutMs: 10_000 });
      expect(fake.screen(USER_CHAT)).toEqual(['echo: ping']);
    } finally {
      child.kill();
    }
  });
});
