/**
 * RemoteAuth's store on the adapter's PlatformStorage (Redis): the zipped browser profile
 * of a linked number, kept as its bytes in one key per session (binary-safe, no base64), so
 * a restart or another machine picks the link up with no volume.
 *
 * whatsapp-web.js 1.34.7 hands `save` only the session's name: the store reads the zip the
 * library wrote at `<dataPath>/<session>.zip` (older versions wrote it in the working
 * directory) and must have read it all before resolving, because the library deletes it
 * right after.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PlatformStorage } from '../../src/contract.js';
import type { WaRemoteStore } from './library.js';

/** The storage key of a session (the library names it `RemoteAuth-<clientId>`). */
export function sessionKey(session: string): string {
  return `session:${session}`;
}

export class RedisSessionStore implements WaRemoteStore {
  /** `dataPath` must be the one given to RemoteAuth: the zip is read from there. */
  constructor(private readonly storage: PlatformStorage, readonly dataPath: string) {}

  /** Where the library writes the zip of `session` before calling save(). */
  zipPath(session: string): string {
    return join(this.dataPath, `${session}.zip`);
  }

  sessionExists({ session }: { session: string }): Promise<boolean> {
    return this.storage.exists(sessionKey(session));
  }

  async save({ session }: { session: string }): Promise<void> {
    const bytes = await readFile(this.zipPath(session));
    await this.storage.setBytes(sessionKey(session), bytes);
  }

  async extract({ session, path }: { session: string; path: string }): Promise<void> {
    const bytes = await this.storage.getBytes(sessionKey(session));
    if (!bytes) throw new Error(`no stored WhatsApp session "${session}" to restore (it was deleted while the client started); the client will ask for a new QR`);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
  }

  delete({ session }: { session: string }): Promise<void> {
    return this.storage.delete(sessionKey(session));
  }
}
