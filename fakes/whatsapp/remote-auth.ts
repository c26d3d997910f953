/**
 * The fake RemoteAuth: the real one's file dance (src/authStrategies/RemoteAuth.js in
 * 1.34.7) on a fake browser profile, so the store under test sees what it will see in
 * production: `extract` to `<dataPath>/<session>.zip`, `save` reading that file, which is
 * deleted as soon as `save` resolves, `delete` on disconnect and logout.
 *
 * One deliberate difference: the real one refuses a backupSyncIntervalMs under 60,000 and
 * waits 60 s before the first save; the fake refuses the same, but when
 * FAKE_WHATSAPP_BACKUP_SYNC_MS is set it uses that for both waits (tests cannot wait a minute).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WaAuthStrategy, WaRemoteAuthOptions, WaRemoteStore } from '../../adapters/whatsapp/library.js';
import { readZip, writeZip, type ZipEntry } from './zip.js';

/** The profile file holding the fake's session token (the real profile holds WhatsApp's keys). */
const TOKEN_FILE = 'Default/session.json';
/** Bytes 0-255: a store that is not binary-safe (utf8, trimming) breaks this file and the zip's CRC. */
const BINARY_FILE = 'Default/Local Storage/leveldb/000003.log';

interface EmittingClient {
  emit(event: 'remote_session_saved'): boolean;
}

export class FakeRemoteAuth implements WaAuthStrategy {
  readonly store: WaRemoteStore;
  readonly clientId: string | undefined;
  readonly dataPath: string;
  readonly backupSyncIntervalMs: number;
  readonly sessionName: string;
  readonly userDataDir: string;
  private client: EmittingClient | undefined;
  private backupSync: NodeJS.Timeout | undefined;
  private firstSave: NodeJS.Timeout | undefined;

  constructor({ store, clientId, dataPath, backupSyncIntervalMs }: WaRemoteAuthOptions) {
    if (clientId && !/^[-_\w]+$/i.test(clientId)) {
      throw new Error('Invalid clientId. Only alphanumeric characters, underscores and hyphens are allowed.');
    }
    if (!backupSyncIntervalMs || backupSyncIntervalMs < 60000) {
      throw new Error('Invalid backupSyncIntervalMs. Accepts values starting from 60000ms {1 minute}.');
    }
    if (!store) throw new Error('Remote database store is required.');
    this.store = store;
    this.clientId = clientId;
    this.dataPath = path.resolve(dataPath || './.wwebjs_auth/');
    const override = Number(process.env.FAKE_WHATSAPP_BACKUP_SYNC_MS);
    this.backupSyncIntervalMs = override > 0 ? override : backupSyncIntervalMs;
    this.sessionName = clientId ? `RemoteAuth-${clientId}` : 'RemoteAuth';
    this.userDataDir = path.join(this.dataPath, this.sessionName);
  }

  get zipPath(): string {
    return path.join(this.dataPath, `${this.sessionName}.zip`);
  }

  setup(client: unknown): void {
    this.client = client as EmittingClient;
  }

  /** As the real one: a fresh profile folder, filled from the stored zip when there is one. */
  async beforeBrowserInitialized(): Promise<void> {
    await rm(this.userDataDir, { recursive: true, force: true });
    if (await this.store.sessionExists({ session: this.sessionName })) {
      await this.store.extract({ session: this.sessionName, path: this.zipPath });
      const entries = readZip(await readFile(this.zipPath));
      for (const entry of entries) {
        const target = path.join(this.userDataDir, entry.name);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, entry.data);
      }
      await unlink(this.zipPath);
    } else {
      await mkdir(this.userDataDir, { recursive: true });
    }
  }

  async afterBrowserInitialized(): Promise<void> {}

  async onAuthenticationNeeded(): Promise<{ failed?: boolean; restart?: boolean; failureEventPayload?: unknown }> {
    return { failed: false, restart: false, failureEventPayload: undefined };
  }

  async getAuthEventPayload(): Promise<unknown> {
    return undefined;
  }

  /** As the real one: no stored session yet → wait, save, emit remote_session_saved; then save every interval (no event). */
  async afterAuthReady(): Promise<void> {
    const exists = await this.store.sessionExists({ session: this.sessionName });
    if (!exists) {
      await new Promise<void>((resolve) => {
        this.firstSave = setTimeout(resolve, this.backupSyncIntervalMs);
      });
      this.firstSave = undefined;
      await this.storeRemoteSession({ emit: true });
    }
    this.backupSync = setInterval(() => {
      void this.storeRemoteSession().catch(() => {});
    }, this.backupSyncIntervalMs);
  }

  async disconnect(): Promise<void> {
    await this.deleteRemoteSession();
    await rm(this.userDataDir, { recursive: true, force: true }).catch(() => {});
    this.stopTimers();
  }

  async logout(): Promise<void> {
    await this.disconnect();
  }

  async destroy(): Promise<void> {
    // The real one leaves a pending first save running; the fake stops it so a destroyed client stays silent.
    this.stopTimers();
  }

  /** The token the client restores with, when the profile has one (a session was extracted). */
  async storedToken(): Promise<string | undefined> {
    const file = path.join(this.userDataDir, TOKEN_FILE);
    if (!existsSync(file)) return undefined;
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { token?: string };
    return parsed.token;
  }

  /** What WhatsApp Web writes in the profile once linked. */
  async writeProfile(token: string): Promise<void> {
    await mkdir(path.join(this.userDataDir, path.dirname(BINARY_FILE)), { recursive: true });
    await writeFile(path.join(this.userDataDir, TOKEN_FILE), JSON.stringify({ token }));
    await writeFile(path.join(this.userDataDir, BINARY_FILE), Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
  }

  private async storeRemoteSession(options?: { emit?: boolean }): Promise<void> {
    if (!existsSync(this.userDataDir)) return;
    try {
      await writeFile(this.zipPath, writeZip(await readTree(this.userDataDir)));
      await this.store.save({ session: this.sessionName });
      if (options?.emit) this.client?.emit('remote_session_saved');
    } finally {
      await rm(this.zipPath, { force: true });
    }
  }

  private async deleteRemoteSession(): Promise<void> {
    if (await this.store.sessionExists({ session: this.sessionName }))
      await this.store.delete({ session: this.sessionName });
  }

  private stopTimers(): void {
    clearInterval(this.backupSync);
    clearTimeout(this.firstSave);
  }
}

async function readTree(root: string, prefix = ''): Promise<ZipEntry[]> {
  const entries: ZipEntry[] = [];
  for (const item of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    const name = prefix ? `${prefix}/${item.name}` : item.name;
    if (item.isDirectory()) entries.push(...(await readTree(root, name)));
    else entries.push({ name, data: await readFile(path.join(root, name)) });
  }
  return entries;
}
