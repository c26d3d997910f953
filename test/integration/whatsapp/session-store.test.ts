/**
 * The WhatsApp session in Redis: RemoteAuth's store keeps the zipped browser profile as its
 * bytes in one key, and the library's own RemoteAuth saves a profile through it and restores
 * it on another "machine" (another data folder), with real zip files.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadWhatsAppLibrary } from '../../../adapters/whatsapp/load-library.js';
import { RedisSessionStore, sessionKey } from '../../../adapters/whatsapp/session-store.js';
import { platformStorage } from '../../../src/runtime/platform-storage.js';
import { RedisStateStore } from '../../../src/state/index.js';
import { testRedisUrl } from '../../support/redis.js';

const prefix = `cbtest:wa-session:${randomUUID().slice(0, 8)}:`;
const state = new RedisStateStore({ url: testRedisUrl(), prefix });
const storage = platformStorage(state, 'whatsapp', 'main');
const raw = new Redis(testRedisUrl());
const folders: string[] = [];

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'cb-wa-session-'));
  folders.push(folder);
  return folder;
}

/** The value as Redis holds it, read past the store: proof that no encoding sits in between. */
function rawValue(session: string): Promise<Buffer | null> {
  return raw.getBuffer(`${prefix}platform:whatsapp:main:${sessionKey(session)}`);
}

/** The parts of the library's RemoteAuth the client drives; called here as the client would. */
interface RemoteAuthInternals {
  setup(client: unknown): void;
  beforeBrowserInitialized(): Promise<void>;
  storeRemoteSession(options?: { emit?: boolean }): Promise<void>;
  userDataDir: string;
}

async function remoteAuth(store: RedisSessionStore, clientId: string): Promise<RemoteAuthInternals> {
  const library = await loadWhatsAppLibrary();
  // The public type hides the methods the Client calls; this test plays the Client.
  const auth = new library.RemoteAuth({
    store,
    clientId,
    dataPath: store.dataPath,
    backupSyncIntervalMs: 60_000,
  }) as unknown as RemoteAuthInternals;
  auth.setup({ options: { puppeteer: {} }, emit: () => undefined });
  return auth;
}

/** A browser profile as RemoteAuth keeps it: binary files under Default/IndexedDB and Default/Local Storage. */
function writeProfile(userDataDir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>([
    [
      'Default/IndexedDB/https_web.whatsapp.com_0.indexeddb.leveldb/000003.log',
      Buffer.concat([Buffer.from([0, 255, 0, 13, 10, 26]), randomBytes(200_000)]),
    ],
    ['Default/Local Storage/leveldb/CURRENT', Buffer.from('MANIFEST-000001\n')],
  ]);
  for (const [name, bytes] of files) {
    mkdirSync(dirname(join(userDataDir, name)), { recursive: true });
    writeFileSync(join(userDataDir, name), bytes);
  }
  return files;
}

afterEach(async () => {
  await state.deleteByPrefix();
});

afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  raw.disconnect();
  await state.close();
});

describe('the Redis session store (RemoteAuth store on PlatformStorage)', () => {
  it('save reads <dataPath>/<session>.zip before it resolves and keeps its exact bytes in one key; exists says so', async () => {
    const store = new RedisSessionStore(storage, tempFolder());
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), randomBytes(64 * 1024), Buffer.from([0, 0, 0xff])]);
    writeFileSync(store.zipPath('RemoteAuth-main'), zip);
    expect(await store.sessionExists({ session: 'RemoteAuth-main' })).toBe(false);

    await store.save({ session: 'RemoteAuth-main' });
    // The library deletes the zip right after save() resolves: nothing may still be reading it.
    rmSync(store.zipPath('RemoteAuth-main'));

    expect(await store.sessionExists({ session: 'RemoteAuth-main' })).toBe(true);
    expect(Buffer.from((await rawValue('RemoteAuth-main'))!).equals(zip)).toBe(true);
  });

  it('extract writes the stored zip to the given path, creating its folder', async () => {
    const store = new RedisSessionStore(storage, tempFolder());
    const zip = randomBytes(10_000);
    writeFileSync(store.zipPath('RemoteAuth-main'), zip);
    await store.save({ session: 'RemoteAuth-main' });

    const target = join(tempFolder(), 'not', 'there', 'yet', 'RemoteAuth-main.zip');
    await store.extract({ session: 'RemoteAuth-main', path: target });
    expect(readFileSync(target).equals(zip)).toBe(true);
  });

  it('keeps the session when the library asks to delete it (it does on any disconnect); forget removes it, and extract then says it is gone', async () => {
    const store = new RedisSessionStore(storage, tempFolder());
    writeFileSync(store.zipPath('RemoteAuth-main'), randomBytes(100));
    await store.save({ session: 'RemoteAuth-main' });

    await store.delete({ session: 'RemoteAuth-main' });
    expect(await store.sessionExists({ session: 'RemoteAuth-main' })).toBe(true);

    await store.forget('RemoteAuth-main');
    expect(await store.sessionExists({ session: 'RemoteAuth-main' })).toBe(false);
    expect(await rawValue('RemoteAuth-main')).toBeNull();
    await expect(store.extract({ session: 'RemoteAuth-main', path: join(tempFolder(), 'x.zip') })).rejects.toThrow(
      /no stored WhatsApp session/,
    );
  });

  it("whatsapp-web.js's own RemoteAuth saves a profile through it, and restores it in another data folder (another machine)", async () => {
    const first = await remoteAuth(new RedisSessionStore(storage, tempFolder()), 'main');
    await first.beforeBrowserInitialized();
    const files = writeProfile(first.userDataDir);

    await first.storeRemoteSession({ emit: true });
    const stored = await rawValue('RemoteAuth-main');
    expect(stored?.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');

    const secondStore = new RedisSessionStore(storage, tempFolder());
    const second = await remoteAuth(secondStore, 'main');
    await second.beforeBrowserInitialized();
    // The library resolves before its unzip has written the last file (it waits for the parser's
    // 'finish'); the connection waits for this before it lets Chromium start.
    expect(await secondStore.waitUntilUnpacked('RemoteAuth-main', second.userDataDir, 10_000)).toBe(true);
    const { execSync } = await import('node:child_process');
    console.log(execSync(`find ${dirname(second.userDataDir)} ${dirname(first.userDataDir)}`).toString());
    await new Promise((r) => setTimeout(r, 500));
    console.log(execSync(`find ${dirname(second.userDataDir)}`).toString());
    for (const [name, bytes] of files)
      expect(readFileSync(join(second.userDataDir, name)).equals(bytes), name).toBe(true);
    // The library unpacked the zip extract() wrote, and removed it.
    expect(existsSync(join(dirname(second.userDataDir), 'RemoteAuth-main.zip'))).toBe(false);
  });
});
